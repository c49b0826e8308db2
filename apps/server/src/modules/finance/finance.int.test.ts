import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeRole, makeUser } from '../../../test/factories.ts';
import { balances, billingCompany, FINANCE_ROUTES, type BillingCompany } from '../billing/fixtures.ts';
import { dayKey, post } from '../billing/index.ts';

// 日结/交班 and 作废/冲正 against a real PostgreSQL: the day's figures equal the journal sums by kind
// and pay method, a closed day (or shift) never changes — later rows land on the next open day —, a
// receipt is voided once by a reversal row and the balance stays Σ journal.

let t: TestApp;
let a: BillingCompany;
let op2: { token: string; id: number };
let clerk: string;
const today = dayKey(new Date());
const tomorrow = new Date(Date.parse(`${today}T00:00:00Z`) + 86400_000).toISOString().slice(0, 10);
const Y = '/yewu/api';

const ok = (r: { status: number; body: any }) => {
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
};
const counter = async (token: string, what: 'Prepay' | 'Refund' | 'Subsidy', room: number, amount: string, payMethod = 'cash') =>
  ok(await t.call(token, { method: 'POST', url: `${Y}/Energy/${what}`, payload: { roomId: room, wallet: 'electric', amount, ...(what === 'Subsidy' ? {} : { payMethod }) } }));
const detail = async (day = today) => ok(await t.call(a.token, { method: 'GET', url: `${Y}/DailyClosing/Detail?day=${day}` }));
const voidIt = (token: string, receiptId: number, reason = '收款金额录错') =>
  t.call(token, { method: 'POST', url: `${Y}/BillPrinting/Void`, payload: { receiptId, reason } });
/** Σ journal of the company's business day, per pay method and kind, straight from the table */
async function journalSums(day: string) {
  const { rows } = await t.owner.query(
    `SELECT pay_method, kind, sum(amount_fen)::bigint AS fen, count(*)::int AS n FROM journal
     WHERE company_id = $1 AND business_day = $2::date AND kind NOT IN ('deduction', 'fee') GROUP BY pay_method, kind`,
    [a.companyId, day],
  );
  const m = new Map<string, number>(rows.map((r) => [`${r.pay_method}:${r.kind}`, Number(r.fen)]));
  return (method: string, kind: string) => m.get(`${method}:${kind}`) ?? 0;
}
const fen = (yuan: string) => Math.round(Number(yuan) * 100);

beforeAll(async () => {
  t = await testApp();
  a = await billingCompany(t, { routes: [...FINANCE_ROUTES, 'dailyClose'], rooms: 3 });
  const role = await makeRole(t.owner, a.companyId, [...FINANCE_ROUTES, 'dailyClose'], OPERATION_KEYS);
  const u = await makeUser(t.owner, { companyId: a.companyId, roleId: role });
  op2 = { token: await t.login(u.username, u.password), id: u.id };
  const noVoid = await makeRole(t.owner, a.companyId, [...FINANCE_ROUTES, 'dailyClose'], OPERATION_KEYS.filter((k) => k !== 'finance.reverse' && k !== 'finance.dailyClose'));
  const c = await makeUser(t.owner, { companyId: a.companyId, roleId: noVoid });
  clerk = await t.login(c.username, c.password);
});
afterAll(() => t.close());

