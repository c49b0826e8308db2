import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { billingCompany, type BillingCompany } from '../billing/fixtures.ts';
import { sparePem, testKeys } from '../../../test/keys.ts';
import { alipayNotification, type Emulator } from './emulator/server.ts';
import { emulatedGateways, emulatorInto, NOTIFY_URL } from './emulated.test-util.ts';
import { companyMerchants, emulatorMerchants, fingerprint, pemOf } from './merchant.ts';
import { decryptResource } from './providers/wechat.ts';
import { recoverPayments } from './recover.ts';
import { reconcileDay } from '../reconcile/service.ts';
import { businessDate } from '../../time.ts';
import type { Payments } from './service.ts';

// 支付商户 per company (issue 14 item 6): the company's own WeChat Pay / Alipay merchant is stored
// sealed (the row holds no clear key), never answered in clear, and used for the company's orders —
// the emulator sees that merchant's mchid / app_id and signs with its keys; the platform's merchant
// cannot credit such an order. Pay gears round-trip and are validated.

const keys = testKeys();
const sealKey = randomBytes(32);
let em: Emulator;
let t: TestApp;
let a: BillingCompany;
let admin: string;
let payments: Payments;

const own = {
  wxMchid: '1230000109', wxAppid: 'wx8888888888888888', wxSerialNo: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1', wxPrivateKey: sparePem(0),
  wxApiV3Key: randomBytes(24).toString('base64url').slice(0, 32), aliAppId: '2021009900000077', aliSellerId: '2088990000000077', aliPrivateKey: sparePem(1),
};
const pemBody = (p: string) => p.split('\n').filter((l) => l && !l.startsWith('-----')).join('');

const ok = (r: { status: number; body: any }) => {
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
};
const save = (token: string, body: Record<string, unknown>) => t.call(token, { method: 'PUT', url: '/pay/api/Merchant/detail', payload: { companyId: a.companyId, ...body } });
const full = () => ({
  ...own, wxEnabled: true, wxPlatformSerial: keys.wechat.platformSerial, wxPlatformKey: pemOf(keys.wechat.platformKey),
  aliEnabled: true, aliPublicKey: pemOf(keys.alipay.alipayKey),
});
const order = async (channel: 'wechat' | 'alipay', amount: string) =>
  ok(await t.call(a.token, { method: 'POST', url: channel === 'wechat' ? '/wxpay/api/wxpay/pay' : '/alipay/api/alipay/pay', payload: { roomId: a.rooms[0], wallet: 'electric', amount } }));
const credits = async (no: string) => Number((await t.owner.query(`SELECT count(*) AS n FROM journal WHERE idempotency_key = $1`, [`pay:${no}`])).rows[0].n);
const row = async (no: string) => (await t.owner.query(`SELECT status, merchant_company_id FROM payments WHERE out_trade_no = $1`, [no])).rows[0];

beforeAll(async () => {
  em = await emulatorInto(keys, () => t, (channel, id) => emulatorMerchants(t.db, sealKey, channel, id));
  payments = {
    ttlMs: 3600_000,
    gateways: emulatedGateways(keys, em),
    merchants: companyMerchants({
      key: sealKey, mode: 'emulator', wechatBase: em.url, alipayGateway: `${em.url}/gateway.do`, notifyUrl: NOTIFY_URL,
      emulator: { wxPlatformSerial: keys.wechat.platformSerial, wxPlatformKey: pemOf(keys.wechat.platformKey), aliPublicKey: pemOf(keys.alipay.alipayKey) },
    }),
  };
  t = await testApp(undefined, { payments });
  a = await billingCompany(t, { rooms: 2 });
  admin = await t.login('admin', 'admin123');
});
afterAll(async () => {
  await t?.close();
  await em?.close();
});

