import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { emulatorBase, listenOn, type EmulatorHandles } from './emulator-common.ts';

// LOCAL EMULATOR of 阿里云短信 (Dysmsapi 2017-05-25, RPC style) — not a provider. An HTTP server on
// 127.0.0.1 that checks each call's ACS3-HMAC-SHA256 signature exactly as the service does (canonical
// request → SHA-256 → HMAC with the AccessKey secret; x-acs-content-sha256, x-acs-date within 15
// minutes, a nonce used once), answers SendSms and QuerySendDetails in the service's JSON, keeps one
// message per OutId (a repeated OutId is answered with the first BizId and not delivered again) and
// serves the delivery receipts. It also answers 阿里云语音服务 (Dyvmsapi 2017-05-25, the same signing)
// SingleCallByTts: one call per OutId, kept in `voiceCalls`. Used by `npm start` (SMS_MODE=emulator)
// and the tests.

export interface AliyunEmulatorOptions {
  /** AccessKey ID → secret the emulator accepts (a table, or a look-up) */
  keys: Record<string, string> | ((accessKeyId: string) => Promise<string | undefined>);
  host?: string;
  port?: number;
  /** phones whose messages are accepted and then not delivered (receipt 发送失败) */
  undeliverable?: Set<string>;
}

export interface AliyunMessage {
  bizId: string;
  outId: string;
  phone: string;
  signName: string;
  templateCode: string;
  content: string;
  sendDate: string;
  sentAt: Date;
}

export interface AliyunVoiceCall {
  callId: string;
  outId: string;
  phone: string;
  showNumber: string;
  ttsCode: string;
  /** the text read out */
  content: string;
  playTimes: number;
  at: Date;
}

export interface AliyunEmulator extends EmulatorHandles<AliyunMessage> {
  /** every voice call placed (one per OutId) */
  voiceCalls: AliyunVoiceCall[];
  url: string;
  /** host:port, what the SDK takes as its endpoint */
  endpoint: string;
}

const encode = (s: string) => encodeURIComponent(s).replace(/!/g, '%21').replace(/'/g, '%27').replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/\*/g, '%2A');
const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const beijing = (d: Date) => new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 19).replace('T', ' ');

/** The signature the caller should have sent, or a refusal (code, message). */
async function checkSignature(req: FastifyRequest, raw: Buffer, keys: AliyunEmulatorOptions['keys'], nonces: Set<string>): Promise<{ code: string; message: string } | null> {
  const auth = String(req.headers.authorization ?? '');
  const m = /^ACS3-HMAC-SHA256 Credential=([^,]+),SignedHeaders=([^,]+),Signature=([0-9a-f]+)$/.exec(auth);
  if (!m) return { code: 'IncompleteSignature', message: 'The request signature does not conform to Aliyun standards.' };
  const [, akId, signedList, signature] = m;
  const secret = typeof keys === 'function' ? await keys(akId) : keys[akId];
  if (!secret) return { code: 'InvalidAccessKeyId.NotFound', message: 'Specified access key is not found.' };
  const signed = signedList.split(';');
  for (const h of ['host', 'x-acs-action', 'x-acs-content-sha256', 'x-acs-date', 'x-acs-signature-nonce', 'x-acs-version']) {
    if (!signed.includes(h)) return { code: 'IncompleteSignature', message: `Header ${h} is not signed.` };
  }
  if (req.headers['x-acs-content-sha256'] !== sha256(raw)) return { code: 'IncompleteSignature', message: 'x-acs-content-sha256 does not match the body.' };
  const date = Date.parse(String(req.headers['x-acs-date'] ?? ''));
  if (!Number.isFinite(date) || Math.abs(Date.now() - date) > 15 * 60_000) return { code: 'InvalidTimeStamp.Expired', message: 'Specified time stamp or date value is expired.' };
  const nonce = String(req.headers['x-acs-signature-nonce'] ?? '');
  if (!nonce || nonces.has(nonce)) return { code: 'SignatureNonceUsed', message: 'Specified signature nonce was used already.' };
  const url = new URL(req.url, 'http://emulator');
  const query = [...url.searchParams.keys()].sort().map((k) => `${k}=${encode(url.searchParams.get(k) ?? '')}`).join('&');
  const headers = signed.map((h) => `${h}:${String(req.headers[h] ?? '').trim()}\n`).join('');
  const canonical = `${req.method}\n${url.pathname}\n${query}\n${headers}\n${signed.join(';')}\n${String(req.headers['x-acs-content-sha256'])}`;
  const expected = createHmac('sha256', secret).update(`ACS3-HMAC-SHA256\n${sha256(canonical)}`).digest();
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    return { code: 'SignatureDoesNotMatch', message: 'Specified signature does not match our calculation.' };
  }
  nonces.add(nonce);
  return null;
}

