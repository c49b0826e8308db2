import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A 32-byte key: from the configured text (any text, hashed), else from DATA_DIR/<name>, made once
 * (mode 0600) at first start. Every process of a deployment must read the same one (same DATA_DIR, or
 * the same configured text). Used for the SMS secrets' seal and the upload tokens' signature.
 */
export function secretKey(dataDir: string, name: string, configured?: string): Buffer {
  if (configured) return createHash('sha256').update(configured, 'utf8').digest();
  const file = path.join(dataDir, name);
  if (!fs.existsSync(file)) {
    fs.mkdirSync(dataDir, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  }
  return createHash('sha256').update(fs.readFileSync(file, 'utf8').trim(), 'utf8').digest();
}
