import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { uniq } from '../../../../test/factories.ts';
import { expectWrongSignatureRefused, fileSmsHarness } from './emulated.test-util.ts';
import { aliyunVoice, tencentVoice } from './voice.ts';

// 语音通知 (notify type 2, channel phone) through 阿里云 Dyvmsapi SingleCallByTts and 腾讯云 VMS
// SendTtsVoice, signed by the official SDK cores and checked by the local emulators with the secret the
// company stored: one call per message (a retry after a crash places no second call), priced by the
// company's phone price (SPEC §3) and recorded like an SMS; without a voice template phone notices stay
// on the log provider.

const h = await fileSmsHarness();
const { t, em, sms, send, row } = h;
const company = () => h.company({ smsFen: 7, phoneFen: 15 });

/** A phone notice priced by the company's phone price, as the alarm rules queue it. */
async function queuePhone(companyId: number, phone = '13700000001') {
  const price = (await t.owner.query(`SELECT phone_price_fen FROM companies WHERE id = $1`, [companyId])).rows[0].phone_price_fen;
  const { rows } = await t.owner.query(
    `INSERT INTO notifications (company_id, level, channel, phone, content, price_fen, idempotency_key) VALUES ($1, 3, 'phone', $2, '您的电表已欠费，即将停止供电', $3, $4) RETURNING id`,
    [companyId, phone, price, uniq('voice')],
  );
  return Number(rows[0].id);
}

const ALIYUN = { provider: 'aliyun', signName: '测试物业', templateCode: 'SMS_100000001', voiceTemplateCode: 'TTS_200000001', voiceShowNumber: '05710000001' };
const TENCENT = { provider: 'tencent', signName: '测试物业', templateCode: '1000001', sdkAppId: '1400000001', region: 'ap-guangzhou', voiceTemplateCode: '2000001', voiceSdkAppId: '1400000002' };

describe.each([
  ['aliyun', ALIYUN, () => em.aliyun.voiceCalls.map((c) => ({ key: c.outId, phone: c.phone, text: c.content, times: c.playTimes, ref: c.callId }))],
  ['tencent', TENCENT, () => em.tencent.voiceCalls.map((c) => ({ key: c.sessionContext, phone: c.phone, text: c.params[0], times: c.playTimes, ref: c.callId }))],
] as const)('语音通知 through %s', (name, settings, calls) => {
  it('places one call with the idempotency key, records the call id and the phone price; a retry after a crash places none', async () => {
    const { companyId, token } = await company();
    const saved = await t.call(token, { method: 'POST', url: '/sms/config', payload: { ...settings, accessKeyId: uniq('AK'), secret: randomBytes(12).toString('hex') } });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    expect(saved.body.data).toMatchObject({ voiceTemplateCode: settings.voiceTemplateCode });
    const id = await queuePhone(companyId);
    await send();
    const r = await row(id);
    expect(r.status, r.error).toBe('sent');
    expect(r.provider).toBe(`${name}_voice`);
    expect(r.cost_fen).toBe(15);
    const mine = calls().filter((c) => c.key === `notify-${id}`);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ phone: '13700000001', text: '您的电表已欠费，即将停止供电', times: 2, ref: r.provider_ref });
    // as if the sender had died after the provider took the call
    await t.owner.query(`UPDATE notifications SET status = 'sending', lease_until = now() - interval '1 second' WHERE id = $1`, [id]);
    await send();
    expect((await row(id)).status).toBe('sent');
    expect(calls().filter((c) => c.key === `notify-${id}`)).toHaveLength(1);
    // /notesMessage shows it as 电话 with its cost
    const list = await t.call(token, { method: 'GET', url: '/sms/log/list?index=1&size=10' });
    expect(list.body.data[0]).toMatchObject({ id, channel: 'phone', status: 'sent', costFen: 15, priceFen: 15 });
  });

  it('checks the signature: a wrong secret is refused and places no call', async () => {
    const { token } = await company();
    const ak = uniq('AK');
    await t.call(token, { method: 'POST', url: '/sms/config', payload: { ...settings, accessKeyId: ak, secret: 'right-secret-123' } });
    const wrong = name === 'aliyun'
      ? aliyunVoice({ accessKeyId: ak, accessKeySecret: 'wrong', showNumber: '05710000001', ttsCode: 'TTS_1', endpoint: sms.aliyun.voiceEndpoint, protocol: 'HTTP' })
      : tencentVoice({ secretId: ak, secretKey: 'wrong', voiceSdkAppId: '1400000002', templateId: '1', endpoint: sms.tencent.voiceEndpoint, protocol: 'http://', agent: sms.tencent.agent });
    await expectWrongSignatureRefused(wrong, 'phone', () => calls().length);
  });
});

describe('语音通知 settings', () => {
  it('refuses an incomplete voice setting; without a voice template phone notices go to the log', async () => {
    const { companyId, token } = await company();
    const bad = await t.call(token, { method: 'POST', url: '/sms/config', payload: { ...ALIYUN, accessKeyId: uniq('AK'), secret: 'k'.repeat(20), voiceShowNumber: '' } });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('主叫显号');
    const badTc = await t.call(token, { method: 'POST', url: '/sms/config', payload: { ...TENCENT, accessKeyId: uniq('AK'), secret: 'k'.repeat(20), voiceSdkAppId: '12' } });
    expect(badTc.body.message).toBe('腾讯云 VoiceSdkAppid 应为 10 位数字');
    await t.call(token, { method: 'POST', url: '/sms/config', payload: { ...ALIYUN, accessKeyId: uniq('AK'), secret: 'k'.repeat(20), voiceTemplateCode: '' } });
    const before = em.aliyun.voiceCalls.length;
    const id = await queuePhone(companyId);
    await send();
    expect(await row(id)).toMatchObject({ status: 'sent', provider: 'log', cost_fen: 15 });
    expect(em.aliyun.voiceCalls.length).toBe(before);
  });
});
