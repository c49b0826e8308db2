import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { balances, billingCompany, makeMeter } from '../billing/fixtures.ts';
import { spareKey, testKeys } from '../../../test/keys.ts';
import { filePaymentHarness, placeOrder } from './emulated.test-util.ts';
import { alipayNotification, wechatHeaders, wechatNotification } from './emulator/server.ts';
import { recoverPayments } from './recover.ts';
import { startBillingJobs } from '../../jobs/billing.ts';

// WeChat Pay API v3 and Alipay through the real verification code, against the local emulators (their
// own keys): the payer page pays and the signed notification credits once (16 serial + 10 parallel
// replays), every forged/tampered/expired/wrong-merchant notification changes nothing, and the query
// job recovers a lost notification and closes expired orders.

const keys = testKeys();
const { t, em, payments } = await filePaymentHarness(keys);
const a = await billingCompany(t, { rooms: 5 });

const order = (channel: 'wechat' | 'alipay', room: number, amount: string) => placeOrder(t, a.token, channel, room, amount);
const send = (channel: 'wechat' | 'alipay', n: { headers: Record<string, string>; raw: string }) =>
  t.app.inject({ method: 'POST', url: channel === 'wechat' ? '/wxpay/api/wxpay/notify' : '/alipay/api/alipay/notify', headers: n.headers, payload: n.raw });
const credits = async (outTradeNo: string) =>
  Number((await t.owner.query(`SELECT count(*) AS n FROM journal WHERE idempotency_key = $1`, [`pay:${outTradeNo}`])).rows[0].n);
const status = async (outTradeNo: string) => (await t.owner.query(`SELECT status FROM payments WHERE out_trade_no = $1`, [outTradeNo])).rows[0].status;
/** a private key that is not the provider's */
const otherKey = () => spareKey(0);


