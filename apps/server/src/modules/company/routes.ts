import type { FastifyInstance } from 'fastify';
import { API, companyClassifyResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { companyClassifies } from '../../db/schema/index.ts';
import * as repo from './repo.ts';
import * as company from './service.ts';
import * as payGear from './pay-gear.ts';
import * as valvePwd from './valve-password.ts';
import * as config from './config.ts';

export default function companyRoutes(app: FastifyInstance) {
  const r = routes(app);
  const C = API.company;
  r.endpoint(C.userCompanies, (_i, ctx) => company.userCompanies(ctx));
  r.endpoint(C.classifyOptions, (_i, ctx) => company.classifyOptions(ctx));
  r.endpoint(C.info, (_i, ctx) => company.info(ctx));
  r.endpoint(C.receiptAccount, (_i, ctx) => company.receiptAccount(ctx));
  r.endpoint(C.valvePwdStatus, (_i, ctx) => valvePwd.status(ctx));
  r.endpoint(C.checkValvePwd, ({ body }, ctx) => valvePwd.verify(ctx, body.password));
  r.endpoint(C.setValvePwd, ({ body }, ctx) => valvePwd.set(ctx, body.password, body.currentPassword));

  r.endpoint(C.list, ({ query }, ctx) => company.list(ctx, query));
  r.endpoint(C.detail, ({ params }, ctx) => company.get(ctx, params.id));
  r.endpoint(C.create, ({ body }, ctx) => company.create(ctx, body));
  r.endpoint(C.update, ({ body }, ctx) => company.update(ctx, body));
  r.endpoint(C.remove, ({ body }, ctx) => company.remove(ctx, body.ids));

  r.endpoint(API.settings.configList, ({ query }, ctx) => config.list(ctx, query));
  r.endpoint(API.settings.configSave, ({ query, body }, ctx) => config.save(ctx, query, body));

  r.endpoint(C.devicePermiss, ({ query }, ctx) => company.devicePermiss(ctx, query));
  r.endpoint(C.saveDevicePermiss, ({ body }, ctx) => company.saveDevicePermiss(ctx, body));
  r.endpoint(API.merchant.payGear, ({ query }, ctx) => payGear.getPayGear(ctx, query));
  r.endpoint(API.merchant.savePayGear, ({ body }, ctx) => payGear.savePayGear(ctx, body));

  registerCrud(app, {
    def: companyClassifyResource,
    endpoints: API.companyClassify,
    table: companyClassifies,
    tenancy: 'platform',
    beforeDelete: async (tx, _ctx, ids) => repo.assertClassifiesUnused(tx, ids),
    label: (row) => `单位分类 ${String(row.name ?? row.id)}`,
  });
}
