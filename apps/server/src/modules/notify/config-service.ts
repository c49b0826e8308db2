import type { z } from 'zod';
import type { SmsConfigBody } from '@meter/contracts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { badRequest } from '../../http/errors.ts';
import * as configRepo from './config-repo.ts';
import { sealSecret } from './sms/secret.ts';
import type { SmsSetup } from './sms/setup.ts';

// /sms/config: the company's SMS provider (短信服务商). The secret is sealed before it is stored and
// never answered back: the answer says only whether one is set.

type Provider = 'log' | 'aliyun' | 'tencent';

async function answer(ctx: Ctx, setup: SmsSetup, companyId: number) {
  return ctx.tx(async (tx) => {
    const c = await configRepo.getSmsConfig(tx, companyId);
    const prices = await configRepo.smsPrices(tx, companyId);
    return {
      companyId,
      provider: (c?.provider ?? 'log') as Provider,
      accessKeyId: c?.accessKeyId ?? '',
      secretSet: Boolean(c?.secretEnc),
      signName: c?.signName ?? '',
      templateCode: c?.templateCode ?? '',
      sdkAppId: c?.sdkAppId ?? '',
      region: c?.region ?? '',
      voiceTemplateCode: c?.voiceTemplateCode ?? '',
      voiceShowNumber: c?.voiceShowNumber ?? '',
      voiceSdkAppId: c?.voiceSdkAppId ?? '',
      updatedAt: c?.updatedAt ?? null,
      mode: setup.mode,
      ...prices,
    };
  });
}

export function getConfig(ctx: Ctx, setup: SmsSetup) {
  return answer(ctx, setup, companyOf(ctx));
}

/** What a provider needs before it can send: the first missing item, in Chinese. */
function missing(b: z.output<typeof SmsConfigBody>, secretSet: boolean): string | null {
  if (b.provider === 'log') return null;
  const ali = b.provider === 'aliyun';
  if (!b.accessKeyId) return ali ? '请填写 AccessKey ID' : '请填写 SecretId';
  if (!secretSet) return ali ? '请填写 AccessKey Secret' : '请填写 SecretKey';
  if (!b.signName) return '请填写短信签名';
  if (ali && !/^SMS_\d+$/.test(b.templateCode)) return '阿里云模板编号应形如 SMS_123456789';
  if (!ali && !/^\d+$/.test(b.templateCode)) return '腾讯云模板 ID 应为数字';
  if (!ali && !/^\d{10}$/.test(b.sdkAppId)) return '腾讯云 SdkAppId 应为 10 位数字';
  // 语音通知 is optional: blank leaves phone notices to the log
  if (!b.voiceTemplateCode) return null;
  if (ali && !/^TTS_\d+$/.test(b.voiceTemplateCode)) return '阿里云语音模板编号应形如 TTS_123456789';
  if (ali && !/^\d{5,20}$/.test(b.voiceShowNumber)) return '请填写阿里云语音主叫显号（已审核的号码）';
  if (!ali && !/^\d+$/.test(b.voiceTemplateCode)) return '腾讯云语音模板 ID 应为数字';
  if (!ali && !/^\d{10}$/.test(b.voiceSdkAppId)) return '腾讯云 VoiceSdkAppid 应为 10 位数字';
  return null;
}

export async function saveConfig(ctx: Ctx, setup: SmsSetup, b: z.output<typeof SmsConfigBody>) {
  const companyId = companyOf(ctx);
  await ctx.tx(async (tx) => {
    const old = await configRepo.getSmsConfig(tx, companyId);
    // a new key ID with the old secret would pair a secret with the wrong key: ask for both again
    const keepSecret = !b.secret && old?.secretEnc && old.provider === b.provider && old.accessKeyId === b.accessKeyId ? old.secretEnc : '';
    const sealed = b.secret ? sealSecret(setup.key, b.secret) : keepSecret;
    const why = missing(b, Boolean(sealed));
    if (why) throw badRequest(why);
    ctx.audit.target = `短信服务商：${b.provider}`;
    await configRepo.saveSmsConfig(tx, {
      companyId, provider: b.provider, accessKeyId: b.provider === 'log' ? '' : b.accessKeyId, secretEnc: b.provider === 'log' ? '' : sealed,
      signName: b.signName, templateCode: b.templateCode, sdkAppId: b.provider === 'tencent' ? b.sdkAppId : '', region: b.provider === 'tencent' ? b.region : '',
      voiceTemplateCode: b.provider === 'log' ? '' : b.voiceTemplateCode, voiceShowNumber: b.provider === 'aliyun' && b.voiceTemplateCode ? b.voiceShowNumber : '',
      voiceSdkAppId: b.provider === 'tencent' && b.voiceTemplateCode ? b.voiceSdkAppId : '',
    }, ctx.user.id);
  });
  return answer(ctx, setup, companyId);
}
