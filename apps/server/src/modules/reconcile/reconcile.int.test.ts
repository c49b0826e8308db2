import fs from 'node:fs';
import ExcelJS from 'exceljs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ok } from '../../../test/helpers.ts';
import { makeCompany } from '../../../test/factories.ts';
import { billingCompany, FINANCE_ROUTES, type BillingCompany } from '../billing/fixtures.ts';
import { testKeys } from '../../../test/keys.ts';
import { filePaymentHarness, placeOrder } from '../payment/emulated.test-util.ts';
import { OPERATION_KEYS } from '@meter/contracts';
import { addDays, businessDate, fromBeijingFields } from '../../time.ts';
import { reconcileYesterday } from './service.ts';

// 支付平台对账 on PostgreSQL against the payment emulators: one day's orders give every outcome
// (已匹配, 本地缺单, 金额不符, 平台缺单, and a trade the platform never had); re-running the day keeps one
// row per trade; 补单 credits once however often it is clicked; a company sees only its own rows; the
// daily job reconciles yesterday once.

const keys = testKeys();
const { t, em, payments } = await filePaymentHarness(keys);
const a = await billingCompany(t, { rooms: 1 });
const b = await billingCompany(t, { rooms: 1 });
const today = businessDate(new Date());

const order = async (c: BillingCompany, channel: 'wechat' | 'alipay', amount: string) => (await placeOrder(t, c.token, channel, c.rooms[0], amount)).outTradeNo as string;
const credits = async (outTradeNo: string) =>
  Number((await t.owner.query(`SELECT count(*) AS n FROM journal WHERE idempotency_key = $1`, [`pay:${outTradeNo}`])).rows[0].n);
const run = (c: BillingCompany, channel = 'wechat') => t.call(c.token, { method: 'POST', url: '/yewu/api/Reconcile/Run', payload: { day: today, channel } });
const rows = async (c: BillingCompany, channel = 'wechat') =>
  ok(await t.call(c.token, { method: 'GET', url: `/yewu/api/Reconcile/Rows?day=${today}&channel=${channel}&index=1&size=100` })) as any[];
const recover = (c: BillingCompany, id: number) => t.call(c.token, { method: 'POST', url: '/yewu/api/Reconcile/Recover', payload: { id } });


