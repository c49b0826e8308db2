import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawalFeeFen } from '@meter/contracts';
import { refused, success, testApp, type TestApp } from '../../../test/helpers.ts';
import { makeRole, makeUser, uniq } from '../../../test/factories.ts';
import { billingCompany, FINANCE_ROUTES, type BillingCompany } from '../billing/fixtures.ts';
import { signNotice, simulatedProvider } from './provider.ts';
import { collectPayments, finishWithdrawal, pollApplications, pollWithdrawals } from './service.ts';

// Pay-application accounts and merchant withdrawals through HTTP, on a real PostgreSQL: money in 分,
// balance == Σ journal, no overdraw under concurrency, idempotent requests, a failed withdrawal
// credited back once, deletion refused while money is there, other companies kept out.

const P = '/pay/api/AdaPayApplication';
const provider = simulatedProvider({ delayMs: 0 });

let t: TestApp;
let a: BillingCompany;
let b: BillingCompany;
let admin: string;
let noWithdraw: string;

type Res = { status: number; body: { code: string; message: string; data: any; count?: number } };
const ok = success;
const get = (token: string, url: string) => t.call(token, { method: 'GET', url }) as Promise<Res>;
const post = (token: string, url: string, payload: unknown) => t.call(token, { method: 'POST', url, payload: payload as object }) as Promise<Res>;

let seq = 0;
const rid = () => `req-${Date.now().toString(36)}-${seq++}`;

async function addApp(companyId: number, o: Record<string, unknown> = {}) {
  const body = {
    name: uniq('汇付账户'), kind: 1, legalPerson: '张三', contactName: '李四', idNo: '91310000MA1FL0000X', phone: '13800138000',
    bankName: '中国银行上海分行', bankAccountName: '测试物业有限公司', bankAccountNo: '6217 0000 1234 5678', ...o,
  };
  const r = ok(await post(admin, `${P}/AddAdaPayApplication?searchCompanyID=${companyId}`, body));
  return r.data.id as number;
}

/** An online payment of the company paid through the simulated provider (credits the owner's wallet). */
async function onlinePayment(c: BillingCompany, amount: string) {
  const o = ok(await post(c.token, '/wxpay/api/wxpay/pay', { roomId: c.rooms[0], wallet: 'electric', amount }));
  ok(await post(c.token, '/wxpay/api/wxpay/simulatePaid', { outTradeNo: o.data.outTradeNo }));
  return o.data.outTradeNo as string;
}

async function ledger(appId: number) {
  const { rows } = await t.owner.query(
    `SELECT a.balance_fen, (SELECT coalesce(sum(amount_fen), 0) FROM pay_app_journal j WHERE j.app_id = a.id) AS sum,
       (SELECT count(*) FROM pay_app_journal j WHERE j.app_id = a.id) AS n FROM pay_apps a WHERE a.id = $1`,
    [appId],
  );
  return { balance: Number(rows[0].balance_fen), sum: Number(rows[0].sum), rows: Number(rows[0].n) };
}

const company = () => billingCompany(t, { rooms: 1, routes: [...FINANCE_ROUTES, 'noteswithdraw'] });

/**
 * An opened account holding `yuan` of collected online payments, in a company of its own (a company's
 * online payments are collected by its oldest opened account).
 */
async function fundedApp(yuan: string, o: Record<string, unknown> = {}) {
  const c = await company();
  const id = await addApp(c.companyId, o);
  await pollApplications(t.db, provider);
  await onlinePayment(c, yuan);
  await collectPayments(t.db);
  return { id, c };
}

beforeAll(async () => {
  t = await testApp();
  admin = await t.login('admin', 'admin123');
  a = await company();
  b = await company();
  const role = await makeRole(t.owner, a.companyId, ['noteswithdraw'], []);
  const u = await makeUser(t.owner, { companyId: a.companyId, roleId: role });
  noWithdraw = await t.login(u.username, u.password);
});
afterAll(() => t.close());

