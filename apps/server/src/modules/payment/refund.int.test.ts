import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { balances, billingCompany, type BillingCompany } from '../billing/fixtures.ts';

// 退款 of paid online orders with the simulated provider (refunds at once): whole, in parts, the same
// request twice refunds once, beyond what is refundable / the balance / an unpaid order refused with
// nothing changed. The providers' own answers (failure, notify) are in refund-provider.int.test.ts.

let t: TestApp;
let a: BillingCompany;
let b: BillingCompany;

const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) => t.call(token, { method, url, payload });
const ok = (r: { status: number; body: any }) => {
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
};
const paidOrder = async (room: number, amount: string, channel: 'wxpay' | 'alipay' = 'wxpay') => {
  const o = ok(await call(a.token, 'POST', `/${channel}/api/${channel}/pay`, { roomId: room, wallet: 'electric', amount }));
  ok(await call(a.token, 'POST', `/${channel}/api/${channel}/simulatePaid`, { outTradeNo: o.outTradeNo }));
  return o.outTradeNo as string;
};
let seq = 0;
const rid = () => `req${Date.now()}${++seq}`;
const refund = (outTradeNo: string, amount: string, requestId = rid(), channel: 'wxpay' | 'alipay' = 'wxpay', token = a.token) =>
  call(token, 'POST', `/${channel}/api/${channel}/refund`, { outTradeNo, amount, reason: '业主搬离', requestId });
const journal = async (outTradeNo: string) =>
  (await t.owner.query(`SELECT kind, amount_fen, pay_method FROM journal WHERE idempotency_key LIKE $1 ORDER BY id`, [`%${outTradeNo}%`])).rows
    .map((r) => `${r.kind}:${r.amount_fen}:${r.pay_method}`);
const refundRows = async (outTradeNo: string) =>
  (await t.owner.query(`SELECT status, amount_fen FROM payment_refunds WHERE out_trade_no = $1 ORDER BY id`, [outTradeNo])).rows.map((r) => `${r.status}:${r.amount_fen}`);

beforeAll(async () => {
  t = await testApp();
  a = await billingCompany(t, { rooms: 4 });
  b = await billingCompany(t, { rooms: 1 });
});
afterAll(() => t?.close());