describe('WeChat Pay API v3 (emulator)', () => {
  it('Native order → payer page → signed notify credits once; 16 serial and 10 parallel replays change nothing', async () => {
    const o = await order('wechat', a.rooms[0], '25.00');
    expect(o).toMatchObject({ simulated: false, emulated: true, status: 'created' });
    expect(o.codeUrl.startsWith(`${em.url}/scan/wechat/`)).toBe(true);
    const page = await (await fetch(o.codeUrl)).text();
    expect(page).toContain('确认支付');
    expect(page).toContain('¥25.00');
    expect(page).not.toMatch(/<script/i);
    const action = /action="([^"]+)"/.exec(page)![1];
    const paid = await (await fetch(em.url + action, { method: 'POST' })).text();
    expect(paid).toContain('商户已确认到账');
    const d = em.delivered.at(-1)!;
    expect(d.status).toBe(204);
    expect(await status(o.outTradeNo)).toBe('paid');
    for (let i = 0; i < 16; i++) expect((await send('wechat', d)).statusCode).toBe(204);
    const par = await Promise.all([...Array(10)].map(() => send('wechat', d)));
    expect(par.map((r) => r.statusCode)).toEqual(Array(10).fill(204));
    expect(await credits(o.outTradeNo)).toBe(1);
    expect((await balances(t.owner, a.owners[0])).electric).toMatchObject({ balance: 2500, sum: 2500 });
  });

  it('an owed room whose valve the arrears closed reopens once the owner pays its QR through the emulator', async () => {
    const [room, owner] = [a.rooms[4], a.owners[4]];
    const meter = await makeMeter(t.owner, { companyId: a.companyId, roomId: room, schemeId: a.schemes.flat, alarmSchemeId: a.alarm });
    // in arrears and closed for it (as settlement and the close command left it); the account is made by its first posting
    const cash = await t.call(a.token, { method: 'POST', url: '/yewu/api/Energy/Prepay', payload: { roomId: room, wallet: 'electric', amount: '1.00', payMethod: 'cash' } });
    expect(cash.body.code).toBe('SUCCESS');
    await t.owner.query(`UPDATE accounts SET balance_fen = -500, alarm_level = 3 WHERE owner_id = $1 AND wallet = 'electric'`, [owner]);
    await t.owner.query(`UPDATE meters SET valve_state = 0 WHERE id = $1`, [meter]);
    const o = await order('wechat', room, '50.00');
    const page = await (await fetch(o.codeUrl)).text();
    const action = /action="([^"]+)"/.exec(page)![1];
    expect(await (await fetch(em.url + action, { method: 'POST' })).text()).toContain('商户已确认到账');
    expect(await credits(o.outTradeNo)).toBe(1);
    const cmds = (await t.owner.query(`SELECT kind, origin FROM commands WHERE meter_id = $1`, [meter])).rows;
    expect(cmds).toEqual([{ kind: 'open', origin: 2 }]);
    expect(Number((await t.owner.query(`SELECT alarm_level FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [owner])).rows[0].alarm_level)).toBe(0);
  });

  it('the rejection corpus changes nothing; the genuine notify then credits', async () => {
    const o = await order('wechat', a.rooms[1], '10.00');
    await em.pay(o.outTradeNo, { notify: false });
    const q = await payments.gateways.wechat!.query(o.outTradeNo);
    expect(q.state).toBe('paid');
    const tx = { appid: keys.wechat.appid, mchid: keys.wechat.mchid, out_trade_no: o.outTradeNo, transaction_id: q.paid!.tradeNo, trade_state: 'SUCCESS', amount: { total: 1000, currency: 'CNY' } };
    const now = Math.floor(Date.now() / 1000);
    const genuine = wechatNotification(keys.wechat, tx);
    const reencrypted = (ciphertext: string) => {
      const body = JSON.parse(genuine.raw);
      body.resource.ciphertext = ciphertext;
      const raw = JSON.stringify(body);
      return { headers: wechatHeaders(keys.wechat, raw), raw };
    };
    const ct = Buffer.from(JSON.parse(genuine.raw).resource.ciphertext, 'base64');
    ct[ct.length - 1] ^= 1; // the GCM tag
    const corpus: [string, { headers: Record<string, string>; raw: string }][] = [
      ['forged signature', wechatNotification({ ...keys.wechat, platformKey: otherKey() }, tx)],
      ['tampered body', { headers: genuine.headers, raw: genuine.raw.replace('支付成功', '支付成功 ') }],
      ['tampered GCM tag (headers re-signed)', reencrypted(ct.toString('base64'))],
      ['wrong APIv3 key', wechatNotification({ ...keys.wechat, apiV3Key: randomBytes(16).toString('hex') }, tx)],
      ['expired timestamp', wechatNotification(keys.wechat, tx, { timestamp: now - 360 })],
      ['future timestamp', wechatNotification(keys.wechat, tx, { timestamp: now + 360 })],
      ['wrong serial', wechatNotification(keys.wechat, tx, { serial: 'PUB_KEY_ID_0114232134912410000000000000' })],
      ['SIGNTEST probe', { headers: { ...genuine.headers, 'wechatpay-signature': `WECHATPAY/SIGNTEST/${genuine.headers['wechatpay-signature']}` }, raw: genuine.raw }],
      ['no signature headers', { headers: { 'content-type': 'application/json' }, raw: genuine.raw }],
      ['wrong mchid', wechatNotification(keys.wechat, { ...tx, mchid: '1900000109' })],
      ['wrong appid', wechatNotification(keys.wechat, { ...tx, appid: 'wx0000000000000000' })],
      ['wrong amount', wechatNotification(keys.wechat, { ...tx, amount: { total: 1001, currency: 'CNY' } })],
      ['another channel\'s order', wechatNotification(keys.wechat, { ...tx, out_trade_no: 'ALI2026112500000000000001' })],
    ];
    for (const [name, n] of corpus) {
      const r = await send('wechat', n);
      expect(r.statusCode, name).toBeGreaterThanOrEqual(400);
      expect(r.json(), name).toEqual({ code: expect.any(String), message: expect.any(String) });
    }
    expect(await status(o.outTradeNo)).toBe('created');
    expect(await credits(o.outTradeNo)).toBe(0);
    expect((await balances(t.owner, a.owners[1])).electric?.balance ?? 0).toBe(0);
    expect((await send('wechat', genuine)).statusCode).toBe(204);
    expect((await balances(t.owner, a.owners[1])).electric).toMatchObject({ balance: 1000, sum: 1000 });
  });

  it('simulatePaid is refused while a real protocol provider is configured', async () => {
    const o = await order('wechat', a.rooms[0], '1.00');
    const r = await t.call(a.token, { method: 'POST', url: '/wxpay/api/wxpay/simulatePaid', payload: { outTradeNo: o.outTradeNo } });
    expect(r.body.code).toBe('NOT_SIMULATED');
    expect(await status(o.outTradeNo)).toBe('created');
  });
});

describe('Alipay (emulator)', () => {
  it('precreate → payer page → notify answered success once credited; 16 serial and 10 parallel replays credit once', async () => {
    const o = await order('alipay', a.rooms[2], '12.50');
    expect(o.codeUrl.startsWith(`${em.url}/scan/alipay/`)).toBe(true);
    const page = await (await fetch(o.codeUrl)).text();
    const action = /action="([^"]+)"/.exec(page)![1];
    expect(await (await fetch(em.url + action, { method: 'POST' })).text()).toContain('商户已确认到账');
    const d = em.delivered.at(-1)!;
    expect(d.answer).toBe('success');
    for (let i = 0; i < 16; i++) expect((await send('alipay', d)).body).toBe('success');
    const par = await Promise.all([...Array(10)].map(() => send('alipay', d)));
    expect(par.map((r) => r.body)).toEqual(Array(10).fill('success'));
    expect(await credits(o.outTradeNo)).toBe(1);
    expect((await balances(t.owner, a.owners[2])).electric).toMatchObject({ balance: 1250, sum: 1250 });
  });

  it('the rejection corpus answers fail and changes nothing; the genuine notify then credits', async () => {
    const o = await order('alipay', a.rooms[3], '8.80');
    await em.pay(o.outTradeNo, { notify: false });
    const p = { app_id: keys.alipay.appId, seller_id: keys.alipay.sellerId, out_trade_no: o.outTradeNo, trade_no: '2026112522001400000000000001', trade_status: 'TRADE_SUCCESS', total_amount: '8.80' };
    const genuine = alipayNotification(keys.alipay, p);
    const corpus: [string, { headers: Record<string, string>; raw: string }][] = [
      ['forged signature', alipayNotification({ ...keys.alipay, alipayKey: otherKey() }, p)],
      ['tampered total_amount', { headers: genuine.headers, raw: genuine.raw.replace('total_amount=8.80', 'total_amount=88.00') }],
      ['tampered out_trade_no', { headers: genuine.headers, raw: genuine.raw.replace(`out_trade_no=${o.outTradeNo}`, 'out_trade_no=ALI2026112500000000000009') }],
      ['sign removed', { headers: genuine.headers, raw: genuine.raw.replace(/&?sign=[^&]*/, '') }],
      ['sign_type RSA', { headers: genuine.headers, raw: genuine.raw.replace('sign_type=RSA2', 'sign_type=RSA') }],
      ['wrong seller_id', alipayNotification(keys.alipay, { ...p, seller_id: '2088000000000999' })],
      ['wrong app_id', alipayNotification(keys.alipay, { ...p, app_id: '2021000000000999' })],
      ['wrong amount (signed)', alipayNotification(keys.alipay, { ...p, total_amount: '0.01' })],
    ];
    for (const [name, n] of corpus) expect((await send('alipay', n)).body, name).toBe('fail');
    expect(await status(o.outTradeNo)).toBe('created');
    expect(await credits(o.outTradeNo)).toBe(0);
    expect((await send('alipay', genuine)).body).toBe('success');
    expect((await balances(t.owner, a.owners[3])).electric).toMatchObject({ balance: 880, sum: 880 });
  });
});

describe('lost notifications and expiry (the query job)', () => {
  it('a paid order whose notify was lost is credited once by the job; an expired unpaid order is closed at the provider and here', async () => {
    const wx = await order('wechat', a.rooms[0], '3.00');
    const ali = await order('alipay', a.rooms[0], '4.00');
    const stale = await order('wechat', a.rooms[0], '5.00');
    const staleAli = await order('alipay', a.rooms[0], '6.00');
    await em.pay(wx.outTradeNo, { notify: false });
    await em.pay(ali.outTradeNo, { notify: false });
    await t.owner.query(`UPDATE payments SET expires_at = now() - interval '1 second' WHERE out_trade_no = ANY($1)`, [[stale.outTradeNo, staleAli.outTradeNo]]);
    const before = (await balances(t.owner, a.owners[0])).electric.balance;
    const r = await recoverPayments(t.db, payments, { minAgeMs: 0 });
    expect(r).toMatchObject({ credited: 2, failed: 0 });
    expect(r.closed).toBeGreaterThanOrEqual(2);
    expect(await status(wx.outTradeNo)).toBe('paid');
    expect(await status(ali.outTradeNo)).toBe('paid');
    expect(await status(stale.outTradeNo)).toBe('closed');
    expect(await status(staleAli.outTradeNo)).toBe('closed');
    expect((await payments.gateways.wechat!.query(stale.outTradeNo)).state).toBe('closed');
    expect((await balances(t.owner, a.owners[0])).electric).toMatchObject({ balance: before + 700, sum: before + 700 });
    // the provider's late notify after the job credited: acknowledged, not credited again
    const late = wechatNotification(keys.wechat, { appid: keys.wechat.appid, mchid: keys.wechat.mchid, out_trade_no: wx.outTradeNo, transaction_id: '42001', trade_state: 'SUCCESS', amount: { total: 300 } });
    expect((await send('wechat', late)).statusCode).toBe(204);
    expect(await credits(wx.outTradeNo)).toBe(1);
    expect((await recoverPayments(t.db, payments, { minAgeMs: 0 })).credited).toBe(0);
    // the closed order's payer page refuses to pay
    const page = await fetch(stale.codeUrl);
    expect(await page.text()).toContain('已关闭');
  });

  it('the worker\'s billing job scheduler runs the query job: a lost notify is credited without anyone asking', async () => {
    const o = await order('alipay', a.rooms[1], '2.00');
    await em.pay(o.outTradeNo, { notify: false });
    // older than the job's one-minute grace for the notification
    await t.owner.query(`UPDATE payments SET created_at = now() - interval '2 minutes' WHERE out_trade_no = $1`, [o.outTradeNo]);
    const log = { info: () => {}, error: () => {} };
    const stop = startBillingJobs({ db: t.db, log, payments, paymentsEveryMs: 200, settleEveryMs: 3_600_000, periodicEveryMs: 3_600_000, notifyEveryMs: 3_600_000 });
    try {
      await expect.poll(() => status(o.outTradeNo), { timeout: 15_000, interval: 200 }).toBe('paid');
    } finally {
      await stop();
    }
    expect(await credits(o.outTradeNo)).toBe(1);
  });
});
