import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { sealingKey } from '../../sealed.ts';
import { LocalStore, S3Store, type FileStore } from './store.ts';

// The upload setup of a process: where new files go, the stores old files may be in, the key the
// upload tokens are signed with and where an upload is spooled while it is checked.

export interface FileSetup {
  /** where new uploads are written */
  store: FileStore;
  /** every store a file's row may name (local is always readable: files written before a move to S3) */
  stores: Partial<Record<FileStore['name'], FileStore>>;
  tokenKey: Buffer;
  /** uploads are written here first, then checked and moved to the store */
  tmpDir: string;
}

export function setupOf(store: FileStore, tokenKey: Buffer, tmpDir: string, local?: LocalStore): FileSetup {
  return { store, stores: { local, [store.name]: store }, tokenKey, tmpDir };
}

/** Local disk under a directory of its own, with a key of this process only (tests, an app built without a setup). */
export function localFiles(dir = path.join(os.tmpdir(), `meter-uploads-${process.pid}`), tokenKey = randomBytes(32)): FileSetup {
  return setupOf(new LocalStore(dir), tokenKey, path.join(dir, '.incoming'));
}

/** From the environment (docs/OPERATIONS.md «Uploads»): UPLOAD_STORE, UPLOAD_DIR, S3_*, UPLOAD_TOKEN_KEY. */
export async function filesFromConfig(c: Config): Promise<FileSetup> {
  const dir = c.UPLOAD_DIR ? path.resolve(c.UPLOAD_DIR) : path.join(c.dataDir, 'uploads');
  const local = new LocalStore(dir);
  const key = sealingKey(c.dataDir, 'upload-token-key', c.UPLOAD_TOKEN_KEY);
  const tmpDir = path.join(dir, '.incoming');
  if (c.UPLOAD_STORE !== 's3') return setupOf(local, key, tmpDir, local);
  if (!c.S3_BUCKET) throw new Error('UPLOAD_STORE=s3 需要设置 S3_BUCKET');
  const s3 = new S3Store({
    endpoint: c.S3_ENDPOINT, region: c.S3_REGION, bucket: c.S3_BUCKET, accessKeyId: c.S3_ACCESS_KEY_ID,
    secretAccessKey: c.S3_SECRET_ACCESS_KEY, forcePathStyle: c.S3_FORCE_PATH_STYLE, prefix: c.S3_PREFIX,
  });
  await s3.ensureBucket();
  return setupOf(s3, key, tmpDir, local);
}
