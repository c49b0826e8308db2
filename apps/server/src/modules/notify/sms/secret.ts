import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { secretKey } from '../../../key-file.ts';

// The SMS providers' secrets (阿里云 AccessKey Secret, 腾讯云 SecretKey) are stored sealed with
// AES-256-GCM: "v1:" + base64(iv 12 | tag 16 | ciphertext). The key is SMS_CONFIG_KEY (any text,
// hashed to 32 bytes) or DATA_DIR/sms-config-key, made at first start; every process of a deployment
// (api, worker) must read the same one.

export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
}

/** The plain secret; throws when the sealed text was not made with this key (or was altered). */
export function openSecret(key: Buffer, sealed: string): string {
  if (!sealed.startsWith('v1:')) throw new Error('短信密钥格式无法识别');
  const b = Buffer.from(sealed.slice(3), 'base64');
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
  d.setAuthTag(b.subarray(12, 28));
  try {
    return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
  } catch {
    throw new Error('短信密钥无法解密（SMS_CONFIG_KEY 与保存时不同？请重新填写密钥）');
  }
}

/** The sealing key: from the configured text, else from DATA_DIR/sms-config-key (made once, mode 0600). */
export function smsConfigKey(dataDir: string, configured?: string): Buffer {
  return secretKey(dataDir, 'sms-config-key', configured);
}
