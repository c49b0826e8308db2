import { randomBytes } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ok } from '../../../test/helpers.ts';
import { balances, billingCompany } from '../billing/fixtures.ts';
import { spareKey, testKeys } from '../../../test/keys.ts';
import { wechatNotification } from './emulator/server.ts';
import { filePaymentHarness, placeOrder } from './emulated.test-util.ts';
import { recoverRefunds } from './refund.ts';

// 退款 through WeChat Pay API v3 and Alipay, against the local emulators: WeChat accepts (PROCESSING)
// and its signed, encrypted REFUND.SUCCESS / REFUND.ABNORMAL notification ends the refund; Alipay
// answers at once; a provider that refuses (merchant balance short) or ends it abnormal gives the
// owner's money back (a reversal); forged refund notifications change nothing; the query job settles
// a refund whose notification was lost.

const keys = testKeys();
let dropRefundNotify = false;
const { t, em, payments } = await filePaymentHarness(keys, { lost: (url) => dropRefundNotify && url.includes('refundNotify') });
const a = await billingCompany(t, { rooms: 5 });

const paidOrder = async (channel: 'wechat' | 'alipay', room: number, amount: string) => {
  const o = await placeOrder(t, a.token, channel, room, amount);
  expect((await em.pay(o.outTradeNo))?.status).toBeLessThan(300);
  return o.outTradeNo as string;
};
const refund = (channel: 'wechat' | 'alipay', outTradeNo: string, amount: string, requestId = `rq${randomBytes(6).toString('hex')}`) =>
  t.call(a.token, { method: 'POST', url: channel === 'wechat' ? '/wxpay/api/wxpay/refund' : '/alipay/api/alipay/refund', payload: { outTradeNo, amount, reason: '多缴退回', requestId } });
/** A paid order whose refund request is lost once on the way (`error`; the gateway's refund spied on as `sent`). */
async function lostRefund(channel: 'wechat' | 'alipay', room: number, amount: string, refundAmount: string, error: string) {
  const no = await paidOrder(channel, room, amount);
  const gw = payments.gateways[channel]!;
  const sent = vi.spyOn(gw, 'refund');
  sent.mockRejectedValueOnce(new Error(error));
  return { no, gw, sent, r: ok(await refund(channel, no, refundAmount)) };
}
const refundOf = async (outRefundNo: string) =>
  (await t.owner.query(`SELECT status, provider_refund_no, provider_message, reversal_journal_id FROM payment_refunds WHERE out_refund_no = $1`, [outRefundNo])).rows[0];
const kinds = async (outTradeNo: string) =>
  (await t.owner.query(`SELECT kind, amount_fen FROM journal WHERE idempotency_key LIKE $1 ORDER BY id`, [`%${outTradeNo}%`])).rows.map((r) => `${r.kind}:${r.amount_fen}`);
const sendRefundNotify = (n: { headers: Record<string, string>; raw: string }) =>
  t.app.inject({ method: 'POST', url: '/wxpay/api/wxpay/refundNotify', headers: n.headers, payload: n.raw });