describe('accounts', () => {
  it('an application is added as 审核中 and opened by the provider; the list shows its balance', async () => {
    const id = await addApp(a.companyId, { name: uniq('物业收款') });
    let row = ok(await get(a.token, `${P}/GetAdaPayApplicationAllList?index=1&size=50`)).data.find((x: { id: number }) => x.id === id);
    expect(row).toMatchObject({ status: 'pending', statusText: '审核中', balance: '0.00', kindText: '企业', bankAccountNo: '6217000012345678' });
    expect(await pollApplications(t.db, provider)).toBeGreaterThanOrEqual(1);
    row = ok(await get(a.token, `${P}/GetAdaPayApplicationAllList?index=1&size=50&status=opened`)).data.find((x: { id: number }) => x.id === id);
    expect(row).toMatchObject({ status: 'opened', statusText: '已开通', providerAppId: `SIMAPP${id}` });
    expect(row.openedAt).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('bad input is a 400 naming the field in Chinese and adds nothing; a duplicate name is a 409', async () => {
    const before = (await t.owner.query(`SELECT count(*)::int AS n FROM pay_apps`)).rows[0].n;
    const base = { name: uniq('账户'), kind: 1, legalPerson: '张三', idNo: '91310000MA1FL0000X', phone: '13800138000', bankName: '工商银行', bankAccountName: '某公司', bankAccountNo: '6222020200001234' };
    const cases: [Record<string, unknown>, string][] = [
      [{ idNo: '123' }, 'idNo'],
      [{ kind: 2, idNo: '110101199003070000' }, 'idNo'],
      [{ bankAccountNo: '12ab' }, 'bankAccountNo'],
      [{ phone: '123' }, 'phone'],
      [{ name: '' }, 'name'],
      [{ kind: 3 }, 'kind'],
    ];
    for (const [patch, field] of cases) {
      const r = await post(admin, `${P}/AddAdaPayApplication?searchCompanyID=${a.companyId}`, { ...base, ...patch });
      expect(r.status, field).toBe(400);
      expect(r.body.message).toContain(`「${field}」`);
      expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    }
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM pay_apps`)).rows[0].n).toBe(before);
    await addApp(a.companyId, { name: base.name });
    const dup = await post(admin, `${P}/AddAdaPayApplication?searchCompanyID=${a.companyId}`, base);
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(`账户名称「${base.name}」已存在`);
    // a platform admin must pick the company first
    refused(await post(admin, `${P}/AddAdaPayApplication`, { ...base, name: uniq('x') }), 'COMPANY_REQUIRED');
  });

  it('ChangeBankCode changes the settlement card; ChangeStatus stops and restarts withdrawals', async () => {
    const { id, c } = await fundedApp('50');
    ok(await post(admin, `${P}/ChangeBankCode?searchCompanyID=${c.companyId}`, { id, bankName: '建设银行', bankAccountName: '新户名', bankAccountNo: '6227 0000 0000 9999' }));
    const row = ok(await get(c.token, `${P}/GetAdaPayApplicationAllList?index=1&size=100`)).data.find((x: { id: number }) => x.id === id);
    expect(row).toMatchObject({ bankName: '建设银行', bankAccountName: '新户名', bankAccountNo: '6227000000009999' });
    expect((await post(admin, `${P}/ChangeBankCode?searchCompanyID=${c.companyId}`, { id, bankName: '建设银行', bankAccountName: 'x', bankAccountNo: '1' })).status).toBe(400);
    ok(await post(admin, `${P}/ChangeStatus`, { id, enabled: false }));
    const m = refused(await post(c.token, `${P}/Withdrawal`, { id, amount: '1', requestId: rid() }), 'APP_NOT_OPENED');
    expect(m).toBe('该账户已停用，不能提现');
    refused(await post(admin, `${P}/ChangeStatus`, { id, enabled: false }), 'STATUS_INVALID');
    ok(await post(admin, `${P}/ChangeStatus`, { id, enabled: true }));
    const w = ok(await post(c.token, `${P}/Withdrawal`, { id, amount: '1', requestId: rid() }));
    expect(w.data).toMatchObject({ status: 0, statusText: '处理中' });
    // the withdrawal goes to the card the account had when it was asked
    const log = ok(await get(c.token, `${P}/FindWithdrawalLog?applicationId=${id}`));
    expect(log.data[0]).toMatchObject({ bankName: '建设银行', bankAccount: '6227000000009999' });
  });

  it('company staff read the accounts but cannot register or change them; withdrawing needs finance.withdraw', async () => {
    const id = await addApp(a.companyId);
    const r = await post(a.token, `${P}/AddAdaPayApplication`, { name: 'x' });
    expect(r.status).toBe(403);
    expect(r.body.message).toMatch(/[\u4e00-\u9fa5]/);
    expect((await post(a.token, `${P}/Del`, { id })).status).toBe(403);
    expect((await post(a.token, `${P}/ChangeBankCode`, { id, bankName: 'x', bankAccountName: 'x', bankAccountNo: '12345678' })).status).toBe(403);
    ok(await get(noWithdraw, `${P}/GetBalance?id=${id}`));
    const nw = await post(noWithdraw, `${P}/Withdrawal`, { id, amount: '1', requestId: rid() });
    expect(nw.status).toBe(403);
    expect(nw.body.message).toBe('无权限执行此操作，请联系管理员分配权限');
  });
});

describe('money', () => {
  it('online payments are collected once each; balance == Σ journal', async () => {
    const c = await company();
    await onlinePayment(c, '1.00'); // paid before the company had an account: collected once one is opened
    const id = await addApp(c.companyId);
    const second = await addApp(c.companyId);
    await pollApplications(t.db, provider);
    await collectPayments(t.db);
    const start = await ledger(id);
    expect(start).toMatchObject({ balance: 100, sum: 100 });
    const no1 = await onlinePayment(c, '12.34');
    await onlinePayment(c, '0.66');
    // collectors in several workers at once
    const n = await Promise.all([collectPayments(t.db), collectPayments(t.db), collectPayments(t.db)]);
    expect(n.reduce((s, x) => s + x, 0)).toBe(2);
    expect(await collectPayments(t.db)).toBe(0);
    const l = await ledger(id);
    expect(l.balance).toBe(start.balance + 1300);
    expect(l.sum).toBe(l.balance);
    const { rows } = await t.owner.query(`SELECT kind, amount_fen FROM pay_app_journal WHERE idempotency_key = $1`, [`pay:${no1}`]);
    expect(rows.map((x) => [x.kind, Number(x.amount_fen)])).toEqual([['collect', 1234]]);
    // the company's oldest opened account collects; the other gets nothing
    expect((await ledger(second)).balance).toBe(0);
  });

  it('a backlog larger than one batch is collected whole; afterwards only recent payments are looked at', async () => {
    const c = await company();
    for (let i = 0; i < 5; i++) await onlinePayment(c, '1.01');
    const id = await addApp(c.companyId);
    await pollApplications(t.db, provider);
    expect(await collectPayments(t.db, 2)).toBe(5);
    expect(await ledger(id)).toMatchObject({ balance: 505, sum: 505, rows: 5 });
    const [{ last_collect_at: mark }] = (await t.owner.query(`SELECT last_collect_at FROM pay_apps WHERE id = $1`, [id])).rows;
    expect(mark).toBeTruthy();
    // a payment whose notification committed after the collection but started before it is still in the window
    await onlinePayment(c, '2.00');
    await t.owner.query(`UPDATE payments SET paid_at = $2::timestamptz - interval '5 minutes' WHERE company_id = $1 AND amount_fen = 200`, [c.companyId, mark]);
    expect(await collectPayments(t.db)).toBe(1);
    expect((await ledger(id)).balance).toBe(705);
  });

  it('a withdrawal takes amount + fee, shown beforehand by GetBalance; too much is refused in Chinese and changes nothing', async () => {
    const { id, c: b } = await fundedApp('100');
    const bal = ok(await get(b.token, `${P}/GetBalance?id=${id}`)).data;
    expect(bal).toMatchObject({ balance: '100.00', balanceFen: 10000, processing: '0.00', maxWithdrawal: '99.00' });
    expect(bal.fee.text).toContain('0.05%');
    const before = await ledger(id);
    const m = refused(await post(b.token, `${P}/Withdrawal`, { id, amount: '99.01', requestId: rid() }), 'INSUFFICIENT_BALANCE');
    expect(m).toBe('可提现余额不足：提现 ¥99.01 加手续费 ¥1.00 超过账户余额 ¥100.00（最多可提现 ¥99.00）');
    expect(await ledger(id)).toEqual(before);
    expect((await post(b.token, `${P}/Withdrawal`, { id, amount: '0', requestId: rid() })).status).toBe(400);
    expect((await post(b.token, `${P}/Withdrawal`, { id, amount: '1.001', requestId: rid() })).status).toBe(400);
    expect((await post(b.token, `${P}/Withdrawal`, { id, amount: '1', requestId: 'x' })).body.message).toContain('「requestId」');

    const w = ok(await post(b.token, `${P}/Withdrawal`, { id, amount: '60', requestId: rid() })).data;
    expect(w).toMatchObject({ amount: '60.00', fee: '1.00', balance: '39.00', status: 0, duplicate: false });
    const l = await ledger(id);
    expect(l).toMatchObject({ balance: 3900, sum: 3900 });
    expect(ok(await get(b.token, `${P}/GetBalance?id=${id}`)).data).toMatchObject({ processing: '60.00', processingCount: 1 });
    expect((await pollWithdrawals(t.db, provider)).succeeded).toBeGreaterThanOrEqual(1);
    const log = ok(await get(b.token, `${P}/FindWithdrawalLog?status=1`));
    expect(log.data.find((x: { id: number }) => x.id === w.id)).toMatchObject({
      amount: '60.00', fee: '1.00', status: 1, statusText: '提现成功', operatorName: expect.any(String), applicationId: id,
    });
    expect(log.data.find((x: { id: number }) => x.id === w.id).finishedAt).toMatch(/^\d{4}-/);
    expect(ok(await get(b.token, `${P}/FindWithdrawalLog?status=0&applicationId=${id}`)).count).toBe(0);
    expect(ok(await get(b.token, `${P}/FindWithdrawalLog?startTime=2020-01-01&endTime=2020-01-02`)).count).toBe(0);
    const today = new Date(Date.now() + 8 * 3600_000).toISOString().slice(0, 10);
    expect(ok(await get(b.token, `${P}/FindWithdrawalLog?startTime=${today}&endTime=${today}&applicationId=${id}`)).count).toBe(1);
    expect((await get(b.token, `${P}/FindWithdrawalLog?status=7`)).status).toBe(400);
    expect(await ledger(id)).toMatchObject({ balance: 3900, sum: 3900 });
  });

  it('the same request id twice (even at once) is one withdrawal', async () => {
    const { id, c: a } = await fundedApp('20');
    const before = await ledger(id);
    const requestId = rid();
    const rs = await Promise.all([...Array(6)].map(() => post(a.token, `${P}/Withdrawal`, { id, amount: '5', requestId })));
    rs.forEach(ok);
    expect(rs.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(new Set(rs.map((r) => r.body.data.id)).size).toBe(1);
    const again = ok(await post(a.token, `${P}/Withdrawal`, { id, amount: '5', requestId }));
    expect(again.data.duplicate).toBe(true);
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM pay_app_withdrawals WHERE request_id = $1`, [requestId])).rows[0].n).toBe(1);
    const l = await ledger(id);
    expect(l.balance).toBe(before.balance - 500 - 100);
    expect(l.sum).toBe(l.balance);
    // the same id for a different withdrawal is a conflict, not a second withdrawal
    expect((await post(a.token, `${P}/Withdrawal`, { id, amount: '6', requestId })).status).toBe(409);
  });

  it('50 concurrent withdrawals on one account never overdraw; nothing is lost or doubled', async () => {
    const { id, c: b } = await fundedApp('1000');
    const start = await ledger(id);
    expect(start.balance).toBeGreaterThanOrEqual(100000);
    const each = 3000 + withdrawalFeeFen(3000); // ¥30 + ¥1.00
    const rs = await Promise.all([...Array(50)].map(() => post(b.token, `${P}/Withdrawal`, { id, amount: '30', requestId: rid() })));
    const done = rs.filter((r) => r.body.code === 'SUCCESS');
    const refusedAll = rs.filter((r) => r.body.code === 'INSUFFICIENT_BALANCE');
    expect(done.length + refusedAll.length).toBe(50);
    expect(done.length).toBe(Math.floor(start.balance / each));
    const l = await ledger(id);
    expect(l.balance).toBe(start.balance - done.length * each);
    expect(l.balance).toBeGreaterThanOrEqual(0);
    expect(l.sum).toBe(l.balance);
    expect(l.rows).toBe(start.rows + done.length * 2);
    const { rows } = await t.owner.query(`SELECT count(*)::int AS n, sum(amount_fen + fee_fen)::bigint AS s FROM pay_app_withdrawals WHERE app_id = $1`, [id]);
    expect(rows[0].n).toBe(done.length);
    expect(Number(rows[0].s)).toBe(done.length * each);
    // every balance_after follows from the one before it
    const j = (await t.owner.query(`SELECT amount_fen, balance_after_fen FROM pay_app_journal WHERE app_id = $1 ORDER BY id`, [id])).rows;
    let run = 0;
    for (const x of j) {
      run += Number(x.amount_fen);
      expect(Number(x.balance_after_fen)).toBe(run);
    }
  });

  it('a failed withdrawal credits amount and fee back exactly once', async () => {
    const { id, c: a } = await fundedApp('40', { bankAccountNo: '6217000000004444' });
    const start = await ledger(id);
    const w = ok(await post(a.token, `${P}/Withdrawal`, { id, amount: '25', requestId: rid() })).data;
    expect((await ledger(id)).balance).toBe(start.balance - 2600);
    // several workers poll at once, and the callback comes twice more
    const polled = await Promise.all([pollWithdrawals(t.db, provider), pollWithdrawals(t.db, provider)]);
    expect(polled.reduce((s, p) => s + p.failed, 0)).toBe(1);
    expect(await finishWithdrawal(t.db, w.id, { status: 'failed', reason: 'again' })).toBe(false);
    expect(await finishWithdrawal(t.db, w.id, { status: 'succeeded' })).toBe(false);
    const l = await ledger(id);
    expect(l).toMatchObject({ balance: start.balance, sum: start.balance });
    const back = (await t.owner.query(`SELECT amount_fen FROM pay_app_journal WHERE idempotency_key = $1`, [`wdback:${w.id}`])).rows;
    expect(back.map((x) => Number(x.amount_fen))).toEqual([2600]);
    const row = ok(await get(a.token, `${P}/FindWithdrawalLog?status=2&applicationId=${id}`)).data[0];
    expect(row).toMatchObject({ id: w.id, status: 2, statusText: '提现失败' });
    expect(row.reason).toContain('银行退票');
    // the account's statement: collected, withdrawn, fee, back — newest first, each balanceAfter the running sum
    const st = ok(await get(a.token, `${P}/FindJournal?id=${id}&index=1&size=10`));
    expect(st.count).toBe(4);
    expect(st.data.map((x: Record<string, string>) => [x.kindText, x.amount, x.balanceAfter])).toEqual([
      ['提现失败退回', '26.00', '40.00'], ['提现手续费', '-1.00', '14.00'], ['提现', '-25.00', '15.00'], ['收款', '40.00', '40.00'],
    ]);
    expect(ok(await get(a.token, `${P}/FindJournal?id=${id}&kind=reversal`)).count).toBe(1);
    expect((await get(a.token, `${P}/FindJournal?id=${id}&kind=x`)).status).toBe(400);
    expect(ok(await get(b.token, `${P}/FindJournal?id=${id}`)).count).toBe(0);
  });

  it('the provider\'s signed callback finishes a withdrawal once; a forged one changes nothing', async () => {
    const { id, c } = await fundedApp('30');
    const start = await ledger(id);
    const w1 = ok(await post(c.token, `${P}/Withdrawal`, { id, amount: '10', requestId: rid() })).data;
    const w2 = ok(await post(c.token, `${P}/Withdrawal`, { id, amount: '5', requestId: rid() })).data;
    const notice = (wid: number, status: 'succeeded' | 'failed', providerNo = `AD${wid}`) => {
      const n = { order_no: `WD${c.companyId}-${wid}`, provider_no: providerNo, status };
      return { ...n, reason: status === 'failed' ? '账户已冻结' : undefined, sign: signNotice(n) };
    };
    const send = (body: object) => t.call(null, { method: 'POST', url: `${P}/Notify`, payload: body }) as Promise<Res>;
    // forged, or aimed at another company's order number: refused, nothing moves
    refused(await send({ ...notice(w1.id, 'failed'), sign: 'f'.repeat(64) }), 'SIGN_INVALID');
    const other = { order_no: `WD${b.companyId}-${w1.id}`, provider_no: 'X1', status: 'failed' as const };
    expect((await send({ ...other, sign: signNotice(other) })).status).toBe(404);
    expect((await send({ order_no: 'nope', provider_no: 'x', status: 'failed', sign: 'x' })).body.message).toContain('「order_no」');
    expect(await ledger(id)).toMatchObject({ balance: start.balance - 1100 - 600 });
    // the provider calls back several times at once
    const rs = await Promise.all([...Array(5)].map(() => send(notice(w1.id, 'failed'))));
    rs.forEach(ok);
    expect(rs.filter((r) => r.body.data.duplicate === false)).toHaveLength(1);
    expect(rs[0].body.data).toMatchObject({ status: 2, statusText: '提现失败' });
    ok(await send(notice(w2.id, 'succeeded')));
    // a later, contradicting notice changes nothing; another provider number is refused
    expect(ok(await send(notice(w1.id, 'succeeded'))).data).toMatchObject({ status: 2, duplicate: true });
    refused(await send(notice(w2.id, 'failed', 'AD-other')), 'PROVIDER_NO_MISMATCH');
    const l = await ledger(id);
    expect(l).toMatchObject({ balance: start.balance - 600, sum: start.balance - 600 });
    const log = ok(await get(c.token, `${P}/FindWithdrawalLog?applicationId=${id}`)).data;
    expect(log.find((x: { id: number }) => x.id === w1.id)).toMatchObject({ status: 2, reason: '账户已冻结', providerNo: `AD${w1.id}` });
    expect(log.find((x: { id: number }) => x.id === w2.id)).toMatchObject({ status: 1 });
    // the poller finds nothing left to do for them
    await pollWithdrawals(t.db, provider);
    expect(await ledger(id)).toEqual(l);
  });

  it('delete is refused while the account holds money or a withdrawal is processing', async () => {
    const { id, c: b } = await fundedApp('10');
    const m = refused(await post(admin, `${P}/Del`, { id }), 'HAS_BALANCE');
    expect(m).toContain('该账户尚有余额 ¥');
    const all = (await ledger(id)).balance;
    const amount = all - withdrawalFeeFen(all - 100); // take everything
    ok(await post(b.token, `${P}/Withdrawal`, { id, amount: (amount / 100).toFixed(2), requestId: rid() }));
    expect((await ledger(id)).balance).toBe(0);
    refused(await post(admin, `${P}/Del`, { id }), 'WITHDRAWAL_IN_PROGRESS');
    await pollWithdrawals(t.db, provider);
    ok(await post(admin, `${P}/Del`, { id }));
    expect(ok(await get(b.token, `${P}/GetAdaPayApplicationAllList?index=1&size=100`)).data.some((x: { id: number }) => x.id === id)).toBe(false);
    expect((await get(b.token, `${P}/GetBalance?id=${id}`)).status).toBe(404);
    // its withdrawals stay in the log
    expect(ok(await get(b.token, `${P}/FindWithdrawalLog?applicationId=${id}`)).count).toBe(1);
  });

  it('the merchant journal cannot be changed by the app', async () => {
    await expect(t.db.pool.query(`UPDATE pay_app_journal SET amount_fen = 0`)).rejects.toThrow();
    await expect(t.owner.query(`UPDATE pay_app_journal SET amount_fen = 0`)).rejects.toThrow(/不可修改/);
  });
});

