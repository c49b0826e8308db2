import { openSealed, sealingKey, sealSecret } from '../../../sealed.ts';

// The SMS providers' secrets (阿里云 AccessKey Secret, 腾讯云 SecretKey) are stored sealed
// (sealed.ts: AES-256-GCM). The key is SMS_CONFIG_KEY or DATA_DIR/sms-config-key, made at first start;
// every process of a deployment (api, worker) must read the same one.

export { sealSecret };

/** The plain secret; throws when the sealed text was not made with this key (or was altered). */
export function openSecret(key: Buffer, sealed: string): string {
  try {
    return openSealed(key, sealed);
  } catch {
    throw new Error(sealed.startsWith('v1:') ? '短信密钥无法解密（SMS_CONFIG_KEY 与保存时不同？请重新填写密钥）' : '短信密钥格式无法识别');
  }
}

/** The sealing key: from the configured text, else from DATA_DIR/sms-config-key (made once, mode 0600). */
export const smsConfigKey = (dataDir: string, configured?: string): Buffer => sealingKey(dataDir, 'sms-config-key', configured);
