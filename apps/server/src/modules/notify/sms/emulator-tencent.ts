import type { FastifyReply, FastifyRequest } from 'fastify';
import { Agent } from 'node:http';
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { emulatorBase, listenOn, type EmulatorHandles } from './emulator-common.ts';

// LOCAL EMULATOR of 腾讯云短信 (SMS API 2021-01-11) — not a provider. An HTTP server on 127.0.0.1 that
// checks each call's TC3-HMAC-SHA256 signature exactly as the service does (canonical request, the
// credential scope date/sms/tc3_request, the derived signing key, X-TC-Timestamp within 5 minutes),
// answers SendSms and PullSmsSendStatusByPhoneNumber in the service's JSON ({"Response": …}), keeps
// one message per SessionContext (a repeat is answered with the first SerialNo and not delivered
// again) and serves the delivery receipts. Its host name, sms.emulator.invalid, resolves only through
// the agent it hands out (to 127.0.0.1): the signed service name stays "sms" and nothing leaves the machine.
// Under vms.emulator.invalid (service "vms", version 2020-09-02) it answers 腾讯云语音消息 SendTtsVoice:
// one call per SessionContext, kept in `voiceCalls`.

export const TENCENT_EMULATOR_HOST = 'sms.emulator.invalid';
export const TENCENT_VOICE_EMULATOR_HOST = 'vms.emulator.invalid';

export interface TencentVoiceCall {
  callId: string;
  sessionContext: string;
  phone: string;
  voiceSdkAppId: string;
  templateId: string;
  params: string[];
  playTimes: number;
  at: Date;
}

export interface TencentEmulatorOptions {
  /** SecretId → SecretKey the emulator accepts (a table, or a look-up) */
  keys: Record<string, string> | ((secretId: string) => Promise<string | undefined>);
  port?: number;
  /** phones whose messages are accepted and then not delivered */
  undeliverable?: Set<string>;
}

export interface TencentMessage {
  serialNo: string;
  sessionContext: string;
  phone: string;
  sdkAppId: string;
  signName: string;
  templateId: string;
  params: string[];
  sentAt: Date;
}

export interface TencentEmulator extends EmulatorHandles<TencentMessage> {
  /** every voice call placed (one per SessionContext) */
  voiceCalls: TencentVoiceCall[];
  /** the endpoint of the voice service (VMS) */
  voiceEndpoint: string;
  /** what the SDK takes as its endpoint (host:port) and the agent that reaches it */
  endpoint: string;
  agent: Agent;
}

const sha256 = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const hmac = (key: Buffer | string, msg: string) => createHmac('sha256', key).update(msg).digest();

/** An agent whose every host name resolves to 127.0.0.1 (the emulator's). */
export function emulatorAgent(): Agent {
  return new Agent({
    keepAlive: false,
    lookup: (_host, opts, cb) => (opts.all ? cb(null, [{ address: '127.0.0.1', family: 4 }]) : cb(null, '127.0.0.1', 4)),
  });
}

