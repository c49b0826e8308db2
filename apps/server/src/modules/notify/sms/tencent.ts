import type { Agent } from 'node:http';
import * as tcSms from 'tencentcloud-sdk-nodejs-sms';
import { answerText, SendError, type Accepted, type NotifyProvider, type OutgoingMessage } from '../provider.ts';

// 腾讯云短信 (SMS API 2021-01-11) through its official SDK: SendSms with SessionContext = the
// message's idempotency key; PullSmsSendStatusByPhoneNumber for the delivery receipts and — before a
// message is tried again — for the provider's own record of that SessionContext (腾讯云 does not drop
// a repeated SessionContext itself). The SDK signs every call (TC3-HMAC-SHA256); `endpoint` is
// sms.tencentcloudapi.com in production and the local emulator (emulator-tencent.ts) in the demo and tests.

export interface TencentSettings {
  secretId: string;
  secretKey: string;
  /** SmsSdkAppId */
  sdkAppId: string;
  signName: string;
  /** the notice template: one parameter {1}, the content */
  templateId: string;
  region?: string;
  /** host[:port] (default sms.tencentcloudapi.com); the first label is the signed service name */
  endpoint?: string;
  protocol?: 'http://' | 'https://';
  /** the emulator's agent (its host name resolves to the emulator) */
  agent?: Agent;
}

const RETRYABLE = /^(InternalError|RequestLimitExceeded|ResourceUnavailable\.ServiceUnavailable)/;

interface SdkError { code?: string; message?: string; requestId?: string }

function failure(e: unknown): SendError {
  if (e instanceof SendError) return e;
  const x = (e ?? {}) as SdkError;
  if (x.code) {
    return new SendError(`腾讯云短信拒绝：${x.message ?? ''}（${x.code}）`.slice(0, 200), answerText({ Error: { Code: x.code, Message: x.message }, RequestId: x.requestId }), RETRYABLE.test(x.code));
  }
  return new SendError(`无法连接腾讯云短信服务：${x.message ?? '网络错误'}`.slice(0, 200), '', true);
}

const unix = (d: Date) => Math.floor(d.getTime() / 1000);

export function tencentSms(s: TencentSettings): NotifyProvider {
  const client = new tcSms.sms.v20210111.Client({
    credential: { secretId: s.secretId, secretKey: s.secretKey },
    region: s.region || 'ap-guangzhou',
    profile: { httpProfile: { endpoint: s.endpoint ?? 'sms.tencentcloudapi.com', protocol: s.protocol ?? 'https://', reqTimeout: 10, agent: s.agent } },
  });

  async function statuses(phone: string, from: Date) {
    const r = await client.PullSmsSendStatusByPhoneNumber({
      BeginTime: unix(from) - 60, EndTime: unix(new Date()) + 60, Offset: 0, Limit: 100, PhoneNumber: `+86${phone}`, SmsSdkAppId: s.sdkAppId,
    });
    return r.PullSmsSendStatusSet ?? [];
  }

  return {
    name: 'tencent',
    async send(m: OutgoingMessage): Promise<Accepted> {
      try {
        const r = await client.SendSms({
          PhoneNumberSet: [`+86${m.phone}`], SmsSdkAppId: s.sdkAppId, SignName: s.signName, TemplateId: s.templateId,
          TemplateParamSet: [m.content], SessionContext: m.idempotencyKey,
        });
        const st = r.SendStatusSet?.[0];
        const answer = answerText(r);
        if (st?.Code !== 'Ok') throw new SendError(`腾讯云短信拒绝：${st?.Message ?? ''}（${st?.Code ?? ''}）`.slice(0, 200), answer, RETRYABLE.test(st?.Code ?? ''));
        return { ref: st.SerialNo ?? '', answer };
      } catch (e) {
        throw failure(e);
      }
    },
    async find(m) {
      try {
        const hit = (await statuses(m.phone, m.createdAt ?? new Date())).find((x) => x.SessionContext === m.idempotencyKey);
        return hit ? { ref: hit.SerialNo ?? '', answer: answerText(hit) } : null;
      } catch (e) {
        throw failure(e);
      }
    },
    async receipts(awaiting) {
      const out = [];
      for (const a of awaiting) {
        const rows = await statuses(a.phone, a.sentAt).catch(() => []);
        const hit = rows.find((x) => x.SessionContext === a.idempotencyKey || (a.ref && x.SerialNo === a.ref));
        if (!hit?.ReportStatus) continue;
        out.push({
          id: a.id, delivered: hit.ReportStatus === 'SUCCESS', text: hit.Description ?? hit.ReportStatus,
          at: hit.UserReceiveTime ? new Date(Number(hit.UserReceiveTime) * 1000) : new Date(),
        });
      }
      return out;
    },
  };
}