describe('company merchant configuration', () => {
  it('only a platform admin reads or writes it; an enabled channel must be complete', async () => {
    expect((await t.call(a.token, { method: 'GET', url: `/pay/api/Merchant/detail?companyId=${a.companyId}` })).status).toBe(403);
    expect((await save(a.token, full())).status).toBe(403);
    const empty = ok(await t.call(admin, { method: 'GET', url: `/pay/api/Merchant/detail?companyId=${a.companyId}` }));
    expect(empty).toMatchObject({ wxEnabled: false, wxPrivateKeySet: false, aliEnabled: false, mode: 'emulator' });
    expect(empty.emulator.wxPlatformSerial).toBe(keys.wechat.platformSerial);
    const r = await save(admin, { ...full(), wxApiV3Key: '' });
    expect(r.status).toBe(400);
    expect(r.body.message).toContain('APIv3 密钥');
    const bad = await save(admin, { ...full(), aliPrivateKey: '-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----' });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('应用私钥无法识别');
    expect((await save(admin, { ...full(), wxMchid: '12ab' })).status).toBe(400);
  });

  it('secrets are sealed at rest and never answered; blank keeps them, a new merchant number needs them again', async () => {
    const saved = ok(await save(admin, full()));
    expect(saved).toMatchObject({ wxEnabled: true, wxMchid: own.wxMchid, wxPrivateKeySet: true, wxApiV3KeySet: true, aliPrivateKeySet: true, aliAppId: own.aliAppId });
    expect(saved.wxPrivateKeyFingerprint).toBe(fingerprint(own.wxPrivateKey));
    const answers = [JSON.stringify(saved), JSON.stringify(ok(await t.call(admin, { method: 'GET', url: `/pay/api/Merchant/detail?companyId=${a.companyId}` })))];
    const stored = String((await t.owner.query(`SELECT row_to_json(m)::text AS j FROM company_merchants m WHERE company_id = $1`, [a.companyId])).rows[0].j);
    for (const text of [...answers, stored]) {
      expect(text).not.toContain(own.wxApiV3Key);
      expect(text).not.toContain(pemBody(own.wxPrivateKey).slice(0, 64));
      expect(text).not.toContain(pemBody(own.aliPrivateKey).slice(0, 64));
      expect(text).not.toContain('PRIVATE KEY');
    }
    expect(stored).toMatch(/"wx_apiv3_key_enc":"v1:/);
    // the audit log holds no secret either
    const audit = (await t.owner.query(`SELECT coalesce(string_agg(row_to_json(l)::text, ''), '') AS j FROM audit_log l WHERE target LIKE '%支付商户%'`)).rows[0].j as string;
    expect(audit).toContain(own.wxMchid);
    expect(audit).not.toContain(own.wxApiV3Key);
    // blank secrets keep the stored ones
    const kept = ok(await save(admin, { ...full(), wxPrivateKey: '', wxApiV3Key: '', aliPrivateKey: '' }));
    expect(kept).toMatchObject({ wxPrivateKeySet: true, wxApiV3KeySet: true, aliPrivateKeySet: true });
    // another mchid with the old keys: refused (the keys belong to the old merchant)
    const other = await save(admin, { ...full(), wxMchid: '1230000999', wxPrivateKey: '', wxApiV3Key: '' });
    expect(other.status).toBe(400);
    expect(other.body.message).toContain('商户 API 私钥');
  });

  it('a WeChat order goes to the company’s merchant: the emulator sees its mchid, its notification credits once', async () => {
    const o = await order('wechat', '18.00');
    expect(await row(o.outTradeNo)).toMatchObject({ merchant_company_id: a.companyId });
    const d = (await em.pay(o.outTradeNo))!;
    expect(d.url).toContain(`?merchant=${a.companyId}`);
    expect(d.status).toBe(204);
    const tx = JSON.parse(decryptResource(own.wxApiV3Key, JSON.parse(d.raw).resource));
    expect(tx).toMatchObject({ mchid: own.wxMchid, appid: own.wxAppid, out_trade_no: o.outTradeNo, trade_state: 'SUCCESS' });
    expect(await credits(o.outTradeNo)).toBe(1);
    // replayed on the platform's path (no ?merchant): the platform's keys cannot open it → refused, nothing more credited
    const replay = await t.app.inject({ method: 'POST', url: '/wxpay/api/wxpay/notify', headers: d.headers, payload: d.raw });
    expect(replay.statusCode).toBeGreaterThanOrEqual(400);
    expect(await credits(o.outTradeNo)).toBe(1);
  });

  it('an Alipay order goes to the company’s app; a notification signed for the platform’s app cannot credit it', async () => {
    const o = await order('alipay', '9.50');
    const forged = alipayNotification(keys.alipay, {
      app_id: keys.alipay.appId, seller_id: keys.alipay.sellerId, out_trade_no: o.outTradeNo, trade_no: '2026000000001', trade_status: 'TRADE_SUCCESS', total_amount: '9.50',
    });
    const r = await t.app.inject({ method: 'POST', url: '/alipay/api/alipay/notify', headers: forged.headers, payload: forged.raw });
    expect(r.body).toBe('fail');
    expect(await credits(o.outTradeNo)).toBe(0);
    const d = (await em.pay(o.outTradeNo))!;
    const p = Object.fromEntries(new URLSearchParams(d.raw));
    expect(p).toMatchObject({ app_id: own.aliAppId, seller_id: own.aliSellerId });
    expect(d.answer).toBe('success');
    expect(await credits(o.outTradeNo)).toBe(1);
  });

  it('cancel and the query job use the order’s merchant', async () => {
    const c = await order('wechat', '5.00');
    const cancelled = ok(await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/close', payload: { outTradeNo: c.outTradeNo } }));
    expect(cancelled.status).toBe('closed');
    await expect(em.pay(c.outTradeNo)).rejects.toThrow('订单已关闭');
    // Alipay at the counter: 撤销 (alipay.trade.cancel) through the company's app
    const ali = await order('alipay', '6.00');
    const before = em.alipayCalls.length;
    expect(ok(await t.call(a.token, { method: 'POST', url: '/alipay/api/alipay/close', payload: { outTradeNo: ali.outTradeNo } })).status).toBe('closed');
    expect(em.alipayCalls.slice(before)).toEqual(['alipay.trade.query', 'alipay.trade.cancel']);
    await expect(em.pay(ali.outTradeNo)).rejects.toThrow('订单已关闭');
    const lost = await order('alipay', '7.00');
    await em.pay(lost.outTradeNo, { notify: false });
    const r = await recoverPayments(t.db, payments, { minAgeMs: 0 });
    expect(r.failed).toBe(0);
    expect(await credits(lost.outTradeNo)).toBe(1);
  });

  it('reconciliation: the company’s own merchant statement is reconciled on its own; the platform’s run keeps its rows', async () => {
    const paid = await order('wechat', '12.00');
    await em.pay(paid.outTradeNo);
    const gone = await order('wechat', '4.00');
    await em.pay(gone.outTradeNo);
    em.revoke(gone.outTradeNo); // the provider has no success for it any more
    const day = businessDate(new Date());
    ok(await t.call(a.token, { method: 'POST', url: '/yewu/api/Reconcile/Run', payload: { day, channel: 'wechat' } }));
    const rows = async (merchant: number) =>
      (await t.owner.query(`SELECT out_trade_no, outcome, company_id::int AS company_id FROM reconcile_rows WHERE day = $1 AND channel = 'wechat' AND merchant_company_id = $2`, [day, merchant])).rows;
    const mine = await rows(a.companyId);
    expect(mine.find((r) => r.out_trade_no === paid.outTradeNo)).toMatchObject({ outcome: 'matched', company_id: a.companyId });
    expect(mine.find((r) => r.out_trade_no === gone.outTradeNo)).toMatchObject({ outcome: 'missing_there', company_id: a.companyId });
    expect(mine.every((r) => r.company_id === a.companyId)).toBe(true);
    // the platform merchant's statement holds none of the company's trades, and its run removes none of the company's rows
    await reconcileDay(t.db, payments, 'wechat', day, '测试');
    expect((await rows(0)).some((r) => r.out_trade_no === paid.outTradeNo)).toBe(false);
    expect(await rows(a.companyId)).toHaveLength(mine.length);
    const list = ok(await t.call(a.token, { method: 'GET', url: `/yewu/api/Reconcile/Rows?day=${day}&channel=wechat&index=1&size=100` }));
    expect(list.find((r: { outTradeNo: string }) => r.outTradeNo === paid.outTradeNo)).toMatchObject({ outcome: 'matched' });
  });

  it('disabled: the platform’s merchant takes the company’s orders again', async () => {
    ok(await save(admin, { ...full(), wxPrivateKey: '', wxApiV3Key: '', aliPrivateKey: '', wxEnabled: false }));
    const o = await order('wechat', '3.00');
    expect((await row(o.outTradeNo)).merchant_company_id).toBeNull();
    const d = (await em.pay(o.outTradeNo))!;
    expect(d.url).not.toContain('merchant=');
    expect(JSON.parse(decryptResource(keys.wechat.apiV3Key, JSON.parse(d.raw).resource)).mchid).toBe(keys.wechat.mchid);
    expect(await credits(o.outTradeNo)).toBe(1);
  });
});

describe('pay gears (Company/GetPayGear, SavePayGear)', () => {
  it('round-trip sorted in 分 and 元; validation; staff read their own and may not write', async () => {
    const saved = ok(await t.call(admin, { method: 'POST', url: '/yewu/api/Company/SavePayGear', payload: { companyId: a.companyId, gears: ['200', 50, '100.5'] } }));
    expect(saved).toEqual({ companyId: a.companyId, gearsFen: [5000, 10050, 20000], gears: ['50.00', '100.50', '200.00'] });
    expect(ok(await t.call(a.token, { method: 'GET', url: '/yewu/api/Company/GetPayGear' })).gearsFen).toEqual([5000, 10050, 20000]);
    expect(ok(await t.call(admin, { method: 'GET', url: `/yewu/api/Company/GetPayGear?companyId=${a.companyId}` })).gears).toEqual(['50.00', '100.50', '200.00']);
    const dup = await t.call(admin, { method: 'POST', url: '/yewu/api/Company/SavePayGear', payload: { companyId: a.companyId, gears: [50, '50.00'] } });
    expect(dup.status).toBe(400);
    expect(dup.body.message).toContain('不能重复');
    expect((await t.call(admin, { method: 'POST', url: '/yewu/api/Company/SavePayGear', payload: { companyId: a.companyId, gears: [0] } })).status).toBe(400);
    expect((await t.call(admin, { method: 'POST', url: '/yewu/api/Company/SavePayGear', payload: { companyId: a.companyId, gears: Array.from({ length: 13 }, (_, i) => i + 1) } })).status).toBe(400);
    expect((await t.call(a.token, { method: 'POST', url: '/yewu/api/Company/SavePayGear', payload: { gears: [10] } })).status).toBe(403);
    ok(await t.call(admin, { method: 'POST', url: '/yewu/api/Company/SavePayGear', payload: { companyId: a.companyId, gears: [] } }));
    expect(ok(await t.call(a.token, { method: 'GET', url: '/yewu/api/Company/GetPayGear' })).gears).toEqual([]);
  });
});