describe('online refunds at the providers (emulators)', () => {
  it('WeChat: accepted as processing, the REFUND.SUCCESS notify ends it once; a replayed or forged notify changes nothing', async () => {
    const no = await paidOrder('wechat', a.rooms[0], '25.00');
    const r = ok(await refund('wechat', no, '10'));
    // accepted as PROCESSING; the notify (20 ms later at the emulator) may already have ended it
    expect(['processing', 'success']).toContain(r.status);
    await em.idle();
    const d = em.delivered.at(-1)!;
    expect(d.url).toBe('http://127.0.0.1/wxpay/api/wxpay/refundNotify');
    expect(JSON.parse(d.raw).event_type).toBe('REFUND.SUCCESS');
    expect(d.status).toBe(204);
    expect(await refundOf(r.outRefundNo)).toMatchObject({ status: 'success', reversal_journal_id: null });
    expect((await refundOf(r.outRefundNo)).provider_refund_no).toMatch(/^50/);
    expect((await sendRefundNotify(d)).statusCode).toBe(204);
    expect(await kinds(no)).toEqual(['prepay:2500', 'refund:-1000']);
    expect((await balances(t.owner, a.owners[0])).electric).toMatchObject({ balance: 1500, sum: 1500 });
    ok(await t.call(a.token, { method: 'GET', url: `/wxpay/api/wxpay/refunds?outTradeNo=${no}` }));

    // forged: another platform key, a wrong APIv3 key, another merchant, another amount — refused, the pending refund untouched
    em.setRefundOutcome('SUCCESS');
    dropRefundNotify = true;
    const p = ok(await refund('wechat', no, '5'));
    await em.idle();
    dropRefundNotify = false;
    expect((await refundOf(p.outRefundNo)).status).toBe('processing');
    const res = { mchid: keys.wechat.mchid, out_trade_no: no, out_refund_no: p.outRefundNo, refund_id: '50999', refund_status: 'ABNORMAL', amount: { refund: 500, total: 2500 } };
    const otherKey = spareKey(0);
    const forged = [
      wechatNotification({ ...keys.wechat, platformKey: otherKey }, res, { event: 'REFUND.ABNORMAL' }),
      wechatNotification({ ...keys.wechat, apiV3Key: randomBytes(16).toString('hex') }, res, { event: 'REFUND.ABNORMAL' }),
      wechatNotification(keys.wechat, { ...res, mchid: '1900000999' }, { event: 'REFUND.ABNORMAL' }),
      wechatNotification(keys.wechat, { ...res, amount: { refund: 1, total: 2500 } }, { event: 'REFUND.ABNORMAL' }),
    ];
    for (const f of forged) expect((await sendRefundNotify(f)).statusCode).toBeGreaterThanOrEqual(400);
    expect((await refundOf(p.outRefundNo)).status).toBe('processing');
    expect(await kinds(no)).toEqual(['prepay:2500', 'refund:-1000', 'refund:-500']);
    // the lost notify: the query job asks WeChat and settles it
    const job = await recoverRefunds(t.db, payments, { minAgeMs: 0 });
    expect(job.settled).toBeGreaterThanOrEqual(1);
    expect((await refundOf(p.outRefundNo)).status).toBe('success');
    expect((await balances(t.owner, a.owners[0])).electric.balance).toBe(1000);
  });

  it('WeChat: a refund that ends ABNORMAL reverses the debit once; the amount is refundable again', async () => {
    const no = await paidOrder('wechat', a.rooms[1], '30.00');
    em.setRefundOutcome('ABNORMAL');
    const r = ok(await refund('wechat', no, '30'));
    await em.idle();
    em.setRefundOutcome('SUCCESS');
    expect(JSON.parse(em.delivered.at(-1)!.raw).event_type).toBe('REFUND.ABNORMAL');
    const f = await refundOf(r.outRefundNo);
    expect(f.status).toBe('failed');
    expect(f.provider_message).toContain('退款异常');
    expect(await kinds(no)).toEqual(['prepay:3000', 'refund:-3000', 'reversal:3000']);
    expect((await balances(t.owner, a.owners[1])).electric).toMatchObject({ balance: 3000, sum: 3000 });
    // replayed: still one reversal
    expect((await sendRefundNotify(em.delivered.at(-1)!)).statusCode).toBe(204);
    expect(await kinds(no)).toEqual(['prepay:3000', 'refund:-3000', 'reversal:3000']);
    ok(await refund('wechat', no, '30'));
    await em.idle();
    expect((await balances(t.owner, a.owners[1])).electric.balance).toBe(0);
  });

  it('a provider that refuses the refund (merchant balance short) gives the money back at once, WeChat and Alipay', async () => {
    for (const [channel, i] of [['wechat', 2], ['alipay', 3]] as const) {
      const no = await paidOrder(channel, a.rooms[i], '12.00');
      em.setRefundOutcome('NOT_ENOUGH');
      const r = ok(await refund(channel, no, '12'));
      em.setRefundOutcome('SUCCESS');
      expect(r.status).toBe('failed');
      expect(r.statusText).toBe('退款失败');
      expect(r.providerMessage).toMatch(/余额不足/);
      expect(await kinds(no)).toEqual(['prepay:1200', 'refund:-1200', 'reversal:1200']);
      expect((await balances(t.owner, a.owners[i])).electric).toMatchObject({ balance: 1200, sum: 1200 });
    }
  });

  it('Alipay: refunded synchronously (fund_change Y), partly, the query agrees', async () => {
    const no = await paidOrder('alipay', a.rooms[4], '40.00');
    const r = ok(await refund('alipay', no, '15.50'));
    expect(r.status).toBe('success');
    expect(await payments.gateways.alipay!.refundQuery({ outTradeNo: no, outRefundNo: r.outRefundNo })).toMatchObject({ status: 'SUCCESS' });
    expect(await payments.gateways.alipay!.refundQuery({ outTradeNo: no, outRefundNo: `${no}Rnone0000` })).toBeNull();
    expect((await refund('alipay', no, '24.51')).body.code).toBe('REFUND_EXCEEDS');
    expect((await balances(t.owner, a.owners[4])).electric.balance).toBe(2450);
  });

  it('重新查询/重发: a refund whose request never reached WeChat is sent again with the same out_refund_no and refunded once; repeats change nothing', async () => {
    const { no, gw, sent, r } = await lostRefund('wechat', a.rooms[0], '8.00', '3', 'socket hang up');
    expect(r).toMatchObject({ status: 'processing', receiptId: null });
    expect(r.providerMessage).toContain('支付平台未应答');
    expect(await gw.refundQuery({ outTradeNo: no, outRefundNo: r.outRefundNo })).toBeNull();
    // asked: WeChat has no such refund → re-sent (same out_refund_no); two clicks at once refund once
    const both = await Promise.all([0, 1].map(() => t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: r.outRefundNo } })));
    for (const x of both) expect(ok(x).outRefundNo).toBe(r.outRefundNo);
    expect(sent.mock.calls.length).toBeGreaterThanOrEqual(2);
    expect(sent.mock.calls.slice(1).every(([o]) => o.outRefundNo === r.outRefundNo && o.refundFen === 300)).toBe(true);
    await em.idle();
    expect(await refundOf(r.outRefundNo)).toMatchObject({ status: 'success', reversal_journal_id: null });
    expect(await gw.refundQuery({ outTradeNo: no, outRefundNo: r.outRefundNo })).toMatchObject({ status: 'SUCCESS' });
    expect(await kinds(no)).toEqual(['prepay:800', 'refund:-300']);
    // settled: answered as it is, nothing asked or sent again
    const calls = sent.mock.calls.length;
    const again = ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: r.outRefundNo } }));
    expect(again).toMatchObject({ status: 'success', receiptId: expect.any(Number) });
    expect(sent.mock.calls.length).toBe(calls);
    sent.mockRestore();
    expect((await balances(t.owner, a.owners[0])).electric.balance).toBe(1000 + 500);
  });

  it('重新查询: a refund WeChat has (its notify lost) is settled from the query, not sent again; unknown or another company\'s refund is 404', async () => {
    const no = await paidOrder('wechat', a.rooms[1], '6.00');
    dropRefundNotify = true;
    const r = ok(await refund('wechat', no, '6'));
    await em.idle();
    dropRefundNotify = false;
    expect((await refundOf(r.outRefundNo)).status).toBe('processing');
    const sent = vi.spyOn(payments.gateways.wechat!, 'refund');
    const x = ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: r.outRefundNo } }));
    expect(x).toMatchObject({ status: 'success', statusText: '已退款' });
    expect(sent).not.toHaveBeenCalled();
    sent.mockRestore();
    expect(await kinds(no)).toEqual(['prepay:600', 'refund:-600']);
    expect((await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: `${no}Rnone00000` } })).status).toBe(404);
    const other = await billingCompany(t, { rooms: 1 });
    expect((await t.call(other.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: r.outRefundNo } })).status).toBe(404);
    const bad = await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: 'x' } });
    expect(JSON.stringify(bad.body)).toContain('退款单号格式不正确');
  });

  it('重新查询/重发 of an Alipay refund lost on the way: alipay.trade.fastpay.refund.query finds nothing → sent again (same out_request_no), refunded synchronously, once', async () => {
    const { no, gw, sent, r } = await lostRefund('alipay', a.rooms[2], '9.00', '4', 'ETIMEDOUT');
    expect(r.status).toBe('processing');
    const x = ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: r.outRefundNo } }));
    expect(x).toMatchObject({ status: 'success', receiptId: expect.any(Number) });
    expect(sent).toHaveBeenCalledTimes(2);
    expect(sent.mock.calls[1][0]).toMatchObject({ outRefundNo: r.outRefundNo, refundFen: 400 });
    // again: settled, nothing sent
    ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/refundRetry', payload: { outRefundNo: r.outRefundNo } }));
    expect(sent).toHaveBeenCalledTimes(2);
    sent.mockRestore();
    expect(await kinds(no)).toEqual(['prepay:900', 'refund:-400']);
    expect(await gw.refundQuery({ outTradeNo: no, outRefundNo: r.outRefundNo })).toMatchObject({ status: 'SUCCESS' });
  });
});
