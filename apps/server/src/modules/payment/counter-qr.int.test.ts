import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { balances, billingCompany, type BillingCompany } from '../billing/fixtures.ts';
import { testKeys } from '../../../test/keys.ts';
import type { Emulator } from './emulator/server.ts';
import { paymentHarness, type PaymentHarness } from './emulated.test-util.ts';

// 扫码收款 at the counter (issue 14 item 15): the paid order prints a receipt (/billprint) and counts
// in the operator's shift; an unpaid order can be cancelled — closed at the provider first, so the
// payer can no longer pay it — and a paid one cannot. Simulated provider and the local emulators.

const ok = (r: { status: number; body: any }) => {
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
};

async function setup(t: TestApp, a: BillingCompany) {
  const order = async (channel: 'wechat' | 'alipay', room: number, amount: string) =>
    ok(await t.call(a.token, { method: 'POST', url: channel === 'wechat' ? '/wxpay/api/wxpay/pay' : '/alipay/api/alipay/pay', payload: { roomId: room, wallet: 'electric', amount } }));
  const cancel = (channel: 'wechat' | 'alipay', outTradeNo: string) =>
    t.call(a.token, { method: 'POST', url: channel === 'wechat' ? '/wxpay/api/wxpay/close' : '/alipay/api/alipay/close', payload: { outTradeNo } });
  const query = async (outTradeNo: string) => ok(await t.call(a.token, { method: 'GET', url: `/wxpay/api/wxpay/query?outTradeNo=${outTradeNo}` }));
  return { order, cancel, query };
}

describe('simulated provider', () => {
  let t: TestApp;
  let a: BillingCompany;
  beforeAll(async () => {
    t = await testApp();
    a = await billingCompany(t, { rooms: 2 });
  });
  afterAll(() => t.close());

  it('an unpaid order is cancelled: closed, cannot be paid afterwards, nothing credited', async () => {
    const { order, cancel, query } = await setup(t, a);
    const o = await order('wechat', a.rooms[0], '30');
    expect(ok(await cancel('wechat', o.outTradeNo))).toMatchObject({ status: 'closed', statusText: '已关闭' });
    // again: the same answer
    expect(ok(await cancel('wechat', o.outTradeNo)).status).toBe('closed');
    const paid = await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/simulatePaid', payload: { outTradeNo: o.outTradeNo } });
    expect(paid.body.code).toBe('ORDER_CLOSED');
    expect((await query(o.outTradeNo)).status).toBe('closed');
    expect((await balances(t.owner, a.owners[0])).electric ?? { balance: 0 }).toMatchObject({ balance: 0 });
  });

  it('a paid order has a receipt by the counter operator and counts in their shift; it cannot be cancelled', async () => {
    const { order, cancel, query } = await setup(t, a);
    const o = await order('alipay', a.rooms[1], '45.5');
    ok(await t.call(a.token, { method: 'POST', url: '/alipay/api/alipay/simulatePaid', payload: { outTradeNo: o.outTradeNo } }));
    const q = await query(o.outTradeNo);
    expect(q.status).toBe('paid');
    expect(q.receiptId).toBeTruthy();
    const rc = ok(await t.call(a.token, { method: 'GET', url: `/yewu/api/BillPrinting/Detail?id=${q.receiptId}` }));
    expect(rc).toMatchObject({ kind: 'prepay', payMethod: 'alipay', payMethodText: '支付宝', amount: '45.50', amountChinese: '肆拾伍元伍角' });
    expect(rc.operatorName).toMatch(/^测试/);
    const { rows } = await t.owner.query(`SELECT operator_id, pay_method FROM journal WHERE id = $1`, [q.journalId]);
    expect(rows[0]).toEqual({ operator_id: a.userId, pay_method: 'alipay' });
    const c = await cancel('alipay', o.outTradeNo);
    expect(c.body.code).toBe('ALREADY_PAID');
    expect((await balances(t.owner, a.owners[1])).electric).toMatchObject({ balance: 4550, sum: 4550 });
  });
});

describe('local emulators (the real provider protocols)', () => {
  const keys = testKeys();
  let em: Emulator;
  let t: TestApp;
  let a: BillingCompany;
  let h: PaymentHarness | undefined;
  beforeAll(async () => {
    h = await paymentHarness(keys);
    ({ t, em } = h);
    a = await billingCompany(t, { rooms: 2 });
  });
  afterAll(() => h?.close());

  for (const channel of ['wechat', 'alipay'] as const) {
    it(`${channel}: cancel closes the order at the provider — the payer can no longer pay it`, async () => {
      const { order, cancel } = await setup(t, a);
      const o = await order(channel, a.rooms[0], '12');
      expect(ok(await cancel(channel, o.outTradeNo)).status).toBe('closed');
      await expect(em.pay(o.outTradeNo)).rejects.toThrow('订单已关闭');
      expect((await t.owner.query(`SELECT count(*)::int AS n FROM journal WHERE idempotency_key = $1`, [`pay:${o.outTradeNo}`])).rows[0].n).toBe(0);
    });
  }

  it('paid at the provider but the notification lost: cancel credits it (with its receipt) and refuses', async () => {
    const { order, cancel, query } = await setup(t, a);
    const o = await order('wechat', a.rooms[1], '8');
    await em.pay(o.outTradeNo, { notify: false });
    const c = await cancel('wechat', o.outTradeNo);
    expect(c.body.code).toBe('ALREADY_PAID');
    const q = await query(o.outTradeNo);
    expect(q.status).toBe('paid');
    expect(q.receiptId).toBeTruthy();
    expect((await balances(t.owner, a.owners[1])).electric).toMatchObject({ balance: 800, sum: 800 });
  });
});
