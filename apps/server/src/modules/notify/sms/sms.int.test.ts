import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uniq } from '../../../../test/factories.ts';
import { collectReceipts } from '../service.ts';
import { aliyunSms } from './aliyun.ts';
import { tencentSms } from './tencent.ts';
import { providersFrom } from './setup.ts';
import { expectWrongSignatureRefused, fileSmsHarness } from './emulated.test-util.ts';

// 阿里云 and 腾讯云 SMS through their official SDKs against the local emulators, which check every
// signature with the secret the company stored in /sms/config: a message is sent once, a retry after
// a crash asks the provider first and sends nothing twice (the emulator counts the calls), a passing
// refusal is recorded and tried again after its back-off, a final one is not, the cost is the
// company's SMS price, and the delivery receipt updates the message.

const h = await fileSmsHarness();
const { t, db, em, sms, send, queue, row } = h;

/** A company with SMS price `priceFen`, a user who may configure its SMS, and their token. */
const company = (priceFen = 7) => h.company({ smsFen: priceFen });

async function configure(token: string, body: Record<string, string>) {
  return t.call(token, { method: 'POST', url: '/sms/config', payload: body });
}


const ALIYUN = { provider: 'aliyun', accessKeyId: '', secret: '', signName: '测试物业', templateCode: 'SMS_100000001' };
const TENCENT = { provider: 'tencent', accessKeyId: '', secret: '', signName: '测试物业', templateCode: '1000001', sdkAppId: '1400000001', region: 'ap-guangzhou' };

describe('/sms/config', () => {
  it('stores the secret sealed and answers only whether it is set', async () => {
    const { companyId, token } = await company();
    const before = await t.call(token, { method: 'GET', url: '/sms/config' });
    expect(before.body.data).toMatchObject({ provider: 'log', secretSet: false, smsPriceFen: 7, mode: 'emulator' });
    const ak = uniq('LTAI');
    const r = await configure(token, { ...ALIYUN, accessKeyId: ak, secret: 'plain-secret-value' });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data).toMatchObject({ provider: 'aliyun', accessKeyId: ak, secretSet: true });
    expect(JSON.stringify(r.body)).not.toContain('plain-secret-value');
    const stored = (await t.owner.query(`SELECT secret_enc FROM sms_configs WHERE company_id = $1`, [companyId])).rows[0].secret_enc;
    expect(stored).toMatch(/^v1:/);
    expect(stored).not.toContain('plain-secret-value');
    // saved again without a secret: the stored one is kept
    expect((await configure(token, { ...ALIYUN, accessKeyId: ak, signName: '新签名' })).body.data).toMatchObject({ secretSet: true, signName: '新签名' });
    // a new key ID without its secret is refused
    const bad = await configure(token, { ...ALIYUN, accessKeyId: uniq('LTAI') });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe('请填写 AccessKey Secret');
    expect((await configure(token, { ...TENCENT, accessKeyId: 'AKID1', secret: 's', sdkAppId: '12' })).body.message).toBe('腾讯云 SdkAppId 应为 10 位数字');
  });
});