describe('支付平台对账 (WeChat Pay statement from the emulator)', { timeout: 60_000 }, () => {
  const no: Record<string, string> = {};
  let unknown = '';

  it('one day gives every outcome; each company sees its own rows only', async () => {
    no.matched = await order(a, 'wechat', '10.00');
    await em.pay(no.matched);
    no.missingHere = await order(a, 'wechat', '20.00');
    await em.pay(no.missingHere, { notify: false }); // the notification is lost
    no.differs = await order(a, 'wechat', '30.00');
    em.setAmount(no.differs, 3100);
    await em.pay(no.differs); // refused here: the amount differs
    no.missingThere = await order(a, 'wechat', '40.00');
    await em.pay(no.missingThere);
    em.revoke(no.missingThere); // the provider has no success for it any more
    unknown = `WX${today.replace(/-/g, '')}235959${String(Date.now()).slice(-8)}00`;
    em.addTrade('wechat', { outTradeNo: unknown, amountFen: 5000 });
    no.bMatched = await order(b, 'wechat', '60.00');
    await em.pay(no.bMatched);
    expect(await credits(no.matched)).toBe(1);
    expect(await credits(no.differs)).toBe(0);

    const s = ok(await run(a));
    expect(s.ranAt).toBeTruthy();
    const by = Object.fromEntries(s.outcomes.map((o: any) => [o.outcome, [o.text, o.count, o.amount]]));
    expect(by).toEqual({ matched: ['已匹配', 1, '10.00'], missing_here: ['本地缺单', 1, '20.00'], missing_there: ['平台缺单', 1, '40.00'], amount_differs: ['金额不符', 1, '31.00'] });

    const ra = await rows(a);
    const outcome = Object.fromEntries(ra.map((r) => [r.outTradeNo, r.outcomeText]));
    expect(outcome).toEqual({ [no.matched]: '已匹配', [no.missingHere]: '本地缺单', [no.differs]: '金额不符', [no.missingThere]: '平台缺单' });
    expect(ra.find((r) => r.outTradeNo === no.differs)).toMatchObject({ providerAmount: '31.00', ourAmount: '30.00', ourStatusText: '待支付' });
    expect(ra.find((r) => r.outTradeNo === no.missingThere)).toMatchObject({ providerAmount: null, ourAmount: '40.00', tradeNo: '' });
    const rb = await rows(b);
    expect(rb.map((r) => [r.outTradeNo, r.outcome])).toEqual([[no.bMatched, 'matched']]);
    // the trade no order of which exists here belongs to no company: only the platform sees it
    const stored = await t.owner.query(`SELECT company_id FROM reconcile_rows WHERE out_trade_no = $1`, [unknown]);
    expect(stored.rows).toEqual([{ company_id: null }]);
  });

  it('re-running the same day keeps one row per trade', async () => {
    const count = async () => Number((await t.owner.query(`SELECT count(*) AS n FROM reconcile_rows WHERE channel = 'wechat' AND day = $1`, [today])).rows[0].n);
    const before = await count();
    ok(await run(a));
    ok(await run(b));
    expect(await count()).toBe(before);
    expect(await rows(a)).toHaveLength(4);
  });

  it('补单 credits a 本地缺单 order once, clicked twice at once and again after', async () => {
    const row = (await rows(a)).find((r) => r.outTradeNo === no.missingHere);
    const [r1, r2] = await Promise.all([recover(a, row.id), recover(a, row.id)]);
    expect([ok(r1).outcome, ok(r2).outcome]).toEqual(['matched', 'matched']);
    const again = ok(await recover(a, row.id));
    expect(again).toMatchObject({ outcomeText: '已匹配', ourStatusText: '已入账' });
    expect(again.recoveredAt).toBeTruthy();
    expect(await credits(no.missingHere)).toBe(1);
    // a re-run now finds it matched, and keeps who recovered it
    ok(await run(a));
    expect((await rows(a)).find((r) => r.outTradeNo === no.missingHere)).toMatchObject({ outcome: 'matched', recoveredBy: again.recoveredBy });
    expect(await credits(no.missingHere)).toBe(1);
  });

  it('补单 is refused on other outcomes, and another company cannot reach the row', async () => {
    const ra = await rows(a);
    const differs = ra.find((r) => r.outTradeNo === no.differs);
    const r = await recover(a, differs.id);
    expect(r.body.code).toBe('NOT_MISSING_HERE');
    expect(r.body.message).toContain('金额不符');
    expect((await recover(b, differs.id)).status).toBe(404);
    const bRows = await t.call(b.token, { method: 'GET', url: `/yewu/api/Reconcile/Rows?day=${today}&channel=wechat&index=1&size=100&outcome=amount_differs` });
    expect(ok(bRows)).toEqual([]);
  });

  it('exports the rows as .xlsx; run and export need 支付平台对账, reading the page key', async () => {
    const x = await t.app.inject({ method: 'GET', url: `/yewu/api/Reconcile/Export?day=${today}&channel=wechat`, headers: { authorization: `Bearer ${a.token}` } });
    expect(x.statusCode, x.body.slice(0, 200)).toBe(200);
    expect(x.headers['content-type']).toContain('spreadsheetml');
    expect(x.rawPayload.subarray(0, 2).toString()).toBe('PK');
    const c = await billingCompany(t, { rooms: 1, routes: FINANCE_ROUTES, ops: OPERATION_KEYS.filter((k) => k !== 'finance.reconcile') });
    expect((await run(c)).status).toBe(403);
    expect((await t.call(c.token, { method: 'GET', url: `/yewu/api/Reconcile/Summary?day=${today}&channel=wechat` })).status).toBe(200);
    const bad = await t.call(a.token, { method: 'POST', url: '/yewu/api/Reconcile/Run', payload: { day: '2026-13-01', channel: 'wechat' } });
    expect(JSON.stringify(bad.body)).toContain('对账日期格式应为 YYYY-MM-DD');
  });

  it('Alipay: the zip statement matches a paid order', async () => {
    const n = await order(a, 'alipay', '8.80');
    await em.pay(n);
    const s = ok(await run(a, 'alipay'));
    expect(s.outcomes.find((o: any) => o.outcome === 'matched')).toMatchObject({ count: 1, amount: '8.80' });
    expect((await rows(a, 'alipay')).map((r) => r.outTradeNo)).toEqual([n]);
  });

  it('the daily job reconciles yesterday once, after 10:00 Beijing time', async () => {
    await t.owner.query(`DELETE FROM reconcile_runs WHERE day = $1`, [today]);
    const [y, m, d] = today.split('-').map(Number);
    const tomorrow = (h: number) => addDays(fromBeijingFields(y, m, d, h), 1);
    expect(await reconcileYesterday(t.db, payments, tomorrow(9))).toEqual([]);
    expect((await reconcileYesterday(t.db, payments, tomorrow(11))).sort()).toEqual([`alipay:${today}`, `wechat:${today}`]);
    expect(await reconcileYesterday(t.db, payments, tomorrow(12))).toEqual([]);
    expect(ok(await t.call(a.token, { method: 'GET', url: `/yewu/api/Reconcile/Summary?day=${today}&channel=wechat` })).ranBy).toBe('定时任务');
  });
});

