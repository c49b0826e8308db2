import type { FastifyInstance } from 'fastify';
import { API, APPEAL_KIND, appealTypeResource, noticeTypeResource, workOrderTypeResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { conflict } from '../../http/errors.ts';
import { appealTypes, noticeTypes, workOrderTypes } from '../../db/schema/index.ts';
import * as repo from './repo.ts';
import * as appeal from './service.ts';
import * as notice from './notice-service.ts';

// 增值服务: the notice/appeal/work-order type dictionaries (declared CRUD resources, SPEC §7 paths) and
// the appeals of /addedAppeal (owner → company) and /systemAppeal (company → platform), the notices of
// /systemNotice (platform → companies) and /addedNotice (company → owners).

export default function contentRoutes(app: FastifyInstance) {
  registerCrud(app, { def: noticeTypeResource, endpoints: API.noticeType, table: noticeTypes, tenancy: 'company' });
  registerCrud(app, {
    def: appealTypeResource, endpoints: API.appealType, table: appealTypes, tenancy: 'company',
    beforeDelete: async (tx, _ctx, ids) => {
      const used = await repo.typeUses(tx, ids);
      if (used) throw conflict(`该诉求类型下还有 ${used} 条诉求，不能删除（可改为停用）`);
    },
  });
  registerCrud(app, { def: workOrderTypeResource, endpoints: API.workOrderType, table: workOrderTypes, tenancy: 'company' });

  const r = routes(app);
  const A = API.appeal;
  const O = APPEAL_KIND.owner;
  const S = APPEAL_KIND.system;
  r.endpoint(A.list, ({ query }, ctx) => appeal.list(ctx, O, query));
  r.endpoint(A.detail, ({ query }, ctx) => appeal.detail(ctx, O, query.id));
  r.endpoint(A.create, ({ body }, ctx) => appeal.createOwnerAppeal(ctx, body));
  r.endpoint(A.accept, ({ body }, ctx) => appeal.act(ctx, O, 'accept', body));
  r.endpoint(A.assign, ({ body }, ctx) => appeal.act(ctx, O, 'assign', body));
  r.endpoint(A.reply, ({ body }, ctx) => appeal.act(ctx, O, 'reply', body));
  r.endpoint(A.complete, ({ body }, ctx) => appeal.act(ctx, O, 'complete', body));
  r.endpoint(A.reject, ({ body }, ctx) => appeal.act(ctx, O, 'reject', body));
  r.endpoint(A.assignees, (_i, ctx) => appeal.assignees(ctx));

  const D = APPEAL_KIND.device;
  r.endpoint(A.workOrderList, ({ query }, ctx) => appeal.list(ctx, D, query));
  r.endpoint(A.workOrderDetail, ({ query }, ctx) => appeal.detail(ctx, D, query.id));
  r.endpoint(A.workOrderAccept, ({ body }, ctx) => appeal.act(ctx, D, 'accept', body));
  r.endpoint(A.workOrderAssign, ({ body }, ctx) => appeal.act(ctx, D, 'assign', body));
  r.endpoint(A.workOrderReply, ({ body }, ctx) => appeal.act(ctx, D, 'reply', body));
  r.endpoint(A.workOrderComplete, ({ body }, ctx) => appeal.act(ctx, D, 'complete', body));
  r.endpoint(A.workOrderReject, ({ body }, ctx) => appeal.act(ctx, D, 'reject', body));

  r.endpoint(A.systemList, ({ query }, ctx) => appeal.list(ctx, S, query));
  r.endpoint(A.systemDetail, ({ query }, ctx) => appeal.detail(ctx, S, query.id));
  r.endpoint(A.systemCreate, ({ body }, ctx) => appeal.createSystemAppeal(ctx, body));
  r.endpoint(A.systemAccept, ({ body }, ctx) => appeal.act(ctx, S, 'accept', body));
  r.endpoint(A.systemReply, ({ body }, ctx) => appeal.act(ctx, S, 'reply', body));
  r.endpoint(A.systemComplete, ({ body }, ctx) => appeal.act(ctx, S, 'complete', body));
  r.endpoint(A.systemReject, ({ body }, ctx) => appeal.act(ctx, S, 'reject', body));

  const N = API.notice;
  r.endpoint(N.systemList, ({ query }, ctx) => notice.listSystem(ctx, query));
  r.endpoint(N.systemDetail, ({ query }, ctx) => notice.systemDetail(ctx, query.id));
  r.endpoint(N.systemCreate, ({ body }, ctx) => notice.createSystem(ctx, body));
  r.endpoint(N.systemUpdate, ({ body }, ctx) => notice.updateSystem(ctx, body));
  r.endpoint(N.systemPublish, ({ body }, ctx) => notice.setSystemStatus(ctx, body.id, 'publish'));
  r.endpoint(N.systemWithdraw, ({ body }, ctx) => notice.setSystemStatus(ctx, body.id, 'withdraw'));
  r.endpoint(N.systemRemove, ({ body }, ctx) => notice.setSystemStatus(ctx, body.id, 'remove'));
  r.endpoint(N.inbox, (_i, ctx) => notice.inbox(ctx));
  r.endpoint(N.inboxRead, ({ body }, ctx) => notice.readSystem(ctx, body.id));
  r.endpoint(N.list, ({ query }, ctx) => notice.list(ctx, query));
  r.endpoint(N.detail, ({ query }, ctx) => notice.detail(ctx, query.id));
  r.endpoint(N.create, ({ body }, ctx) => notice.create(ctx, body));
  r.endpoint(N.update, ({ body }, ctx) => notice.update(ctx, body));
  r.endpoint(N.publish, ({ body }, ctx) => notice.publish(ctx, body.id));
  r.endpoint(N.withdraw, ({ body }, ctx) => notice.setStatus(ctx, body.id, 'withdraw'));
  r.endpoint(N.remove, ({ body }, ctx) => notice.setStatus(ctx, body.id, 'remove'));
  // N.ownerList and N.ownerRead answer the owner app's session: registered by modules/ownerapp
}