describe.each([
  ['aliyun', ALIYUN, () => em.aliyun],
  ['tencent', TENCENT, () => em.tencent],
] as const)('sending through %s', (name, settings, emulator) => {
  it('sends once with the idempotency key, records the answer, the cost and then the receipt', async () => {
    const { companyId, token } = await company(7);
    expect((await configure(token, { ...settings, accessKeyId: uniq('AK'), secret: randomBytes(12).toString('hex') })).status).toBe(200);
    const id = await queue(companyId);
    const calls = emulator().calls;
    await send();
    const r = await row(id);
    expect(r.status, r.error).toBe('sent');
    expect(r.provider).toBe(name);
    expect(r.provider_ref).not.toBe('');
    expect(r.answer).toContain(r.provider_ref);
    expect(r.cost_fen).toBe(7);
    expect(emulator().calls).toBe(calls + 1);
    const delivered = emulator().messages.filter((m) => ('outId' in m ? m.outId : m.sessionContext) === `notify-${id}`);
    expect(delivered).toHaveLength(1);
    await collectReceipts(db, providersFrom(db, sms, () => {}));
    const after = await row(id);
    expect(after.receipt).toBe('delivered');
    expect(after.status).toBe('sent');
    // the list shows state, cost and receipt
    const list = await t.call(token, { method: 'GET', url: '/sms/log/list?index=1&size=10' });
    expect(list.body.data[0]).toMatchObject({ id, status: 'sent', costFen: 7, receipt: 'delivered', provider: name });
  });

  it('a sender that died after handing a message over: the retry finds it at the provider and sends nothing', async () => {
    const { companyId, token } = await company();
    await configure(token, { ...settings, accessKeyId: uniq('AK'), secret: 'k'.repeat(20) });
    const id = await queue(companyId, '13900000001');
    await send();
    // as if the sender had died between the provider's answer and recording it
    await t.owner.query(`UPDATE notifications SET status = 'sending', provider_ref = '', lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
    const calls = emulator().calls;
    await send();
    expect(emulator().calls).toBe(calls);
    const r = await row(id);
    expect(r.status).toBe('sent');
    expect(r.send_attempts).toBe(2);
    expect(emulator().messages.filter((m) => m.phone === '13900000001' && ('outId' in m ? m.outId : m.sessionContext) === `notify-${id}`)).toHaveLength(1);
  });

  it('a passing refusal is recorded and tried again after the back-off; a final one is not', async () => {
    const { companyId, token } = await company();
    await configure(token, { ...settings, accessKeyId: uniq('AK'), secret: 'k'.repeat(20) });
    const id = await queue(companyId);
    emulator().failNext(1);
    await send();
    let r = await row(id);
    expect(r.status).toBe('queued');
    expect(r.error).toContain('将于稍后重试');
    expect(r.answer).toMatch(/SYSTEM_ERROR|SendAndRecvFail/);
    expect(r.next_try_at).not.toBeNull();
    expect(r.cost_fen).toBe(0);
    await new Promise((res) => setTimeout(res, 400));
    await send();
    r = await row(id);
    expect(r.status, r.error).toBe('sent');
    expect(r.send_attempts).toBe(2);
    // a template the provider does not know is final
    await t.owner.query(`UPDATE sms_configs SET template_code = 'BAD' WHERE company_id = $1`, [companyId]);
    const other = await queue(companyId);
    await send();
    const f = await row(other);
    expect(f.status).toBe('failed');
    expect(f.error).toMatch(/TEMPLATE_ILLEGAL|TemplateIncorrectOrUnapproved/);
    expect(f.send_attempts).toBe(1);
  });

  it('checks the signature: a wrong secret is refused', async () => {
    const { token } = await company();
    const ak = uniq('AK');
    await configure(token, { ...settings, accessKeyId: ak, secret: 'right-secret-123' });
    const wrong = name === 'aliyun'
      ? aliyunSms({ accessKeyId: ak, accessKeySecret: 'wrong-secret', signName: 'x', templateCode: 'SMS_1', ...sms.aliyun })
      : tencentSms({ secretId: ak, secretKey: 'wrong-secret', sdkAppId: '1400000001', signName: 'x', templateId: '1', ...sms.tencent });
    await expectWrongSignatureRefused(wrong, 'sms', () => emulator().calls);
  });

  it('an undelivered receipt fails the message and it costs nothing', async () => {
    const { companyId, token } = await company();
    await configure(token, { ...settings, accessKeyId: uniq('AK'), secret: 'k'.repeat(20) });
    const phone = `137${String(Date.now()).slice(-8)}`;
    const id = await queue(companyId, phone);
    await send();
    emulator().undeliverable.add(phone);
    await collectReceipts(db, providersFrom(db, sms, () => {}));
    const r = await row(id);
    expect(r.receipt).toBe('undelivered');
    expect(r.status).toBe('failed');
    expect(r.cost_fen).toBe(0);
    expect(r.error).toContain('未送达');
  });
});