/** A query parameter's JSON (an absent one is {}), or undefined when it is not JSON. */
function jsonParam(q: URLSearchParams, key: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(q.get(key) || '{}') as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

export async function startAliyunEmulator(o: AliyunEmulatorOptions): Promise<AliyunEmulator> {
  const { app, state, sent, called } = emulatorBase<AliyunMessage, AliyunVoiceCall>(o.undeliverable, 'isp.SYSTEM_ERROR');
  const { messages, undeliverable } = state;
  const nonces = new Set<string>();

  const answer = (reply: FastifyReply, status: number, body: Record<string, unknown>) =>
    reply.code(status).header('content-type', 'application/json;charset=utf-8').send({ RequestId: randomUUID().toUpperCase(), ...body });

  app.all('/', async (req, reply) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const bad = await checkSignature(req, raw, o.keys, nonces);
    if (bad) return answer(reply, bad.code.startsWith('InvalidAccessKeyId') ? 404 : 400, { Code: bad.code, Message: bad.message, HostId: 'dysmsapi.aliyuncs.com' });
    const q = new URL(req.url, 'http://emulator').searchParams;
    const action = String(req.headers['x-acs-action'] ?? q.get('Action') ?? '');
    if (req.headers['x-acs-version'] !== '2017-05-25') return answer(reply, 400, { Code: 'InvalidVersion', Message: 'Specified parameter Version is not valid.' });
    if (action === 'SendSms') {
      const refusal = state.sendRefusal();
      if (refusal) return answer(reply, 200, { Code: refusal, Message: refusal === 'isp.SYSTEM_ERROR' ? 'System error' : '触发流控' });
      const phone = q.get('PhoneNumbers') ?? '';
      const signName = q.get('SignName') ?? '';
      const templateCode = q.get('TemplateCode') ?? '';
      const outId = q.get('OutId') ?? '';
      if (!/^1\d{10}$/.test(phone)) return answer(reply, 200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '非法手机号' });
      if (!signName) return answer(reply, 200, { Code: 'isv.SMS_SIGNATURE_ILLEGAL', Message: '该账号下找不到对应签名' });
      if (!/^SMS_\d+$/.test(templateCode)) return answer(reply, 200, { Code: 'isv.SMS_TEMPLATE_ILLEGAL', Message: '该账号下找不到对应模板' });
      const params = jsonParam(q, 'TemplateParam');
      if (params === undefined) return answer(reply, 200, { Code: 'isv.INVALID_JSON_PARAM', Message: 'JSON参数不合法，只接受字符串值' });
      const msg = sent.once(outId, () => {
        const now = new Date();
        return {
          bizId: `${Math.floor(Math.random() * 1e15)}^0`, outId, phone, signName, templateCode,
          content: `【${signName}】${String(params.content ?? '')}`, sendDate: beijing(now), sentAt: now,
        };
      });
      return answer(reply, 200, { Code: 'OK', Message: 'OK', BizId: msg.bizId });
    }
    if (action === 'SingleCallByTts') {
      const phone = q.get('CalledNumber') ?? '';
      const show = q.get('CalledShowNumber') ?? '';
      const ttsCode = q.get('TtsCode') ?? '';
      const outId = q.get('OutId') ?? '';
      if (!/^1\d{10}$/.test(phone)) return answer(reply, 200, { Code: 'isv.MOBILE_NUMBER_ILLEGAL', Message: '被叫号码格式不正确' });
      if (!/^\d{5,20}$/.test(show)) return answer(reply, 200, { Code: 'isv.DISPLAY_NUMBER_ILLEGAL', Message: '主叫显号不存在或未审核' });
      if (!/^TTS_\d+$/.test(ttsCode)) return answer(reply, 200, { Code: 'isv.TTS_TEMPLATE_ILLEGAL', Message: '语音模板不存在或未审核' });
      const params = jsonParam(q, 'TtsParam');
      if (params === undefined) return answer(reply, 200, { Code: 'isv.INVALID_JSON_PARAM', Message: 'TtsParam 不是合法的 JSON' });
      const call = called.once(outId, () => ({
        callId: `${Math.floor(Math.random() * 1e12)}^${Math.floor(Math.random() * 1e11)}`, outId, phone, showNumber: show, ttsCode,
        content: String(params.content ?? ''), playTimes: Number(q.get('PlayTimes') ?? 1), at: new Date(),
      }));
      return answer(reply, 200, { Code: 'OK', Message: 'OK', CallId: call.callId });
    }
    if (action === 'QuerySendDetails') {
      const phone = q.get('PhoneNumber') ?? '';
      const day = q.get('SendDate') ?? '';
      const bizId = q.get('BizId') ?? '';
      if (!/^\d{8}$/.test(day)) return answer(reply, 200, { Code: 'isv.INVALID_PARAMETERS', Message: 'SendDate 格式应为 yyyyMMdd' });
      const rows = messages.filter((x) => x.phone === phone && x.sendDate.slice(0, 10).replace(/-/g, '') === day && (!bizId || x.bizId === bizId));
      return answer(reply, 200, {
        Code: 'OK', Message: 'OK', TotalCount: rows.length,
        SmsSendDetailDTOs: {
          SmsSendDetailDTO: rows.map((x) => {
            const failed = undeliverable.has(x.phone);
            return {
              PhoneNum: x.phone, SendStatus: failed ? 2 : 3, ErrCode: failed ? 'MOBILE_NOT_ON_SERVICE' : 'DELIVERED', TemplateCode: x.templateCode,
              Content: x.content, SendDate: x.sendDate, ReceiveDate: x.sendDate, OutId: x.outId,
            };
          }),
        },
      });
    }
    return answer(reply, 404, { Code: 'InvalidAction.NotFound', Message: `Specified api is not found, please check your url and method.` });
  });

  const host = o.host ?? '127.0.0.1';
  const endpoint = `${host}:${await listenOn(app, host, o.port ?? 0)}`;
  return Object.assign(state, { url: `http://${endpoint}`, endpoint, voiceCalls: called.all, app, close: () => app.close() });
}