async function checkSignature(req: FastifyRequest, raw: Buffer, keys: TencentEmulatorOptions['keys']): Promise<{ code: string; message: string } | null> {
  const m = /^TC3-HMAC-SHA256 Credential=([^/]+)\/(\d{4}-\d{2}-\d{2})\/([^/]+)\/tc3_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(String(req.headers.authorization ?? ''));
  if (!m) return { code: 'AuthFailure.InvalidAuthorization', message: 'Authorization 格式不正确' };
  const [, secretId, date, service, signedList, signature] = m;
  const secret = typeof keys === 'function' ? await keys(secretId) : keys[secretId];
  if (!secret) return { code: 'AuthFailure.SecretIdNotFound', message: 'The SecretId is not found.' };
  const ts = Number(req.headers['x-tc-timestamp']);
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > 300) return { code: 'AuthFailure.SignatureExpire', message: 'Signature expired.' };
  const host = String(req.headers.host ?? '').replace(/:\d+$/, '');
  if (service !== host.split('.')[0] || !['sms', 'vms'].includes(service) || date !== new Date(ts * 1000).toISOString().slice(0, 10)) {
    return { code: 'AuthFailure.InvalidAuthorization', message: 'Credential scope 不正确' };
  }
  const signed = signedList.split(';');
  if (!signed.includes('content-type') || !signed.includes('host')) return { code: 'AuthFailure.InvalidAuthorization', message: 'content-type 与 host 须签名' };
  const header = (h: string) => (h === 'host' ? String(req.headers.host ?? '').replace(/:\d+$/, '') : String(req.headers[h] ?? '')).trim();
  const url = new URL(req.url, 'http://emulator');
  const canonical = `${req.method}\n${url.pathname}\n${url.search.slice(1)}\n${signed.map((h) => `${h}:${header(h)}\n`).join('')}\n${signed.join(';')}\n${sha256(raw)}`;
  const toSign = `TC3-HMAC-SHA256\n${ts}\n${date}/${service}/tc3_request\n${sha256(canonical)}`;
  const key = hmac(hmac(hmac(`TC3${secret}`, date), service), 'tc3_request');
  const expected = hmac(key, toSign);
  const given = Buffer.from(signature, 'hex');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { code: 'AuthFailure.SignatureFailure', message: 'The provided credentials could not be validated.' };
  return null;
}

/** The service a signed request was sent to: the first label of its host (sms | vms). */
const serviceOf = (req: FastifyRequest) => String(req.headers.host ?? '').split('.')[0];

/** +8613800000000, 008613800000000, 8613800000000 or 13800000000 → 13800000000 ('' if not a mainland mobile). */
const mainland = (p: string) => /^(?:\+86|0086|86)?(1\d{10})$/.exec(p)?.[1] ?? '';

