import type { FastifyInstance } from 'fastify';
import { routes, type Perm } from '../../http/routes.ts';
import * as S from './schema.ts';
import * as payapp from './service.ts';

// Pay-application accounts (SPEC §7 AdaPayApplication, pages /huifu and /noteswithdraw):
// GET GetAdaPayApplicationAllList, GetBalance, FindWithdrawalLog; POST AddAdaPayApplication, Del,
// ChangeBankCode, Withdrawal; and, ours: ChangeStatus (停用/启用), FindJournal (the account's statement)
// and Notify (the provider's signed withdrawal callback, no session).

const P = '/pay/api/AdaPayApplication';
/** reading the accounts, their balances and withdrawals */
const read: Perm = { routes: ['huifu', 'noteswithdraw'] };
/** registering and changing accounts: the /huifu page (platform management) */
const manage: Perm = { routes: ['huifu'] };
/** taking money out: the page and the finance operation 商户提现 */
const withdraw: Perm = { routes: ['huifu', 'noteswithdraw'], op: 'finance.withdraw' };

export default function payAppRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['汇付账户与提现'];
  r.get(`${P}/GetAdaPayApplicationAllList`, { summary: '汇付账户列表（含可用余额）', perm: read, query: S.ListQuery, tags }, ({ query }, ctx) =>
    payapp.listApps(ctx, query));
  r.get(`${P}/GetBalance`, { summary: '汇付账户余额与提现手续费规则', perm: read, query: S.IdQuery, tags }, ({ query }, ctx) =>
    payapp.getBalance(ctx, query.id));
  r.get(`${P}/FindWithdrawalLog`, { summary: '商户提现记录', perm: read, query: S.LogQuery, tags }, ({ query }, ctx) =>
    payapp.withdrawalLog(ctx, query));
  r.get(`${P}/FindJournal`, { summary: '汇付账户流水（收款、提现、手续费、退回）', perm: read, query: S.JournalQuery, tags }, ({ query }, ctx) =>
    payapp.journal(ctx, query));
  r.post(`${P}/AddAdaPayApplication`, { summary: '新增汇付账户申请', perm: manage, body: S.AddBody, tags }, ({ body }, ctx) =>
    payapp.addApp(ctx, body));
  r.post(`${P}/Del`, { summary: '删除汇付账户', perm: manage, body: S.IdBody, tags }, ({ body }, ctx) =>
    payapp.deleteApp(ctx, body.id));
  r.post(`${P}/ChangeBankCode`, { summary: '修改汇付账户结算银行卡', perm: manage, body: S.BankBody, tags }, ({ body }, ctx) =>
    payapp.changeBank(ctx, body));
  r.post(`${P}/ChangeStatus`, { summary: '停用或启用汇付账户', perm: manage, body: S.StatusBody, tags }, ({ body }, ctx) =>
    payapp.setEnabled(ctx, body.id, body.enabled));
  r.post(`${P}/Notify`, { summary: '提现结果通知（支付平台回调，验签）', perm: false, body: S.NoticeBody, tags }, ({ body }, _ctx, req) =>
    payapp.handleNotice(req.publicCtx!.db, body));
  r.post(`${P}/Withdrawal`, { summary: '商户提现', perm: withdraw, body: S.WithdrawBody, tags }, ({ body }, ctx) =>
    payapp.withdraw(ctx, body));
}