describe('online refunds (simulated provider)', () => {
  it('refunds a paid order in full: the wallet debited by a refund journal row in the channel, the order shows it refunded', async () => {
    const no = await paidOrder(a.rooms[0], '30.00');
    expect((await balances(t.owner, a.owners[0])).electric.balance).toBe(3000);
    const r = ok(await refund(no, '30'));
    expect(r).toMatchObject({ outTradeNo: no, amount: '30.00', status: 'success', statusText: '已退款', reason: '业主搬离', duplicate: false });
    expect(r.outRefundNo.startsWith(`${no}R`)).toBe(true);
    expect(r.providerRefundNo).toMatch(/^SIM/);
    const bal = (await balances(t.owner, a.owners[0])).electric;
    expect(bal).toMatchObject({ balance: 0, sum: 0 });
    expect(await journal(no)).toEqual(['prepay:3000:wechat', 'refund:-3000:wechat']);
    expect(ok(await call(a.token, 'GET', `/wxpay/api/wxpay/query?outTradeNo=${no}`))).toMatchObject({ status: 'paid', refunded: '30.00' });
    const list = ok(await call(a.token, 'GET', `/wxpay/api/wxpay/refunds?outTradeNo=${no}`));
    expect(list.map((x: any) => `${x.amount}:${x.status}`)).toEqual(['30.00:success']);
    // nothing left to refund
    const again = await refund(no, '0.01');
    expect(again.body.code).toBe('REFUND_EXCEEDS');
    expect(again.body.message).toContain('已全额退款');
  });

  it('refunds in parts up to what is left; beyond it is refused with nothing changed', async () => {
    const no = await paidOrder(a.rooms[1], '50.00', 'alipay');
    ok(await refund(no, '20', rid(), 'alipay'));
    ok(await refund(no, '12.50', rid(), 'alipay'));
    const over = await refund(no, '17.51', rid(), 'alipay');
    expect(over.body.code).toBe('REFUND_EXCEEDS');
    expect(over.body.message).toBe('退款金额 ¥17.51 超过可退金额 ¥17.50');
    expect(await refundRows(no)).toEqual(['success:2000', 'success:1250']);
    expect((await balances(t.owner, a.owners[1])).electric).toMatchObject({ balance: 1750, sum: 1750 });
    expect(await journal(no)).toEqual(['prepay:5000:alipay', 'refund:-2000:alipay', 'refund:-1250:alipay']);
    // the wrong channel's endpoint does not find the order
    expect((await refund(no, '1', rid(), 'wxpay')).status).toBe(404);
    ok(await refund(no, '17.50', rid(), 'alipay'));
    expect((await balances(t.owner, a.owners[1])).electric.balance).toBe(0);
  });

  it('the same request twice (also at once) refunds once; its id reused for another amount is refused', async () => {
    const no = await paidOrder(a.rooms[2], '40.00');
    const req = rid();
    const both = await Promise.all([refund(no, '15', req), refund(no, '15', req), refund(no, '15', req)]);
    const answers = both.map(ok);
    expect(answers.filter((x) => !x.duplicate)).toHaveLength(1);
    expect(new Set(answers.map((x) => x.id)).size).toBe(1);
    expect(ok(await refund(no, '15', req)).duplicate).toBe(true);
    expect(await refundRows(no)).toEqual(['success:1500']);
    expect(await journal(no)).toEqual(['prepay:4000:wechat', 'refund:-1500:wechat']);
    expect((await refund(no, '16', req)).body.code).toBe('REFUND_REQUEST_REUSED');
    expect((await balances(t.owner, a.owners[2])).electric.balance).toBe(2500);
  });

  it('refused with nothing changed: a balance that does not cover it, an unpaid order, another company’s order', async () => {
    const no = await paidOrder(a.rooms[3], '20.00');
    // 15 of it spent (refunded at the counter): 5 left
    ok(await call(a.token, 'POST', '/yewu/api/Energy/Refund', { roomId: a.rooms[3], wallet: 'electric', amount: '15', payMethod: 'cash' }));
    const r = await refund(no, '6');
    expect(r.body.code).toBe('INSUFFICIENT_BALANCE');
    expect(r.body.message).toBe('电费账户余额 ¥5.00 不足以退款 ¥6.00：已消费的金额不能退回');
    expect(await refundRows(no)).toEqual([]);
    expect(await journal(no)).toEqual(['prepay:2000:wechat']);
    expect((await balances(t.owner, a.owners[3])).electric).toMatchObject({ balance: 500, sum: 500 });

    const open = ok(await call(a.token, 'POST', '/wxpay/api/wxpay/pay', { roomId: a.rooms[3], wallet: 'electric', amount: '3' }));
    const u = await refund(open.outTradeNo, '1');
    expect(u.body.code).toBe('NOT_PAID');
    expect(u.body.message).toBe('订单未支付，不能退款');
    expect(await refundRows(open.outTradeNo)).toEqual([]);

    expect((await refund(no, '1', rid(), 'wxpay', b.token)).status).toBe(404);
    expect((await balances(t.owner, a.owners[3])).electric.balance).toBe(500);
    // a bad amount or no reason: a field error
    expect((await call(a.token, 'POST', '/wxpay/api/wxpay/refund', { outTradeNo: no, amount: '1', reason: '', requestId: rid() })).status).toBe(400);
  });

  it('a succeeded refund has a 退款凭证: listed on /billprint, its detail in words, printable; never voidable', async () => {
    const no = await paidOrder(a.rooms[0], '12.34');
    const req = rid();
    const r = ok(await refund(no, '12.34', req));
    expect(r.status).toBe('success');
    expect(r.receiptId).toEqual(expect.any(Number));
    expect(r.receiptNo).toMatch(/^SJ\d{16}$/);
    // the order's refund list names it too
    expect(ok(await call(a.token, 'GET', `/wxpay/api/wxpay/refunds?outTradeNo=${no}`))[0]).toMatchObject({ receiptId: r.receiptId, receiptNo: r.receiptNo });
    // listed where receipts are, as a refund in the channel
    const listed = ok(await call(a.token, 'GET', `/yewu/api/BillPrinting/List?index=1&size=20&no=${r.receiptNo}`));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: r.receiptId, no: r.receiptNo, kind: 'refund', payMethod: 'wechat', amount: '12.34', online: true });
    const detail = ok(await call(a.token, 'GET', `/yewu/api/BillPrinting/Detail?id=${r.receiptId}`));
    expect(detail).toMatchObject({ no: r.receiptNo, kind: 'refund', amount: '12.34', amountChinese: '壹拾贰元叁角肆分', kindText: expect.any(String) });
    expect(detail.items).toEqual([{ item: '电费退款（微信支付原路退回）', amount: '12.34' }]);
    // printed (the print count)
    ok(await call(a.token, 'POST', `/yewu/api/BillPrinting/Print/${r.receiptId}`));
    // the same request again: the same receipt, no second one
    expect(ok(await refund(no, '12.34', req))).toMatchObject({ duplicate: true, receiptId: r.receiptId });
    expect(Number((await t.owner.query(`SELECT count(*) AS n FROM receipts WHERE kind = 'refund' AND memo LIKE $1`, [`%${no}%`])).rows[0].n)).toBe(1);
    // the money left through the provider: its receipt is not voided at the counter
    const v = await call(a.token, 'POST', '/yewu/api/BillPrinting/Void', { receiptId: r.receiptId, reason: '测试作废' });
    expect(v.body.code).toBe('NOT_VOIDABLE');
    expect(v.body.message).toContain('线上退款的凭证不能作废');
  });

  it('a refund still processing has no receipt yet', async () => {
    const no = await paidOrder(a.rooms[1], '5.00');
    const r = ok(await refund(no, '1'));
    await t.owner.query(`UPDATE payment_refunds SET status = 'processing' WHERE out_refund_no = $1`, [r.outRefundNo]);
    expect(ok(await call(a.token, 'GET', `/wxpay/api/wxpay/refunds?outTradeNo=${no}`))[0]).toMatchObject({ status: 'processing', receiptId: null, receiptNo: '' });
  });
});