export async function startTencentEmulator(o: TencentEmulatorOptions): Promise<TencentEmulator> {
  const { app, state, sent, called } = emulatorBase<TencentMessage, TencentVoiceCall>(o.undeliverable, 'InternalError.SendAndRecvFail');
  const { messages, undeliverable } = state;
  /** a message or call repeats one with the same SessionContext to the same phone */
  const keyOf = (session: string, phone: string) => (session ? `${session}|${phone}` : '');

  const respond = (reply: FastifyReply, body: Record<string, unknown>) => reply.code(200).send({ Response: { ...body, RequestId: randomUUID() } });
  const error = (reply: FastifyReply, code: string, message: string) => respond(reply, { Error: { Code: code, Message: message } });

  app.post('/', async (req, reply) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const bad = await checkSignature(req, raw, o.keys);
    if (bad) return error(reply, bad.code, bad.message);
    const voice = serviceOf(req) === 'vms';
    if (req.headers['x-tc-version'] !== (voice ? '2020-09-02' : '2021-01-11')) return error(reply, 'NoSuchVersion', 'The requested version does not exist.');
    let p: Record<string, unknown>;
    try {
      p = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
    } catch {
      return error(reply, 'InvalidParameter', '请求体不是合法的 JSON');
    }
    const action = String(req.headers['x-tc-action'] ?? '');
    if (voice && action === 'SendTtsVoice') {
      const phone = mainland(String(p.CalledNumber ?? ''));
      const appId = String(p.VoiceSdkAppid ?? '');
      if (!phone) return error(reply, 'InvalidParameterValue.ErrorCalledNumber', '被叫号码格式错误');
      if (!/^\d{10}$/.test(appId)) return error(reply, 'MissingParameter', 'VoiceSdkAppid 必填');
      if (!/^\d+$/.test(String(p.TemplateId ?? ''))) return error(reply, 'FailedOperation.TemplateIncorrectOrUnapproved', '模板未审批或内容不匹配');
      const session = String(p.SessionContext ?? '');
      const call = called.once(keyOf(session, phone), () => ({
        callId: randomUUID(), sessionContext: session, phone, voiceSdkAppId: appId, templateId: String(p.TemplateId),
        params: Array.isArray(p.TemplateParamSet) ? p.TemplateParamSet.map(String) : [], playTimes: Number(p.PlayTimes ?? 2), at: new Date(),
      }));
      return respond(reply, { SendStatus: { CallId: call.callId, SessionContext: session } });
    }
    if (voice) return error(reply, 'InvalidAction', `接口 ${action} 不存在`);
    if (action === 'SendSms') {
      const refusal = state.sendRefusal();
      if (refusal) return error(reply, refusal, '接口超时或短信收发包超时');
      const phones = Array.isArray(p.PhoneNumberSet) ? p.PhoneNumberSet.map(String) : [];
      const appId = String(p.SmsSdkAppId ?? '');
      if (!phones.length || !/^\d{10}$/.test(appId)) return error(reply, 'MissingParameter', 'PhoneNumberSet 与 SmsSdkAppId 必填');
      if (!p.SignName) return error(reply, 'FailedOperation.SignatureIncorrectOrUnapproved', '签名格式错误或者签名未审批');
      if (!/^\d+$/.test(String(p.TemplateId ?? ''))) return error(reply, 'FailedOperation.TemplateIncorrectOrUnapproved', '模板未审批或内容不匹配');
      const session = String(p.SessionContext ?? '');
      const params = Array.isArray(p.TemplateParamSet) ? p.TemplateParamSet.map(String) : [];
      const set = phones.map((raw) => {
        const phone = mainland(raw);
        if (!phone) return { SerialNo: '', PhoneNumber: raw, Fee: 0, SessionContext: session, Code: 'InvalidParameterValue.IncorrectPhoneNumber', Message: '手机号格式错误', IsoCode: '' };
        const msg = sent.once(keyOf(session, phone), () => ({
          serialNo: `2645:${randomUUID().replace(/-/g, '').slice(0, 24)}`, sessionContext: session, phone, sdkAppId: appId, signName: String(p.SignName), templateId: String(p.TemplateId), params, sentAt: new Date(),
        }));
        return { SerialNo: msg.serialNo, PhoneNumber: `+86${phone}`, Fee: 1, SessionContext: session, Code: 'Ok', Message: 'send success', IsoCode: 'CN' };
      });
      return respond(reply, { SendStatusSet: set });
    }
    if (action === 'PullSmsSendStatusByPhoneNumber') {
      const phone = mainland(String(p.PhoneNumber ?? ''));
      const begin = Number(p.BeginTime ?? 0);
      const end = Number(p.EndTime ?? Number.MAX_SAFE_INTEGER);
      const appId = String(p.SmsSdkAppId ?? '');
      const rows = messages.filter((x) => x.phone === phone && x.sdkAppId === appId && x.sentAt.getTime() / 1000 >= begin && x.sentAt.getTime() / 1000 <= end);
      const limit = Math.min(Number(p.Limit ?? 100), 100);
      return respond(reply, {
        PullSmsSendStatusSet: rows.slice(Number(p.Offset ?? 0), Number(p.Offset ?? 0) + limit).map((x) => {
          const failed = undeliverable.has(x.phone);
          return {
            UserReceiveTime: Math.floor(x.sentAt.getTime() / 1000), CountryCode: '86', SubscriberNumber: x.phone, PhoneNumber: `+86${x.phone}`,
            SerialNo: x.serialNo, ReportStatus: failed ? 'FAIL' : 'SUCCESS', Description: failed ? '空号' : '用户接收成功', SessionContext: x.sessionContext,
          };
        }),
      });
    }
    return error(reply, 'InvalidAction', `接口 ${action} 不存在`);
  });

  const port = await listenOn(app, '127.0.0.1', o.port ?? 0);
  const agent = emulatorAgent();
  const close = async () => {
    agent.destroy();
    await app.close();
  };
  return Object.assign(state, { endpoint: `${TENCENT_EMULATOR_HOST}:${port}`, voiceEndpoint: `${TENCENT_VOICE_EMULATOR_HOST}:${port}`, voiceCalls: called.all, agent, app, close });
}
