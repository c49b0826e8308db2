import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// Secrets stored in the database (the SMS providers' secrets, the companies' payment merchant keys)
// are sealed with AES-256-GCM: "v1:" + base64(iv 12 | tag 16 | ciphertext). The key is a configured
// text (SMS_CONFIG_KEY, PAY_CONFIG_KEY; any text, hashed to 32 bytes) or a file under DATA_DIR made at
// first start (mode 0600, never in the repository); every process of a deployment must read the same.

export class SealError extends Error {}

export function sealSecret(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return `v1:${Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64')}`;
}

/** The plain secret; throws SealError when the sealed text was not made with this key (or was altered). */
export function openSealed(key: Buffer, sealed: string): string {
  if (!sealed.startsWith('v1:')) throw new SealError('密钥格式无法识别');
  const b = Buffer.from(sealed.slice(3), 'base64');
  const d = createDecipheriv('aes-256-gcm', key, b.subarray(0, 12));
  d.setAuthTag(b.subarray(12, 28));
  try {
    return Buffer.concat([d.update(b.subarray(28)), d.final()]).toString('utf8');
  } catch {
    throw new SealError('密钥无法解密');
  }
}

/** The sealing key: from the configured text, else from DATA_DIR/<file> (made once, mode 0600). */
export function sealingKey(dataDir: string, file: string, configured?: string): Buffer {
  if (configured) return createHash('sha256').update(configured, 'utf8').digest();
  const at = path.join(dataDir, file);
  if (!fs.existsSync(at)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(at, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return createHash('sha256').update(fs.readFileSync(at, 'utf8').trim(), 'utf8').digest();
}
