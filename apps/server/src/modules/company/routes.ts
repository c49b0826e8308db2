import type { FastifyInstance } from 'fastify';
import { API, companyClassifyResource, companyResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { platformTx } from '../../http/context.ts';
import { companies, companyClassifies } from '../../db/schema/index.ts';
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

  // the companies, platform-wide (writes in platformTx): rows with their codes' names, a write-only valve
  // password, deletes refused while a company still holds data
  registerCrud(app, {
    def: companyResource, endpoints: C, table: companies, tenancy: 'platform', writeTx: platformTx, beforeWrite: company.beforeWrite,
    handle: { list: (q, ctx) => company.list(ctx, q), detail: (id, ctx) => company.get(ctx, id), remove: (ids, ctx) => company.remove(ctx, ids) },
  });

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
