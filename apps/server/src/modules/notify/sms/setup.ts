import type { Agent } from 'node:http';
import { SYSTEM_SCOPE, type Db } from '../../../db/client.ts';
import * as configRepo from '../config-repo.ts';
import { logProvider, type NotifyProvider } from '../provider.ts';
import { startAliyunEmulator, type AliyunEmulator } from './emulator-aliyun.ts';
import { emulatorAgent, startTencentEmulator, TENCENT_EMULATOR_HOST, TENCENT_VOICE_EMULATOR_HOST, type TencentEmulator } from './emulator-tencent.ts';
import { openSecret, smsConfigKey } from './secret.ts';

// The SMS providers of this process (SMS_MODE): in 'emulator' mode (default) every company's 阿里云 /
// 腾讯云 settings are used against the local emulators — which check the signatures with the secret
// the company stored — and in 'live' mode against the real services. A company without settings, or
// with provider 'log', has its messages written to the log. Phone notices (channel phone, notify type 2)
// go to the same provider's voice service (sms/voice.ts: 阿里云 Dyvmsapi, 腾讯云 VMS) when the company
// filled in its voice template, else to the log.

export interface SmsSetup {
  /** seals and opens the stored secrets */
  key: Buffer;
  mode: 'emulator' | 'live';
  aliyun: { endpoint: string; protocol: 'HTTP' | 'HTTPS'; voiceEndpoint?: string };
  tencent: { endpoint: string; protocol: 'http://' | 'https://'; agent?: Agent; voiceEndpoint?: string };
}

export interface SmsSettings {
  dataDir: string;
  SMS_MODE: 'emulator' | 'live';
  SMS_CONFIG_KEY?: string;
  SMS_ALIYUN_PORT: number;
  SMS_TENCENT_PORT: number;
  SMS_ALIYUN_ENDPOINT: string;
  SMS_TENCENT_ENDPOINT: string;
}

export interface SmsEmulators {
  aliyun: AliyunEmulator;
  tencent: TencentEmulator;
  close(): Promise<void>;
}

/** The secret stored under an AccessKey ID (what the embedded emulators check signatures with). */
function storedSecret(db: Db, key: Buffer, provider: string) {
  return async (keyId: string) => {
    const sealed = await db.tx(SYSTEM_SCOPE, (tx) => configRepo.secretsByKeyId(tx, provider, keyId));
    for (const s of sealed) {
      try {
        return openSecret(key, s);
      } catch {
        // sealed with another key: not this one
      }
    }
    return undefined;
  };
}

/** Starts the local emulators on the given ports (0 = any free port), checking signatures with the stored secrets. */
export async function startSmsEmulators(db: Db, key: Buffer, ports: { aliyun: number; tencent: number }): Promise<SmsEmulators> {
  const aliyun = await startAliyunEmulator({ keys: storedSecret(db, key, 'aliyun'), port: ports.aliyun });
  const tencent = await startTencentEmulator({ keys: storedSecret(db, key, 'tencent'), port: ports.tencent }).catch(async (e: unknown) => {
    await aliyun.close();
    throw e;
  });
  return { aliyun, tencent, close: async () => void (await Promise.all([aliyun.close(), tencent.close()])) };
}

/** The setup that points the SDKs at running emulators. */
export function emulatorSetup(key: Buffer, em: SmsEmulators): SmsSetup {
  return {
    key, mode: 'emulator',
    aliyun: { endpoint: em.aliyun.endpoint, protocol: 'HTTP', voiceEndpoint: em.aliyun.endpoint },
    tencent: { endpoint: em.tencent.endpoint, protocol: 'http://', agent: em.tencent.agent, voiceEndpoint: em.tencent.voiceEndpoint },
  };
}

