import { createCipheriv, createHash, createVerify, generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshKeys, publicOf } from '../emulator/keys.ts';
import { startEmulator, wechatHeaders, type Emulator } from '../emulator/server.ts';
import { alipay, rawMember, signContent } from './alipay.ts';
import { NotifyRefused, RefundRefused } from './gateway.ts';
import { businessDate } from '../../../time.ts';
import { authorization, decryptResource, parseAuthorization, requestMessage, verifyMessage, verifyPlatform, wechatPay, type WechatConfig } from './wechat.ts';

// The provider clients against the emulator: requests signed with the merchant key (the emulator
// refuses another key), answers verified with the platform key (a client holding another key refuses
// the answer), and the protocol's building blocks.

const keys = freshKeys();
let em: Emulator;
const other = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
const wxConfig = (): WechatConfig => ({
  mchid: keys.wechat.mchid, appid: keys.wechat.appid, serialNo: keys.wechat.serialNo, privateKey: keys.wechat.merchantKey,
  platformSerial: keys.wechat.platformSerial, platformKey: publicOf(keys.wechat.platformKey), apiV3Key: keys.wechat.apiV3Key,
  baseUrl: em.url, notifyUrl: 'http://127.0.0.1/n',
});
const aliConfig = () => ({
  appId: keys.alipay.appId, sellerId: keys.alipay.sellerId, privateKey: keys.alipay.appKey, alipayPublicKey: publicOf(keys.alipay.alipayKey),
  gateway: `${em.url}/gateway.do`, notifyUrl: 'http://127.0.0.1/n',
});
const no = () => `T${Date.now()}${Math.floor(Math.random() * 1e6)}`;

beforeAll(async () => {
  em = await startEmulator({ keys, deliver: async () => ({ status: 204, body: '' }) });
});
afterAll(() => em.close());