describe('日结/交班 figures', () => {
  it('per pay method, per operator and the non-cash kinds equal the journal sums by kind', async () => {
    await counter(a.token, 'Prepay', a.rooms[0], '100');
    await counter(a.token, 'Refund', a.rooms[0], '20');
    await counter(op2.token, 'Prepay', a.rooms[1], '50', 'wechat');
    await counter(op2.token, 'Prepay', a.rooms[1], '30.5', 'bank');
    await counter(a.token, 'Subsidy', a.rooms[2], '10');
    // an opening balance and a system credit are booked, never counted as money received
    await t.db.tx({ companyId: a.companyId, allCompanies: false, areaIds: null, userId: null }, async (tx) => {
      await post(tx, { companyId: a.companyId, ownerId: a.owners[2], roomId: a.rooms[2], wallet: 'electric', kind: 'opening', amountFen: 888, idempotencyKey: `open:${a.owners[2]}` });
      await post(tx, { companyId: a.companyId, ownerId: a.owners[2], roomId: a.rooms[2], wallet: 'electric', kind: 'prepay', amountFen: 123, idempotencyKey: `sys:${a.owners[2]}`, payMethod: 'system' });
    });

    const d = await detail();
    expect(d.state).toBe('open');
    const sum = await journalSums(today);
    const m = Object.fromEntries(d.totals.methods.map((x: any) => [x.method, x]));
    expect(m.cash).toMatchObject({ receipt: '100.00', refund: '20.00', net: '80.00', count: 2 });
    expect(m.wechat).toMatchObject({ receipt: '50.00', net: '50.00', count: 1 });
    expect(m.bank).toMatchObject({ receipt: '30.50', net: '30.50' });
    for (const x of d.totals.methods) {
      expect(fen(x.receipt)).toBe(sum(x.method, 'prepay'));
      expect(fen(x.refund) + sum(x.method, 'refund')).toBe(0);
      expect(fen(x.reversal)).toBe(sum(x.method, 'reversal'));
    }
    expect(d.totals.net).toBe('160.50');
    const nonCash = Object.fromEntries(d.totals.nonCash.map((x: any) => [x.kind, x.amount]));
    expect(nonCash).toEqual({ opening: '8.88', subsidy: '10.00', system: '1.23' });
    expect(fen(nonCash.subsidy)).toBe(sum('system', 'subsidy'));
    expect(fen(nonCash.opening)).toBe(sum('system', 'opening'));

    const ops = Object.fromEntries(d.operators.map((o: any) => [o.operatorId, o]));
    expect(ops[a.userId]).toMatchObject({ net: '80.00', handover: { state: 'open' } });
    expect(ops[op2.id]).toMatchObject({ net: '80.50', handover: { state: 'open' } });

    const list = ok(await t.call(a.token, { method: 'GET', url: `${Y}/DailyClosing/List?index=1&size=3` }));
    expect(list[0]).toMatchObject({ day: today, state: 'open', stateText: '未日结', net: '160.50', cash: '80.00', wechat: '50.00', bank: '30.50' });
  });
});

