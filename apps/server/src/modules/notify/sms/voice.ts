import type { Agent } from 'node:http';
import Dysmsapi from '@alicloud/dysmsapi20170525';
import { $OpenApiUtil, OpenApiUtil } from '@alicloud/openapi-core';
import { RuntimeOptions } from '@darabonba/typescript';
import { CommonClient } from 'tencentcloud-sdk-nodejs-common';
import { answerText, SendError, type Accepted, type NotifyProvider, type OutgoingMessage } from '../provider.ts';

// 语音通知 (notify type 2, channel 'phone'): a text-to-speech call through the company's provider, the
// same adapter shape as its SMS (provider.ts):
// - 阿里云语音服务 Dyvmsapi 2017-05-25 SingleCallByTts (CalledShowNumber, CalledNumber, TtsCode,
//   TtsParam {content}, PlayTimes, OutId = the idempotency key), signed ACS3-HMAC-SHA256 by the
//   official OpenAPI core (the SMS SDK's client class, which is that core), answered with a CallId;
// - 腾讯云语音消息 VMS 2020-09-02 SendTtsVoice (TemplateId, TemplateParamSet [content], CalledNumber
//   +86…, VoiceSdkAppid, PlayTimes, SessionContext = the idempotency key), signed TC3-HMAC-SHA256 by
//   the official common SDK, answered with SendStatus.CallId.
// `endpoint` is the service in production and the local emulators (emulator-aliyun.ts,
// emulator-tencent.ts) in the demo and the tests. Neither service has a look-up by our key, so a retry
// after a crash relies on the emulator's/provider's own OutId/SessionContext record (no find()).

export interface AliyunVoiceSettings {
  accessKeyId: string;
  accessKeySecret: string;
  /** 主叫显号 (CalledShowNumber) */
  showNumber: string;
  /** TTS template code (TTS_…), one variable ${content} */
  ttsCode: string;
  /** host[:port] (default dyvmsapi.aliyuncs.com) */
  endpoint?: string;
  protocol?: 'HTTP' | 'HTTPS';
}

export interface TencentVoiceSettings {
  secretId: string;
  secretKey: string;
  /** VoiceSdkAppid */
  voiceSdkAppId: string;
  /** the TTS template: one parameter {1}, the content */
  templateId: string;
  region?: string;
  /** host[:port] (default vms.tencentcloudapi.com); the first label is the signed service name */
  endpoint?: string;
  protocol?: 'http://' | 'https://';
  agent?: Agent;
}

/** Times the text is read out. */
const PLAY_TIMES = 2;

type ClientClass = typeof Dysmsapi;
const ClientOf = (m: ClientClass | { default: ClientClass }): ClientClass => ('default' in m && typeof m.default === 'function' ? m.default : (m as ClientClass));

const ALI_RETRYABLE = new Set(['isp.SYSTEM_ERROR', 'isv.BUSINESS_LIMIT_CONTROL', 'Throttling', 'Throttling.User', 'ServiceUnavailable', 'InternalError']);

interface SdkError { code?: string; message?: string; statusCode?: number; data?: unknown; requestId?: string }

export function aliyunVoice(s: AliyunVoiceSettings): NotifyProvider {
  const Client = ClientOf(Dysmsapi);
  const client = new Client(new $OpenApiUtil.Config({
    accessKeyId: s.accessKeyId, accessKeySecret: s.accessKeySecret, endpoint: s.endpoint ?? 'dyvmsapi.aliyuncs.com',
    protocol: s.protocol ?? 'HTTPS', readTimeout: 10_000, connectTimeout: 5_000,
  }));
  return {
    name: 'aliyun_voice',
    async send(m: OutgoingMessage): Promise<Accepted> {
      let body: Record<string, unknown> | undefined;
      try {
        const params = new $OpenApiUtil.Params({
          action: 'SingleCallByTts', version: '2017-05-25', protocol: s.protocol ?? 'HTTPS', pathname: '/', method: 'POST', authType: 'AK', style: 'RPC',
          reqBodyType: 'formData', bodyType: 'json',
        });
        const req = new $OpenApiUtil.OpenApiRequest({
          query: OpenApiUtil.query({
            CalledShowNumber: s.showNumber, CalledNumber: m.phone, TtsCode: s.ttsCode, TtsParam: JSON.stringify({ content: m.content }),
            PlayTimes: PLAY_TIMES, OutId: m.idempotencyKey,
          }),
        });
        const r = await client.callApi(params, req, new RuntimeOptions({}));
        body = (r.body ?? {}) as Record<string, unknown>;
      } catch (e) {
        const x = (e ?? {}) as SdkError;
        if (x.code && x.statusCode) {
          throw new SendError(`阿里云语音拒绝：${x.message ?? ''}（${x.code}）`.slice(0, 200), answerText(x.data ?? { Code: x.code, Message: x.message }), ALI_RETRYABLE.has(x.code) || x.statusCode >= 500);
        }
        throw new SendError(`无法连接阿里云语音服务：${x.message ?? '网络错误'}`.slice(0, 200), '', true);
      }
      const code = String(body.Code ?? '');
      const answer = answerText(body);
      if (code !== 'OK') throw new SendError(`阿里云语音拒绝：${String(body.Message ?? '')}（${code}）`.slice(0, 200), answer, ALI_RETRYABLE.has(code));
      return { ref: String(body.CallId ?? ''), answer };
    },
  };
}

const TC_RETRYABLE = /^(InternalError|RequestLimitExceeded|ResourceUnavailable\.ServiceUnavailable|FailedOperation\.FrequencyLimit)/;

export function tencentVoice(s: TencentVoiceSettings): NotifyProvider {
  const client = new CommonClient(s.endpoint ?? 'vms.tencentcloudapi.com', '2020-09-02', {
    credential: { secretId: s.secretId, secretKey: s.secretKey },
    region: s.region || 'ap-guangzhou',
    profile: { httpProfile: { endpoint: s.endpoint ?? 'vms.tencentcloudapi.com', protocol: s.protocol ?? 'https://', reqTimeout: 10, agent: s.agent } },
  });
  return {
    name: 'tencent_voice',
    async send(m: OutgoingMessage): Promise<Accepted> {
      let r: { SendStatus?: { CallId?: string; SessionContext?: string } };
      try {
        r = await client.request('SendTtsVoice', {
          TemplateId: s.templateId, TemplateParamSet: [m.content], CalledNumber: `+86${m.phone}`, VoiceSdkAppid: s.voiceSdkAppId, PlayTimes: PLAY_TIMES,
          SessionContext: m.idempotencyKey,
        });
      } catch (e) {
        const x = (e ?? {}) as SdkError;
        if (x.code) {
          throw new SendError(`腾讯云语音拒绝：${x.message ?? ''}（${x.code}）`.slice(0, 200), answerText({ Error: { Code: x.code, Message: x.message }, RequestId: x.requestId }), TC_RETRYABLE.test(x.code));
        }
        throw new SendError(`无法连接腾讯云语音服务：${x.message ?? '网络错误'}`.slice(0, 200), '', true);
      }
      const callId = r.SendStatus?.CallId ?? '';
      if (!callId) throw new SendError('腾讯云语音未返回呼叫编号', answerText(r), true);
      return { ref: callId, answer: answerText(r) };
    },
  };
}