describe('支付平台对账 of refund rows', { timeout: 60_000 }, () => {
  it('a refund in the statement and in our records is 已匹配; one the provider made that we never recorded is 本地缺单', async () => {
    const no = await order(a, 'wechat', '30.00');
    await em.pay(no);
    const mine = ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refund', payload: { outTradeNo: no, amount: '4.50', reason: '多缴退回', requestId: `rc${Date.now()}` } }));
    // a refund made at the provider directly (its notify finds no refund record here and is refused)
    const stray = `${no}Rstray0001`;
    await payments.gateways.wechat!.refund({ outTradeNo: no, outRefundNo: stray, refundFen: 200, totalFen: 3000, reason: '平台直接退款' });
    await em.idle();
    expect((await t.owner.query(`SELECT status FROM payment_refunds WHERE out_refund_no = $1`, [mine.outRefundNo])).rows[0].status).toBe('success');
    ok(await run(a));
    const got = (await t.owner.query(`SELECT out_refund_no, outcome, provider_fen, our_fen, our_status, company_id FROM reconcile_rows WHERE kind = 'refund' AND out_trade_no = $1 ORDER BY out_refund_no`, [no])).rows;
    expect(got).toEqual([
      { out_refund_no: mine.outRefundNo, outcome: 'matched', provider_fen: 450, our_fen: 450, our_status: 'refund_success', company_id: a.companyId },
      { out_refund_no: stray, outcome: 'missing_here', provider_fen: 200, our_fen: null, our_status: '', company_id: null },
    ].sort((x, y) => x.out_refund_no.localeCompare(y.out_refund_no)));
    // the company sees its own refund row, with its kind and number; the trade itself is still 已匹配
    const seen = (await rows(a)).filter((r) => r.outTradeNo === no);
    expect(seen.map((r) => `${r.kind}:${r.outRefundNo}:${r.outcome}`).sort()).toEqual([`payment::matched`, `refund:${mine.outRefundNo}:matched`].sort());
    // a refund row is not a 补单
    const id = seen.find((r) => r.kind === 'refund').id;
    expect((await recover(a, id)).body.code).toBe('NOT_RECOVERABLE');
    // re-run: one row per refund still
    ok(await run(a));
    expect(Number((await t.owner.query(`SELECT count(*) AS n FROM reconcile_rows WHERE kind = 'refund' AND out_trade_no = $1`, [no])).rows[0].n)).toBe(2);
  });
});