describe('作废/冲正', () => {
  it('voids a cash top-up once: a reversal row, the balance back, Σ journal = balance, both rows in the reports', async () => {
    const before = (await balances(t.owner, a.owners[0])).electric;
    const r = await counter(a.token, 'Prepay', a.rooms[0], '40');
    const v = ok(await voidIt(a.token, r.receiptId));
    expect(v).toMatchObject({ receiptId: r.receiptId, amount: '-40.00' });
    const after = (await balances(t.owner, a.owners[0])).electric;
    expect(after.balance).toBe(before.balance);
    expect(after.sum).toBe(after.balance);
    const { rows } = await t.owner.query(`SELECT kind, amount_fen, reverses_id, pay_method FROM journal WHERE id = $1`, [v.reversalJournalId]);
    expect(rows[0]).toMatchObject({ kind: 'reversal', amount_fen: -4000, reverses_id: r.journalId, pay_method: 'cash' });
    // the original stays as it was
    expect((await t.owner.query(`SELECT amount_fen FROM journal WHERE id = $1`, [r.journalId])).rows[0].amount_fen).toBe(4000);

    const twice = await voidIt(a.token, r.receiptId);
    expect(twice.body).toMatchObject({ code: 'ALREADY_VOIDED' });
    expect(twice.body.message).toContain('不能重复冲正');
    expect((await balances(t.owner, a.owners[0])).electric.balance).toBe(before.balance);

    const voids = ok(await t.call(a.token, { method: 'GET', url: `${Y}/BillPrinting/Voids?ids=${r.receiptId}` }));
    expect(voids).toEqual([expect.objectContaining({ receiptId: r.receiptId, reason: '收款金额录错', amount: '-40.00', businessDay: today })]);
    const stats = ok(await t.call(a.token, { method: 'GET', url: `${Y}/Statistics/list?index=1&size=50&transactionType=0` }));
    const ids = stats.map((x: any) => Number(x.id));
    expect(ids).toContain(r.journalId);
    expect(ids).toContain(v.reversalJournalId);
    // the day nets the voided cash out
    const sum = await journalSums(today);
    const d = await detail();
    expect(fen(d.totals.methods.find((x: any) => x.method === 'cash').net)).toBe(sum('cash', 'prepay') + sum('cash', 'refund') + sum('cash', 'reversal'));
  });

  it('refuses a void the balance no longer covers, and one without the permission', async () => {
    const r = await counter(a.token, 'Prepay', a.rooms[2], '50');
    await counter(a.token, 'Refund', a.rooms[2], String(((await balances(t.owner, a.owners[2])).electric.balance - 500) / 100));
    const res = await voidIt(a.token, r.receiptId);
    expect(res.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(res.body.message).toContain('不足以冲正');
    expect((await t.owner.query(`SELECT count(*)::int AS n FROM receipt_voids WHERE receipt_id = $1`, [r.receiptId])).rows[0].n).toBe(0);
    expect((await voidIt(clerk, r.receiptId)).status).toBe(403);
  });

  it('voids a refund: the money goes back onto the balance', async () => {
    const before = (await balances(t.owner, a.owners[1])).electric.balance;
    const r = await counter(op2.token, 'Refund', a.rooms[1], '5');
    ok(await voidIt(op2.token, r.receiptId, '退费误操作'));
    const after = (await balances(t.owner, a.owners[1])).electric;
    expect(after.balance).toBe(before);
    expect(after.sum).toBe(after.balance);
  });
});

describe('reports show both the original and the reversal', () => {
  it('对账报表 has a 冲正 column and its 净收款 equals the journal sums (receipts + refunds + reversals of money)', async () => {
    const r = ok(await t.call(a.token, { method: 'GET', url: `/yewu/api/Report/Check?startTime=${today}&endTime=${today}` }));
    const row = r.rows.find((x: any) => x.day === today);
    const { rows } = await t.owner.query(
      `SELECT kind, count(*)::int AS n, sum(amount_fen)::bigint AS fen FROM journal
       WHERE company_id = $1 AND (created_at AT TIME ZONE 'Asia/Shanghai')::date = $2::date AND pay_method IN ('cash', 'wechat', 'alipay', 'bank')
       GROUP BY kind`,
      [a.companyId, today],
    );
    const by = Object.fromEntries(rows.map((x) => [x.kind, { n: x.n, fen: Number(x.fen) }]));
    expect(by.reversal.n).toBeGreaterThan(0);
    expect(row.reversalCount).toBe(by.reversal.n);
    expect(fen(row.reversal)).toBe(by.reversal.fen);
    expect(fen(row.income)).toBe(by.prepay.fen);
    expect(fen(row.net)).toBe(by.prepay.fen + by.refund.fen + by.reversal.fen);
  });
});

describe('the payment log and the reconciliation list the reversal beside its original', () => {
  it('/notesPay and DataSum', async () => {
    const { rows } = await t.owner.query(`SELECT id, reverses_id FROM journal WHERE company_id = $1 AND kind = 'reversal' ORDER BY id LIMIT 1`, [a.companyId]);
    const list = ok(await t.call(a.token, { method: 'GET', url: `${Y}/userpaymentlog/Paymentlist?index=1&size=200` }));
    const ids = list.map((x: any) => Number(x.id));
    expect(ids).toContain(Number(rows[0].id));
    expect(ids).toContain(Number(rows[0].reverses_id));
    const only = ok(await t.call(a.token, { method: 'GET', url: `${Y}/userpaymentlog/Paymentlist?index=1&size=200&kind=reversal` }));
    expect(only.every((x: any) => x.kind === 'reversal')).toBe(true);
    const sum = ok(await t.call(a.token, { method: 'GET', url: `${Y}/userpaymentlog/DataSum` }));
    const j = await t.owner.query(
      `SELECT kind, sum(amount_fen)::bigint AS fen FROM journal WHERE company_id = $1 AND pay_method IN ('cash', 'wechat', 'alipay', 'bank') GROUP BY kind`,
      [a.companyId],
    );
    const by = Object.fromEntries(j.rows.map((x) => [x.kind, Number(x.fen)]));
    expect(fen(sum.reversal)).toBe(by.reversal);
    expect(fen(sum.net)).toBe(by.prepay + by.refund + by.reversal);
  });
});

describe('a closed shift and a closed day never change', () => {
  it('交班: the operator\'s later rows go to the next open day; a void of the shift is refused', async () => {
    const r = await counter(op2.token, 'Prepay', a.rooms[1], '12');
    const h = ok(await t.call(op2.token, { method: 'POST', url: `${Y}/DailyClosing/Handover`, payload: { day: today, memo: '早班' } }));
    const shift = h.operators.find((o: any) => o.operatorId === op2.id);
    expect(shift.handover).toMatchObject({ state: 'closed', stateText: '已交班', memo: '早班' });
    const again = await t.call(op2.token, { method: 'POST', url: `${Y}/DailyClosing/Handover`, payload: { day: today } });
    expect(again.body.code).toBe('SHIFT_CLOSED');

    const late = await counter(op2.token, 'Prepay', a.rooms[1], '7');
    const { rows } = await t.owner.query(`SELECT to_char(business_day, 'YYYY-MM-DD') AS d FROM journal WHERE id = $1`, [late.journalId]);
    expect(rows[0].d).toBe(tomorrow);
    expect((await detail()).operators.find((o: any) => o.operatorId === op2.id)).toEqual(shift);
    const v = await voidIt(a.token, r.receiptId);
    expect(v.body.code).toBe('DAY_CLOSED');
    expect(v.body.message).toContain('已交班');
  });

  it('日结: figures kept, later rows on the next day, no void, no second close', async () => {
    const r = await counter(a.token, 'Prepay', a.rooms[0], '25', 'alipay');
    const open = await detail();
    const closed = ok(await t.call(a.token, { method: 'POST', url: `${Y}/DailyClosing/Close`, payload: { day: today, memo: '今日结账' } }));
    expect(closed).toMatchObject({ state: 'closed', stateText: '已日结', closing: { memo: '今日结账' } });
    expect(closed.totals).toEqual(open.totals);

    // later: a top-up, a refund, a void attempt, another close, a hand-over — the closed day stays
    const late = await counter(a.token, 'Prepay', a.rooms[0], '60');
    await counter(a.token, 'Refund', a.rooms[0], '1');
    const { rows } = await t.owner.query(`SELECT to_char(business_day, 'YYYY-MM-DD') AS d FROM journal WHERE id = $1`, [late.journalId]);
    expect(rows[0].d).toBe(tomorrow);
    const v = await voidIt(a.token, r.receiptId);
    expect(v.body.code).toBe('DAY_CLOSED');
    expect(v.body.message).toContain('已日结');
    expect((await t.call(a.token, { method: 'POST', url: `${Y}/DailyClosing/Close`, payload: { day: today } })).body.code).toBe('DAY_CLOSED');
    expect((await t.call(a.token, { method: 'POST', url: `${Y}/DailyClosing/Handover`, payload: { day: today } })).body.code).toBe('DAY_CLOSED');

    const now = await detail();
    expect(now.totals).toEqual(open.totals);
    const sum = await journalSums(today);
    for (const x of now.totals.methods) expect(fen(x.net)).toBe(sum(x.method, 'prepay') + sum(x.method, 'refund') + sum(x.method, 'reversal'));
    const list = ok(await t.call(a.token, { method: 'GET', url: `${Y}/DailyClosing/List?index=1&size=5&state=closed` }));
    expect(list[0]).toMatchObject({ day: today, state: 'closed', handovers: 1, net: open.totals.net });
    // the journal itself refuses a change of a closed day's row
    await expect(t.owner.query(`UPDATE journal SET amount_fen = 1 WHERE id = $1`, [r.journalId])).rejects.toThrow(/不可修改/);
  });

  it('refuses a future day and a user without the permission', async () => {
    expect((await t.call(a.token, { method: 'POST', url: `${Y}/DailyClosing/Close`, payload: { day: tomorrow } })).body.code).toBe('DAY_NOT_STARTED');
    expect((await t.call(clerk, { method: 'POST', url: `${Y}/DailyClosing/Close`, payload: { day: today } })).status).toBe(403);
    expect((await t.call(a.token, { method: 'POST', url: `${Y}/DailyClosing/Close`, payload: { day: '2026-13-01' } })).status).toBe(400);
  });
});