describe('WeChat Pay v3 client', { timeout: 30_000 }, () => {
  it('Native order, query, close, refund', async () => {
    const wx = wechatPay(wxConfig());
    const a = no();
    expect(await wx.create({ outTradeNo: a, subject: '电费充值', amountFen: 1234, expiresAt: new Date(Date.now() + 600_000) })).toMatch(/\/scan\/wechat\//);
    expect((await wx.query(a)).state).toBe('open');
    await em.pay(a, { notify: false });
    expect(await wx.query(a)).toMatchObject({ state: 'paid', paid: { outTradeNo: a, amountFen: 1234, merchantOk: true } });
    // accepted (PROCESSING), the same out_refund_no answers the same refund; the query then tells SUCCESS
    const first = await wx.refund({ outTradeNo: a, outRefundNo: `R${a}`, refundFen: 234, totalFen: 1234, reason: '退款' });
    expect(first).toMatchObject({ status: 'PROCESSING' });
    // (it may have ended meanwhile: the emulator ends it 20 ms after accepting it)
    expect((await wx.refund({ outTradeNo: a, outRefundNo: `R${a}`, refundFen: 234, totalFen: 1234, reason: '退款' })).refundId).toBe(first.refundId);
    await em.idle();
    expect(await wx.refundQuery({ outTradeNo: a, outRefundNo: `R${a}` })).toEqual({ refundId: first.refundId, status: 'SUCCESS' });
    expect(await wx.refundQuery({ outTradeNo: a, outRefundNo: `R9${a}` })).toBeNull();
    await expect(wx.refund({ outTradeNo: a, outRefundNo: `R2${a}`, refundFen: 1001, totalFen: 1234, reason: '超额' })).rejects.toThrow(RefundRefused);
    const b = no();
    await wx.create({ outTradeNo: b, subject: 'x', amountFen: 1, expiresAt: new Date(Date.now() + 600_000) });
    await wx.close(b);
    expect((await wx.query(b)).state).toBe('closed');
    expect((await wx.query('NOPE1')).state).toBe('missing');
  });

  it('a request signed with another merchant key is refused by the platform; an answer signed by another platform key is refused by us', async () => {
    await expect(wechatPay({ ...wxConfig(), privateKey: other() }).query('X1')).rejects.toThrow(/微信支付/);
    await expect(wechatPay({ ...wxConfig(), platformKey: publicOf(other()) }).query('X1')).rejects.toThrow(/应答验签失败/);
    await expect(wechatPay({ ...wxConfig(), platformSerial: 'PUB_KEY_ID_X' }).query('X1')).rejects.toThrow(/序列号不符/);
  });

  it('Authorization header of the scheme', () => {
    const h = authorization({ mchid: '1900009191', serialNo: 'ABC', privateKey: keys.wechat.merchantKey }, 'GET', '/v3/certificates', '', 1554208460, '593BEC0C930BF1AFEB40B4A08C8FB242');
    expect(h.startsWith('WECHATPAY2-SHA256-RSA2048 mchid="1900009191",nonce_str="593BEC0C930BF1AFEB40B4A08C8FB242",signature="')).toBe(true);
    expect(parseAuthorization(h)).toMatchObject({ mchid: '1900009191', timestamp: '1554208460', serial_no: 'ABC' });
  });

  it('AEAD_AES_256_GCM: decrypts, and refuses a changed tag, ciphertext or associated data', () => {
    const key = '0123456789abcdef0123456789abcdef';
    const c = createCipheriv('aes-256-gcm', Buffer.from(key), Buffer.from('nonce1234567'));
    c.setAAD(Buffer.from('transaction'));
    const ct = Buffer.concat([c.update('{"a":1}'), c.final(), c.getAuthTag()]);
    const r = { algorithm: 'AEAD_AES_256_GCM', ciphertext: ct.toString('base64'), nonce: 'nonce1234567', associated_data: 'transaction' };
    expect(decryptResource(key, r)).toBe('{"a":1}');
    expect(() => decryptResource(key, { ...r, associated_data: 'certificate' })).toThrow(NotifyRefused);
    for (const at of [0, ct.length - 1]) {
      const bad = Buffer.from(ct);
      bad[at] ^= 1;
      expect(() => decryptResource(key, { ...r, ciphertext: bad.toString('base64') })).toThrow(NotifyRefused);
    }
  });
});

describe('Alipay client', { timeout: 30_000 }, () => {
  it('precreate, query (unknown until scanned), close, refund', async () => {
    const ali = alipay(aliConfig());
    const a = no();
    expect(await ali.create({ outTradeNo: a, subject: '水费充值', amountFen: 880, expiresAt: new Date(Date.now() + 600_000) })).toMatch(/\/scan\/alipay\//);
    expect((await ali.query(a)).state).toBe('missing');
    await em.pay(a, { notify: false });
    expect(await ali.query(a)).toMatchObject({ state: 'paid', paid: { amountFen: 880 } });
    expect(await ali.refund({ outTradeNo: a, outRefundNo: 'r1', refundFen: 80, totalFen: 880, reason: '退款' })).toMatchObject({ status: 'SUCCESS' });
    const b = no();
    await ali.create({ outTradeNo: b, subject: 'x', amountFen: 100, expiresAt: new Date(Date.now() + 600_000) });
    await ali.close(b);
    await expect(alipay({ ...aliConfig(), alipayPublicKey: publicOf(other()) }).query(a)).rejects.toThrow(/应答验签失败/);
    await expect(alipay({ ...aliConfig(), privateKey: other() }).create({ outTradeNo: no(), subject: 'x', amountFen: 1, expiresAt: new Date() })).rejects.toThrow(/验签出错/);
  });

  it('sign content: sorted, without sign (and sign_type for notifications) and empty values', () => {
    const p = { b: '2', a: '1', sign: 's', sign_type: 'RSA2', c: '' };
    expect(signContent(p)).toBe('a=1&b=2&sign_type=RSA2');
    expect(signContent(p, true)).toBe('a=1&b=2');
  });

  it('the raw response member, braces and quotes inside strings included', () => {
    const text = '{"alipay_trade_query_response":{"code":"10000","msg":"a}\\"{b","x":{"y":1}},"sign":"abc"}';
    expect(rawMember(text, 'alipay_trade_query_response')).toBe('{"code":"10000","msg":"a}\\"{b","x":{"y":1}}');
    expect(rawMember(text, 'nope')).toBeNull();
  });
});

describe('daily statements from the emulator', { timeout: 30_000 }, () => {
  const today = () => businessDate(new Date());
  it('WeChat Pay tradebill: the paid orders of the day (SHA1 checked), altered amounts and unknown trades included; no trades → empty', async () => {
    const wx = wechatPay(wxConfig());
    const a = no();
    await wx.create({ outTradeNo: a, subject: '电费充值', amountFen: 500, expiresAt: new Date(Date.now() + 600_000) });
    await em.pay(a, { notify: false });
    const b = no();
    await wx.create({ outTradeNo: b, subject: '未支付', amountFen: 700, expiresAt: new Date(Date.now() + 600_000) });
    const c = no();
    const tradeNo = em.addTrade('wechat', { outTradeNo: c, amountFen: 999 });
    em.setAmount(a, 501);
    const rows = await wx.statement(today());
    expect(rows.find((r) => r.outTradeNo === a)).toMatchObject({ amountFen: 501 });
    expect(rows.find((r) => r.outTradeNo === c)).toMatchObject({ tradeNo, amountFen: 999 });
    expect(rows.some((r) => r.outTradeNo === b)).toBe(false);
    expect(await wx.statement('2001-01-01')).toEqual([]);
    await expect(wechatPay({ ...wxConfig(), platformKey: publicOf(other()) }).statement(today())).rejects.toThrow(/应答验签失败/);
  });

  it('a WeChat bill file that does not match the signed hash_value is refused', async () => {
    // a stand-in for the platform: a correctly signed tradebill answer whose file was changed on the way
    const file = '交易时间,商户订单号\r\n';
    const srv = http.createServer((req, res) => {
      if (req.url?.startsWith('/v3/bill/tradebill')) {
        const body = JSON.stringify({ hash_type: 'SHA1', hash_value: createHash('sha1').update(`${file}x`).digest('hex'), download_url: `http://${req.headers.host}/v3/billdownload/file?token=t` });
        res.writeHead(200, wechatHeaders(keys.wechat, body)).end(body);
      } else res.writeHead(200).end(file);
    });
    await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
    try {
      const port = (srv.address() as { port: number }).port;
      await expect(wechatPay({ ...wxConfig(), baseUrl: `http://127.0.0.1:${port}` }).statement(today())).rejects.toThrow(/SHA1 校验失败/);
    } finally {
      srv.close();
    }
  });

  it('the HTTP test controls: a trade the merchant never heard of, an altered amount, a revoked trade', async () => {
    const post = async (path: string, body: unknown) => (await fetch(em.url + path, { method: 'POST', body: JSON.stringify(body) })).json();
    const wx = wechatPay(wxConfig());
    const a = no();
    const b = no();
    expect(await post('/control/trade', { channel: 'wechat', outTradeNo: a, amountFen: 321 })).toMatchObject({ ok: true });
    expect(await post('/control/trade', { channel: 'wechat', outTradeNo: a, amountFen: 321 })).toMatchObject({ ok: false, message: expect.stringContaining('已存在') });
    await post('/control/trade', { channel: 'wechat', outTradeNo: b, amountFen: 100 });
    expect(await post('/control/amount', { outTradeNo: a, amountFen: 322 })).toMatchObject({ ok: true });
    expect(await post('/control/revoke', { outTradeNo: b })).toMatchObject({ ok: true });
    expect(await post('/control/revoke', { outTradeNo: 'NOPE' })).toMatchObject({ ok: false });
    const rows = await wx.statement(today());
    expect(rows.find((r) => r.outTradeNo === a)?.amountFen).toBe(322);
    expect(rows.some((r) => r.outTradeNo === b)).toBe(false);
  });

  it('Alipay bill.downloadurl.query → zip of GBK CSVs', async () => {
    const ali = alipay(aliConfig());
    const a = no();
    await ali.create({ outTradeNo: a, subject: '水费充值', amountFen: 880, expiresAt: new Date(Date.now() + 600_000) });
    await em.pay(a, { notify: false });
    const rows = await ali.statement(today());
    expect(rows.find((r) => r.outTradeNo === a)).toMatchObject({ amountFen: 880 });
    expect(await ali.statement('2001-01-01')).toEqual([]);
    await expect(ali.statement('2999-01-01')).resolves.toEqual([]);
  });
});

// The providers' published examples. Neither WeChat Pay nor Alipay publishes a key pair together with a
// signature made by it (WeChat's examples are signed with its real platform keys, whose public halves are
// not in the documentation: "本文档中的示例不可直接使用"), so a published signature cannot be verified here;
// what the documentation does fix exactly is the string that is signed, and that is checked against it.
describe('the providers\' published examples', () => {
  it('WeChat Pay v3 签名生成: the documented request (GET /v3/certificates, 1554208460, 593BEC0C…) is signed over its documented 签名串', () => {
    // https://pay.weixin.qq.com/docs/merchant/development/interface-rules/signature-generation.html
    const documented = 'GET\n/v3/certificates\n1554208460\n593BEC0C930BF1AFEB40B4A08C8FB242\n\n';
    expect(requestMessage('GET', '/v3/certificates', 1554208460, '593BEC0C930BF1AFEB40B4A08C8FB242', '')).toBe(documented);
    const h = parseAuthorization(authorization(wxConfig(), 'GET', '/v3/certificates', '', 1554208460, '593BEC0C930BF1AFEB40B4A08C8FB242'))!;
    expect(h).toMatchObject({ mchid: keys.wechat.mchid, nonce_str: '593BEC0C930BF1AFEB40B4A08C8FB242', timestamp: '1554208460', serial_no: keys.wechat.serialNo });
    expect(createVerify('RSA-SHA256').update(documented).verify(publicOf(keys.wechat.merchantKey), h.signature, 'base64')).toBe(true);
  });

  it('WeChat Pay v3 签名验证: the documented Native answer gives the documented 验签名串; its published signature is RSA-2048 and, without WeChat\'s key, refused', () => {
    // https://pay.weixin.qq.com/docs/merchant/development/interface-rules/signature-verification.html
    const body = '{"code_url":"weixin://wxpay/bizpayurl?pr=JyC91EIz1"}';
    expect(verifyMessage('1722850421', 'd824f2e086d3c1df967785d13fcd22ef', body)).toBe(`1722850421\nd824f2e086d3c1df967785d13fcd22ef\n${body}\n`);
    const signature = 'mfI1CPqvBrgcXfgXMFjdNIhBf27ACE2YyeWsWV9ZI7T7RU0vHvbQpu9Z32ogzc+k8ZC5n3kz7h70eWKjgqNdKQF0eRp8mVKlmfzMLBVHbssB9jEZEDXThOX1XFqX7s7ymia1hoHQxQagPGzkdWxtlZPZ4ZPvr1RiqkgAu6Is8MZgXXrRoBKqjmSdrP1N7uxzJ/cjfSiis9FiLjuADoqmQ1P7p2N876YPAol7Rn0+GswwAwxldbdLrmVSjfytfSBJFqTMHn4itojgxSWWN1byuckQt8hSTEv/Lg97QoeGniYP17T80pJeQyL3b+295FPHSO2AtvCgyIbKMZ0BALilAA==';
    expect(Buffer.from(signature, 'base64')).toHaveLength(256);
    const headers = {
      'wechatpay-timestamp': '1722850421', 'wechatpay-nonce': 'd824f2e086d3c1df967785d13fcd22ef', 'wechatpay-signature': signature,
      'wechatpay-serial': 'PUB_KEY_ID_0000000000000024101100397200000006',
    };
    const c = { platformSerial: 'PUB_KEY_ID_0000000000000024101100397200000006', platformKey: publicOf(keys.wechat.platformKey), now: () => 1722850421_000 };
    // the documented headers pass every check up to the signature, which our (emulator's) platform key refuses
    expect(() => verifyPlatform(c, headers, body)).toThrow('微信支付签名校验失败');
    expect(() => verifyPlatform({ ...c, now: () => (1722850421 + 301) * 1000 }, headers, body)).toThrow('超出 5 分钟');
  });

  it('Alipay 异步通知验签: the documented notification\'s 待签名字符串 (sorted, without sign and sign_type)', () => {
    // https://docs.antom.com/ac/web_cn/async (the notification of create_forex_trade)
    const notify = {
      notify_id: '5b89a773c60af059d96b1693dd3b3d6nc1', notify_type: 'trade_status_sync', sign: 'b34d89788d9012f77f5b74ac232145f5',
      trade_no: '2018110922001332950500389138', total_fee: '0.01', out_trade_no: 'test20181109153145', notify_time: '2018-11-09 15:36:17',
      currency: 'USD', trade_status: 'TRADE_FINISHED', sign_type: 'MD5',
    };
    expect(signContent(notify, true)).toBe(
      'currency=USD&notify_id=5b89a773c60af059d96b1693dd3b3d6nc1&notify_time=2018-11-09 15:36:17&notify_type=trade_status_sync'
      + '&out_trade_no=test20181109153145&total_fee=0.01&trade_no=2018110922001332950500389138&trade_status=TRADE_FINISHED',
    );
  });
});
