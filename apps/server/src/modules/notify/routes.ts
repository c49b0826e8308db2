import type { FastifyInstance } from 'fastify';
import { asc } from 'drizzle-orm';
import { API, smsTemplateResource } from '@meter/contracts';
import { smsTemplates } from '../../db/schema/index.ts';
import { platformTx } from '../../http/context.ts';
import { registerCrud } from '../../http/crud.ts';
import { routes } from '../../http/routes.ts';
import * as bulk from './bulk-service.ts';
import * as config from './config-service.ts';
import * as credit from './credit-service.ts';
import * as rules from './rules-service.ts';
import * as notify from './service.ts';
import type { SmsSetup } from './sms/setup.ts';

// /notesMessage: the balance alarms sent by SMS or phone, with their state (queued, sent, failed),
// cost and delivery receipt; /sms/config: the company's SMS provider; 短信模板 and 提醒规则; 群发短信.
export default function notifyRoutes(app: FastifyInstance, sms: SmsSetup) {
  const r = routes(app);
  r.endpoint(API.notify.list, ({ query }, ctx) => notify.listNotifications(ctx, query));
  r.endpoint(API.notify.config, (_req, ctx) => config.getConfig(ctx, sms));
  r.endpoint(API.notify.saveConfig, ({ body }, ctx) => config.saveConfig(ctx, sms, body));
  r.endpoint(API.notify.credit, (_req, ctx) => credit.getCredit(ctx));
  r.endpoint(API.notify.creditTopUp, ({ body }, ctx) => credit.topUp(ctx, body));
  r.endpoint(API.notify.creditJournal, ({ query }, ctx) => credit.journal(ctx, query));
  const S = API.sms;
  // 短信模板: platform-wide, written (and their uses counted) across every company; listed by event
  registerCrud(app, {
    def: smsTemplateResource, endpoints: API.smsTemplate, table: smsTemplates, tenancy: 'platform', writeTx: platformTx,
    order: [asc(smsTemplates.event), asc(smsTemplates.id)], beforeDelete: rules.templateHooks.beforeDelete,
  });
  r.endpoint(S.ruleList, (_req, ctx) => rules.listRules(ctx));
  r.endpoint(S.ruleSave, ({ body }, ctx) => rules.saveRules(ctx, body));
  r.endpoint(API.bulk.preview, ({ body }, ctx) => bulk.preview(ctx, body));
  r.endpoint(API.bulk.send, ({ body }, ctx) => bulk.send(ctx, body));
  r.endpoint(API.bulk.progress, ({ query }, ctx) => bulk.progress(ctx, query.batch));
}