describe('支付平台对账 export of refund rows', { timeout: 60_000 }, () => {
  it('the .xlsx has 类型 and 退款单号 columns: refund rows 已匹配, 金额不符, 本地缺单 and 平台缺单 read back from the file', async () => {
    const no = await order(a, 'wechat', '40.00');
    await em.pay(no);
    const refund = async (amount: string, tag: string) =>
      ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refund', payload: { outTradeNo: no, amount, reason: '导出测试', requestId: `x${tag}${Date.now()}` } })).outRefundNo as string;
    const matched = await refund('1.00', 'm');
    const differs = await refund('2.00', 'd');
    const here = await refund('3.00', 'h');
    await em.idle();
    // our records disagree with the provider's statement: another amount; still processing here;
    // and a success here the provider never had (平台缺单)
    await t.owner.query(`UPDATE payment_refunds SET amount_fen = 210 WHERE out_refund_no = $1`, [differs]);
    await t.owner.query(`UPDATE payment_refunds SET status = 'processing' WHERE out_refund_no = $1`, [here]);
    const there = `${no}Rthere0001`;
    await t.owner.query(`
      INSERT INTO payment_refunds (company_id, payment_id, channel, out_trade_no, out_refund_no, amount_fen, reason, status, finished_at)
      SELECT company_id, payment_id, channel, out_trade_no, $2, 400, '导出测试', 'success', now() FROM payment_refunds WHERE out_refund_no = $1`, [matched, there]);
    ok(await run(a));
    const x = await t.app.inject({ method: 'GET', url: `/yewu/api/Reconcile/Export?day=${today}&channel=wechat`, headers: { authorization: `Bearer ${a.token}` } });
    expect(x.statusCode, x.body.slice(0, 200)).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(new Uint8Array(x.rawPayload).buffer);
    const ws = wb.worksheets[0];
    const cells = (r: number) => Array.from({ length: ws.columnCount }, (_, i) => ws.getRow(r).getCell(i + 1).value ?? '');
    let header = 0;
    for (let r = 1; r <= ws.rowCount && !header; r++) if (cells(r).includes('退款单号')) header = r;
    expect(header, 'a header row with 退款单号').toBeGreaterThan(0);
    const head = cells(header) as string[];
    const col = (name: string) => {
      const i = head.indexOf(name);
      expect(i, name).toBeGreaterThanOrEqual(0);
      return i;
    };
    const [kind, refundNo, order_, outcome, theirs, ours] = ['类型', '退款单号', '商户订单号', '对账结果', '平台金额（元）', '本地金额（元）'].map(col);
    const mine: Record<string, unknown[]> = {};
    for (let r = header + 1; r <= ws.rowCount; r++) {
      const v = cells(r);
      if (v[order_] === no) mine[`${v[kind]}:${v[refundNo]}`] = [v[outcome], v[theirs], v[ours]];
    }
    expect(mine).toEqual({
      '支付:': ['已匹配', 40, 40],
      [`退款:${matched}`]: ['已匹配', 1, 1],
      [`退款:${differs}`]: ['金额不符', 2, 2.1],
      [`退款:${here}`]: ['本地缺单', 3, 3],
      [`退款:${there}`]: ['平台缺单', '', 4],
    });
  });
});

describe('migration 0043', () => {
  it('gives built-in administrator roles 支付平台对账; a company-made role is untouched', async () => {
    const companyId = await makeCompany(t.owner);
    const mk = async (builtin: boolean) =>
      Number((await t.owner.query(`INSERT INTO roles (company_id, name, routes, operations, builtin, access) VALUES ($1, $2, '{financerecode}', '{finance.audit}', $3, 1) RETURNING id`,
        [companyId, builtin ? '管理员' : '财务', builtin])).rows[0].id);
    const builtin = await mk(true);
    const own = await mk(false);
    const sql = fs.readFileSync(path.resolve(import.meta.dirname, '../../db/migrations/0043_reconcile.sql'), 'utf8');
    await t.owner.query(sql.slice(sql.lastIndexOf('UPDATE roles')));
    const ops = async (id: number) => (await t.owner.query(`SELECT operations FROM roles WHERE id = $1`, [id])).rows[0].operations.sort();
    expect(await ops(builtin)).toEqual(['finance.audit', 'finance.reconcile']);
    expect(await ops(own)).toEqual(['finance.audit']);
  });
});
