import Dysmsapi, { QuerySendDetailsRequest, SendSmsRequest } from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil } from '@alicloud/openapi-core';
import { answerText, SendError, type Accepted, type NotifyProvider, type OutgoingMessage } from '../provider.ts';

// 阿里云短信 (Dysmsapi 2017-05-25) through its official SDK: SendSms with OutId = the message's
// idempotency key, QuerySendDetails for the delivery receipts and — before a message is tried again —
// for the provider's own record of that OutId (阿里云 does not drop a repeated OutId itself). The SDK
// signs every call (ACS3-HMAC-SHA256); `endpoint` is dysmsapi.aliyuncs.com in production and the local
// emulator (emulator-aliyun.ts) in the demo and the tests.

export interface AliyunSettings {
  accessKeyId: string;
  accessKeySecret: string;
  signName: string;
  /** the notice template: one variable, ${content} */
  templateCode: string;
  /** host[:port] (default dysmsapi.aliyuncs.com) */
  endpoint?: string;
  protocol?: 'HTTP' | 'HTTPS';
}

// the SDK is CommonJS: under Node's ESM loader its default export is the module object
type ClientClass = typeof Dysmsapi;
const ClientOf = (m: ClientClass | { default: ClientClass }): ClientClass => ('default' in m && typeof m.default === 'function' ? m.default : (m as ClientClass));

/** Codes worth another try later (限流, 系统繁忙); every other refusal is final. */
const RETRYABLE = new Set(['isp.SYSTEM_ERROR', 'isv.BUSINESS_LIMIT_CONTROL', 'Throttling', 'Throttling.User', 'ServiceUnavailable', 'InternalError']);

/** yyyyMMdd in China time (QuerySendDetails' SendDate). */
export function sendDate(d: Date): string {
  return new Date(d.getTime() + 8 * 3600_000).toISOString().slice(0, 10).replace(/-/g, '');
}

interface SdkError { code?: string; message?: string; statusCode?: number; data?: unknown }

function failure(e: unknown): SendError {
  if (e instanceof SendError) return e;
  const x = (e ?? {}) as SdkError;
  if (x.code && x.statusCode) {
    const retry = RETRYABLE.has(x.code) || x.statusCode >= 500;
    return new SendError(`阿里云短信拒绝：${x.message ?? ''}（${x.code}）`.slice(0, 200), answerText(x.data ?? { Code: x.code, Message: x.message }), retry);
  }
  return new SendError(`无法连接阿里云短信服务：${x.message ?? '网络错误'}`.slice(0, 200), '', true);
}

export function aliyunSms(s: AliyunSettings): NotifyProvider {
  const Client = ClientOf(Dysmsapi);
  const client = new Client(new $OpenApiUtil.Config({
    accessKeyId: s.accessKeyId, accessKeySecret: s.accessKeySecret, endpoint: s.endpoint ?? 'dysmsapi.aliyuncs.com',
    protocol: s.protocol ?? 'HTTPS', readTimeout: 10_000, connectTimeout: 5_000,
  }));

  async function details(phone: string, day: Date, bizId?: string) {
    const r = await client.querySendDetails(new QuerySendDetailsRequest({ phoneNumber: phone, sendDate: sendDate(day), bizId, pageSize: 50, currentPage: 1 }));
    if (r.body?.code !== 'OK') throw new SendError(`阿里云短信查询失败：${r.body?.message ?? ''}（${r.body?.code ?? ''}）`, answerText(r.body), true);
    return r.body.smsSendDetailDTOs?.smsSendDetailDTO ?? [];
  }

  return {
    name: 'aliyun',
    async send(m: OutgoingMessage): Promise<Accepted> {
      try {
        const r = await client.sendSms(new SendSmsRequest({
          phoneNumbers: m.phone, signName: s.signName, templateCode: s.templateCode,
          templateParam: JSON.stringify({ content: m.content }), outId: m.idempotencyKey,
        }));
        const body = r.body;
        const answer = answerText(body?.toMap?.() ?? body);
        if (body?.code !== 'OK') throw new SendError(`阿里云短信拒绝：${body?.message ?? ''}（${body?.code ?? ''}）`.slice(0, 200), answer, RETRYABLE.has(body?.code ?? ''));
        return { ref: body.bizId ?? '', answer };
      } catch (e) {
        throw failure(e);
      }
    },
    async find(m) {
      const days = [m.createdAt ?? new Date(), new Date()].map(sendDate);
      for (const d of new Set(days)) {
        try {
          const rows = await details(m.phone, new Date(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T12:00:00+08:00`));
          const hit = rows.find((x) => x.outId === m.idempotencyKey);
          if (hit) return { ref: '', answer: answerText(hit.toMap?.() ?? hit) };
        } catch (e) {
          throw failure(e);
        }
      }
      return null;
    },
    async receipts(awaiting) {
      const out = [];
      for (const a of awaiting) {
        const rows = await details(a.phone, a.sentAt, a.ref || undefined).catch(() => []);
        const hit = rows.find((x) => x.outId === a.idempotencyKey) ?? (a.ref ? rows[0] : undefined);
        // SendStatus: 1 等待回执, 2 发送失败, 3 发送成功
        if (!hit || hit.sendStatus === 1) continue;
        const at = hit.receiveDate ? new Date(`${hit.receiveDate.replace(' ', 'T')}+08:00`) : new Date();
        out.push({ id: a.id, delivered: hit.sendStatus === 3, text: hit.errCode ?? '', at: Number.isNaN(at.getTime()) ? new Date() : at });
      }
      return out;
    },
  };
}