describe('tenancy', () => {
  it('another company can neither see nor touch an account', async () => {
    const { id, c: a } = await fundedApp('30');
    const w = ok(await post(a.token, `${P}/Withdrawal`, { id, amount: '1', requestId: rid() })).data;
    const before = await ledger(id);
    expect(ok(await get(b.token, `${P}/GetAdaPayApplicationAllList?index=1&size=1000`)).data.some((x: { id: number }) => x.id === id)).toBe(false);
    expect(ok(await get(b.token, `${P}/FindWithdrawalLog?index=1&size=1000`)).data.some((x: { id: number }) => x.id === w.id)).toBe(false);
    const g = await get(b.token, `${P}/GetBalance?id=${id}`);
    expect(g.status).toBe(404);
    expect(g.body.message).toBe('汇付账户不存在或无权查看');
    expect((await post(b.token, `${P}/Withdrawal`, { id, amount: '1', requestId: rid() })).status).toBe(404);
    // a platform admin working inside company b cannot reach it either
    expect((await post(admin, `${P}/Del?searchCompanyID=${b.companyId}`, { id })).status).toBe(404);
    expect((await post(admin, `${P}/ChangeBankCode?searchCompanyID=${b.companyId}`, { id, bankName: 'x', bankAccountName: 'x', bankAccountNo: '12345678' })).status).toBe(404);
    expect(await ledger(id)).toEqual(before);
    // and the database itself shows company b none of company a's rows
    const seen = await t.db.tx({ companyId: b.companyId, allCompanies: false, areaIds: null, userId: null }, async (tx) => {
      const r = await tx.execute(sql.raw(`SELECT (SELECT count(*) FROM pay_apps WHERE company_id = ${a.companyId})::int AS apps,
        (SELECT count(*) FROM pay_app_journal WHERE company_id = ${a.companyId})::int AS journal,
        (SELECT count(*) FROM pay_app_withdrawals WHERE company_id = ${a.companyId})::int AS wds`));
      return r.rows[0];
    });
    expect(seen).toEqual({ apps: 0, journal: 0, wds: 0 });
  });
});
