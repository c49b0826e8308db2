import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fenToYuan } from '@meter/contracts';
import { success, testApp, type TestApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { billingCompany, type BillingCompany } from '../billing/fixtures.ts';
import { post, type Posting } from '../billing/ledger.ts';
import { dayKey } from '../billing/period.ts';
import { makeRoom } from '../../../test/factories.ts';

// Issue 11 item 9: opening balances, subsidies, system credits and money received are different
// kinds of credit. Every report, the /home figures, the finance reconciliation and the exports are
// checked here against the journal's own sums by kind — and an opening balance booked the old way
// (kind prepay, 现金, ref_type 'opening') is turned into kind 'opening' by migration 0028.

let t: TestApp;
let a: BillingCompany;
const Y = '/yewu/api';
const ok = success;
const get = (url: string) => t.call(a.token, { method: 'GET', url });
const send = (url: string, payload: object) => t.call(a.token, { method: 'POST', url, payload });
// yesterday … tomorrow in China days: the rows of this test, whatever the hour it runs at
const period = () => `startTime=${dayKey(new Date(Date.now() - 86400_000))}&endTime=${dayKey(new Date(Date.now() + 86400_000))}`;

const ledgerPost = (p: Omit<Posting, 'companyId'>) => t.db.tx(SYSTEM_SCOPE, (tx) => post(tx, { companyId: a.companyId, ...p }));

/** Σ and count of the company's journal rows matching a condition (the owner connection, no RLS). */
async function journal(cond: string) {
  const { rows } = await t.owner.query(`SELECT coalesce(sum(amount_fen), 0)::bigint AS s, count(*)::int AS n FROM journal WHERE company_id = $1 AND ${cond}`, [a.companyId]);
  return { yuan: fenToYuan(Number(rows[0].s)), fen: Number(rows[0].s), n: Number(rows[0].n) };
}

beforeAll(async () => {
  t = await testApp();
  a = await billingCompany(t, { rooms: 3 });
  const [o1, o2, o3] = a.owners;
  const [r1, r2, r3] = a.rooms;
  // opening balances: two as the seed now books them, one the old way (to be migrated below)
  await ledgerPost({ ownerId: o1, roomId: r1, wallet: 'electric', kind: 'opening', amountFen: 15000, idempotencyKey: 'seed:opening:t1', payMethod: 'system', refType: 'opening', operatorName: '系统初始化', memo: '期初余额' });
  await ledgerPost({ ownerId: o2, roomId: r2, wallet: 'water', kind: 'opening', amountFen: 4000, idempotencyKey: 'seed:opening:t2', payMethod: 'system', refType: 'opening', operatorName: '系统初始化', memo: '期初余额' });
  await ledgerPost({ ownerId: o3, roomId: r3, wallet: 'electric', kind: 'prepay', amountFen: 7700, idempotencyKey: 'seed:opening:legacy', payMethod: 'cash', refType: 'opening', operatorName: '系统初始化', memo: '期初余额' });
  // a system credit (credited, not received)
  await ledgerPost({ ownerId: o1, roomId: r1, wallet: 'electric', kind: 'prepay', amountFen: 1234, idempotencyKey: 'sys:t1', payMethod: 'system', memo: '系统补录' });
  // money received at the counter, a subsidy, a refund
  ok(await send(`${Y}/Energy/Prepay`, { roomId: r1, wallet: 'electric', amount: '100.00', payMethod: 'cash' }));
  ok(await send(`${Y}/Energy/Prepay`, { roomId: r2, wallet: 'water', amount: '30.50', payMethod: 'wechat' }));
  ok(await send(`${Y}/Energy/Subsidy`, { roomId: r2, wallet: 'electric', amount: '12.00' }));
  ok(await send(`${Y}/Energy/Refund`, { roomId: r1, wallet: 'electric', amount: '5.00', payMethod: 'cash' }));
});
afterAll(() => t.close());

describe('migration 0028: an opening balance booked as a cash prepay becomes kind opening', () => {
  it('converts the legacy row and leaves balance == Σ journal', async () => {
    const sql = fs.readFileSync(path.resolve(import.meta.dirname, '../../db/migrations/0028_opening_balance_kind.sql'), 'utf8');
    const c = await t.owner.connect();
    try {
      await c.query('BEGIN');
      for (const s of sql.split('--> statement-breakpoint')) await c.query(s);
      await c.query('COMMIT');
    } finally {
      c.release();
    }
    const legacy = await journal(`idempotency_key = 'seed:opening:legacy' AND kind = 'opening' AND pay_method = 'system'`);
    expect(legacy.n).toBe(1);
    expect(legacy.fen).toBe(7700);
    expect((await journal(`ref_type = 'opening' AND kind = 'prepay'`)).n).toBe(0);
    const { rows } = await t.owner.query(
      `SELECT count(*)::int AS n FROM accounts ac WHERE ac.company_id = $1 AND ac.balance_fen <> (SELECT coalesce(sum(j.amount_fen), 0) FROM journal j WHERE j.account_id = ac.id)`,
      [a.companyId],
    );
    expect(rows[0].n).toBe(0);
    // the journal is append-only again
    await expect(t.owner.query(`UPDATE journal SET memo = 'x' WHERE company_id = $1`, [a.companyId])).rejects.toThrow(/不可修改/);
  });
});

describe('every figure against the journal, kind by kind', () => {
  it('/reportCheck: cash, WeChat and income are money received; subsidies, system credits and opening balances apart', async () => {
    const r = ok(await get(`${Y}/Report/Check?${period()}`)).data;
    const cash = await journal(`kind = 'prepay' AND pay_method = 'cash'`);
    const wechat = await journal(`kind = 'prepay' AND pay_method = 'wechat'`);
    const received = await journal(`kind = 'prepay' AND pay_method IN ('cash', 'wechat', 'alipay', 'bank')`);
    const opening = await journal(`kind = 'opening'`);
    const system = await journal(`kind = 'prepay' AND pay_method = 'system'`);
    const subsidy = await journal(`kind = 'subsidy'`);
    expect(r.totals).toMatchObject({
      cashCount: cash.n, cash: cash.yuan, wechatCount: wechat.n, wechat: wechat.yuan, income: received.yuan,
      openingCount: opening.n, opening: opening.yuan, systemCount: system.n, system: system.yuan, subsidyCount: subsidy.n, subsidy: subsidy.yuan,
    });
    // the figures the issue saw: only the counter's ¥100 is cash, the ¥77 opening balance is not
    expect(r.totals.cash).toBe('100.00');
    expect(r.totals.cashCount).toBe(1);
    expect(r.totals.income).toBe('130.50');
    expect(r.totals.opening).toBe('267.00');
    expect(r.totals.net).toBe('125.50');
  });

  it('/reportCheck export carries the same columns', async () => {
    const res = await t.app.inject({ method: 'GET', url: `${Y}/Report/CheckExport?${period()}`, headers: { authorization: `Bearer ${a.token}` } });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as never);
    const ws = wb.worksheets[0];
    const headers = (ws.getRow(1).values as unknown[]).slice(1).map(String);
    const last = (ws.getRow(ws.rowCount).values as unknown[]).slice(1);
    const col = (h: string) => last[headers.indexOf(h)];
    expect(col('日期')).toBe('合计');
    expect(col('现金（元）')).toBe(100);
    expect(col('收款合计（元）')).toBe(130.5);
    expect(col('期初余额（元）')).toBe(267);
    expect(col('系统入账（元）')).toBe(12.34);
    expect(col('补贴（元）')).toBe(12);
  });

  it('/reportFees: 充值 is money received; system credits and opening balances apart', async () => {
    const r = ok(await get(`${Y}/Report/Fees?index=1&size=50&${period()}`)).data;
    const received = await journal(`kind = 'prepay' AND pay_method IN ('cash', 'wechat', 'alipay', 'bank') AND room_id IS NOT NULL`);
    expect(r.totals).toMatchObject({
      prepay: received.yuan,
      opening: (await journal(`kind = 'opening' AND room_id IS NOT NULL`)).yuan,
      system: (await journal(`kind = 'prepay' AND pay_method = 'system' AND room_id IS NOT NULL`)).yuan,
      subsidy: (await journal(`kind = 'subsidy' AND room_id IS NOT NULL`)).yuan,
    });
    const room1 = r.rows.find((x: { roomId: number }) => Number(x.roomId) === a.rooms[0]);
    expect(room1).toMatchObject({ prepay: '100.00', opening: '150.00', system: '12.34' });
  });

  it("/reportFees keeps a deleted room's charges: the row stays, named 已删除房间 (it answered 500)", async () => {
    // an owner's old room: charged while the owner lived there, then the owner moved on and the room was deleted
    const old = await makeRoom(t.owner, a.companyId, a.floorId, '旧房间');
    await ledgerPost({ ownerId: a.owners[0], roomId: old, wallet: 'electric', kind: 'deduction', amountFen: 321, idempotencyKey: `old-room:${old}` });
    await t.owner.query(`DELETE FROM rooms WHERE id = $1`, [old]);
    const r = ok(await get(`${Y}/Report/Fees?index=1&size=50&${period()}`)).data;
    expect(r.rows.find((x: { roomId: number }) => x.roomId === old)).toMatchObject({ roomName: '已删除房间', ownerName: '', electricAmount: '3.21' });
    const x = await t.app.inject({ method: 'GET', url: `${Y}/Report/FeesExport?${period()}`, headers: { authorization: `Bearer ${a.token}` } });
    expect(x.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(x.rawPayload as never);
    const names = (wb.worksheets[0].getColumn(1).values as unknown[]).map(String);
    expect(names).toContain('已删除房间');
  });

  it('/reportBank counts no opening balance', async () => {
    const r = ok(await get(`${Y}/Report/Bank?${period()}`)).data;
    expect(r.totals.amount).toBe((await journal(`kind = 'prepay' AND pay_method IN ('bank', 'wechat', 'alipay')`)).yuan);
  });

  it('/home: 今日充值 is money received today; opening balances and system credits apart', async () => {
    const h = ok(await get(`${Y}/Home/BillingSummary`)).data;
    const received = await journal(`kind = 'prepay' AND pay_method IN ('cash', 'wechat', 'alipay', 'bank') AND created_at >= date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai'`);
    expect(h.today.prepay).toBe(received.yuan);
    expect(h.today.payments).toBe(received.n);
    expect(h.today.opening).toBe((await journal(`kind = 'opening' AND created_at >= date_trunc('day', now() AT TIME ZONE 'Asia/Shanghai') AT TIME ZONE 'Asia/Shanghai'`)).yuan);
    expect(h.today.systemCredit).toBe('12.34');
    expect(h.today.subsidy).toBe('12.00');
    const trendToday = h.trend[h.trend.length - 1];
    expect(trendToday.prepay).toBe(received.yuan);
  });

  it('/financerecode (DataSum): 收入合计 is money received; subsidies are not income', async () => {
    const s = ok(await get(`${Y}/userpaymentlog/DataSum?${period()}`)).data;
    const received = await journal(`kind = 'prepay' AND pay_method IN ('cash', 'wechat', 'alipay', 'bank')`);
    const refunds = await journal(`kind = 'refund'`);
    expect(s.income).toBe(received.yuan);
    expect(s.expense).toBe(fenToYuan(-refunds.fen));
    expect(s.net).toBe(fenToYuan(received.fen + refunds.fen));
    expect(s.subsidy).toBe((await journal(`kind = 'subsidy'`)).yuan);
    expect(s.opening).toBe((await journal(`kind = 'opening'`)).yuan);
    expect(s.systemCredit).toBe('12.34');
    expect(s.byKind.find((k: { key: string }) => k.key === 'opening')).toMatchObject({ text: '期初余额', count: 3 });
  });

  it('/notesPay lists opening balances as 期初余额 paid by 系统, never as 现金 充值', async () => {
    const r = ok(await get(`${Y}/userpaymentlog/Paymentlist?index=1&size=50&kind=opening&${period()}`));
    expect(r.count).toBe(3);
    for (const x of r.data) expect(x).toMatchObject({ kindText: '期初余额', payMethodText: '系统' });
    const cash = ok(await get(`${Y}/userpaymentlog/Paymentlist?index=1&size=50&kind=prepay&payMethod=cash&${period()}`));
    expect(cash.count).toBe(1);
  });

  it('an opening balance of 0 is refused; a negative one (arrears carried over) is kept signed', async () => {
    await expect(ledgerPost({ ownerId: a.owners[2], roomId: a.rooms[2], wallet: 'water', kind: 'opening', amountFen: 0, idempotencyKey: 'seed:opening:zero' })).rejects.toThrow('期初余额不能为 0');
    const p = await ledgerPost({ ownerId: a.owners[2], roomId: a.rooms[2], wallet: 'water', kind: 'opening', amountFen: -900, idempotencyKey: 'seed:opening:neg' });
    expect(p.balanceAfterFen).toBe(-900);
  });
});
