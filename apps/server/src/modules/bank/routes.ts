import type { FastifyInstance } from 'fastify';
import { API, BANK_NAMES, bankResource, propertyInfoResource, SUB_MER_STATUS, subMerTransition } from '@meter/contracts';
import { banks, propertyInfos } from '../../db/schema/index.ts';
import { registerCrud } from '../../http/crud.ts';
import { refuse } from '../../http/errors.ts';
import { routes } from '../../http/routes.ts';
import type { BankClient } from './client.ts';
import * as repo from './repo.ts';
import * as bank from './service.ts';

// Bank sub-merchants (SPEC §7): Bank/List (/bankManagement) and Property_Info (the applications of
// /apply) as declared CRUD resources; /pay/api/AgricultureBank through the bank client; companyBocInfo.

export default function bankRoutes(app: FastifyInstance, client: BankClient) {
  registerCrud(app, { def: bankResource, endpoints: API.bank, table: banks, tenancy: 'platform' });
  registerCrud(app, {
    def: propertyInfoResource, endpoints: API.propertyInfo, table: propertyInfos, tenancy: 'company',
    label: (row) => `二级商户 ${String(row.name ?? row.id ?? '')}`,
    beforeWrite: async (tx, _ctx, values, id) => {
      values.accountNo = String(values.accountNo ?? '').replace(/\s+/g, '');
      if (id == null) return;
      const p = await repo.lockProperty(tx, { id });
      const t = subMerTransition(p?.status ?? '', 'edit');
      if (!t.ok) throw refuse('STATUS_INVALID', `${t.message}；已提交银行的资料不能修改`);
    },
    beforeDelete: async (tx, _ctx, ids) => {
      for (const p of await repo.statusOf(tx, ids)) {
        if (p.status !== 'draft' && !(p.status === 'rejected' && !p.subMerId)) {
          throw refuse('STATUS_INVALID', `该商户当前为「${SUB_MER_STATUS[p.status] ?? p.status}」，已在银行登记，不能删除`);
        }
      }
    },
    present: async (tx, rows) => {
      const extras = new Map((await repo.propertyExtras(tx, rows.map((x) => Number(x.id)))).map((x) => [x.id, x]));
      return rows.map((x) => {
        const e = extras.get(Number(x.id));
        return { ...x, companyId: e?.companyId ?? Number(x.companyId), companyName: e?.companyName ?? null, bankName: e?.bankName ?? '',
          settleBankName: BANK_NAMES[e?.bankType ?? 0] ?? '', reason: e?.reason ?? '', activatedAt: e?.activatedAt ?? null };
      });
    },
  });

  const r = routes(app);
  const A = API.agricultureBank;
  r.endpoint(A.register, ({ query }, ctx) => bank.register(ctx, client, query.propertyID));
  r.endpoint(A.sendCode, ({ query }, ctx) => bank.sendCode(ctx, client, query.subMerId));
  r.endpoint(A.verify, ({ body }, ctx) => bank.verify(ctx, client, body));
  r.endpoint(A.setStatus, ({ body }, ctx) => bank.setStatus(ctx, client, body));
  r.endpoint(A.balance, ({ query }, ctx) => bank.balance(ctx, client, query.subMerId));
  r.endpoint(A.withdraw, ({ body }, ctx) => bank.withdraw(ctx, client, body));
  r.endpoint(A.withdrawals, ({ query }, ctx) => bank.withdrawals(ctx, query));
  r.endpoint(A.logs, ({ query }, ctx) => bank.logs(ctx, query));
  r.endpoint(API.companyBocInfo.get, (_i, ctx) => bank.bocInfo(ctx));
  r.endpoint(API.companyBocInfo.save, ({ body }, ctx) => bank.saveBocInfo(ctx, body));
}