/** This process's SMS setup; in emulator mode with `emulator`, the emulators are started here too. */
export async function smsFromConfig(c: SmsSettings, db: Db, o: { emulator: boolean }): Promise<{ sms: SmsSetup; emulators?: SmsEmulators }> {
  const key = smsConfigKey(c.dataDir, c.SMS_CONFIG_KEY);
  if (c.SMS_MODE === 'live') {
    return {
      sms: {
        key, mode: 'live', aliyun: { endpoint: c.SMS_ALIYUN_ENDPOINT, protocol: 'HTTPS', voiceEndpoint: 'dyvmsapi.aliyuncs.com' },
        tencent: { endpoint: c.SMS_TENCENT_ENDPOINT, protocol: 'https://', voiceEndpoint: 'vms.tencentcloudapi.com' },
      },
    };
  }
  if (o.emulator) {
    const emulators = await startSmsEmulators(db, key, { aliyun: c.SMS_ALIYUN_PORT, tencent: c.SMS_TENCENT_PORT });
    return { sms: emulatorSetup(key, emulators), emulators };
  }
  // a worker without the API: the emulators run in the API process, on the configured ports
  return {
    sms: {
      key, mode: 'emulator',
      aliyun: { endpoint: `127.0.0.1:${c.SMS_ALIYUN_PORT}`, protocol: 'HTTP', voiceEndpoint: `127.0.0.1:${c.SMS_ALIYUN_PORT}` },
      tencent: {
        endpoint: `${TENCENT_EMULATOR_HOST}:${c.SMS_TENCENT_PORT}`, protocol: 'http://', agent: emulatorAgent(), voiceEndpoint: `${TENCENT_VOICE_EMULATOR_HOST}:${c.SMS_TENCENT_PORT}`,
      },
    },
  };
}

/**
 * The provider of each company's messages, from its /sms/config settings. The providers' SDKs are loaded
 * on first use (about 1.2 s of CPU for 阿里云's and 腾讯云's together): a process whose companies only log
 * messages, such as most integration test files, never loads them.
 */
export function providersFrom(db: Db, setup: SmsSetup, log: (line: string) => void) {
  const fallback = logProvider(log);
  return async (companyId: number, channel: string): Promise<NotifyProvider> => {
    if (channel !== 'sms' && channel !== 'phone') return fallback;
    const c = await db.tx(SYSTEM_SCOPE, (tx) => configRepo.getSmsConfig(tx, companyId));
    if (!c || c.provider === 'log' || !c.secretEnc) return fallback;
    const secret = openSecret(setup.key, c.secretEnc);
    if (channel === 'phone') {
      // 语音通知 through the same provider's voice service, once its voice template is filled in
      if (!c.voiceTemplateCode) return fallback;
      if (c.provider === 'aliyun') {
        const { aliyunVoice } = await import('./voice.ts');
        return aliyunVoice({
          accessKeyId: c.accessKeyId, accessKeySecret: secret, showNumber: c.voiceShowNumber, ttsCode: c.voiceTemplateCode,
          endpoint: setup.aliyun.voiceEndpoint ?? 'dyvmsapi.aliyuncs.com', protocol: setup.aliyun.protocol,
        });
      }
      if (c.provider === 'tencent') {
        const { tencentVoice } = await import('./voice.ts');
        return tencentVoice({
          secretId: c.accessKeyId, secretKey: secret, voiceSdkAppId: c.voiceSdkAppId, templateId: c.voiceTemplateCode, region: c.region || undefined,
          endpoint: setup.tencent.voiceEndpoint ?? 'vms.tencentcloudapi.com', protocol: setup.tencent.protocol, agent: setup.tencent.agent,
        });
      }
      return fallback;
    }
    if (c.provider === 'aliyun') {
      const { aliyunSms } = await import('./aliyun.ts');
      return aliyunSms({ accessKeyId: c.accessKeyId, accessKeySecret: secret, signName: c.signName, templateCode: c.templateCode, ...setup.aliyun });
    }
    if (c.provider === 'tencent') {
      const { tencentSms } = await import('./tencent.ts');
      return tencentSms({ secretId: c.accessKeyId, secretKey: secret, sdkAppId: c.sdkAppId, signName: c.signName, templateId: c.templateCode, region: c.region || undefined, ...setup.tencent });
    }
    return fallback;
  };
}
