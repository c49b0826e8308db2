import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { CreateBucketCommand, DeleteObjectCommand, GetObjectCommand, HeadBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';

// Where uploaded bytes live (docs/OPERATIONS.md «Uploads»): a directory on local disk (default,
// DATA_DIR/uploads) or any S3-compatible object store (UPLOAD_STORE=s3: AWS S3, MinIO, OSS/COS in S3
// mode…) through the AWS SDK. The database row (files) says which store holds a file; the store only
// keeps bytes under `<kind>/<key>`.

/** an inclusive byte range */
export interface ByteRange {
  start: number;
  end: number;
}

export interface FileStore {
  readonly name: 'local' | 's3';
  /** stores the bytes of a local (temporary) file under `key` */
  put(key: string, file: string, size: number, mime: string): Promise<void>;
  /** the bytes (or some of them); null when the store has no such key */
  get(key: string, range?: ByteRange): Promise<Readable | null>;
  remove(key: string): Promise<void>;
}

export class LocalStore implements FileStore {
  readonly name = 'local' as const;
  constructor(readonly root: string) {}

  private pathOf(key: string) {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`文件路径越界：${key}`);
    return p;
  }

  async put(key: string, file: string) {
    const to = this.pathOf(key);
    await fsp.mkdir(path.dirname(to), { recursive: true });
    try {
      await fsp.rename(file, to);
    } catch (e) {
      // another file system (a temporary directory elsewhere): copy instead
      if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
      await fsp.copyFile(file, to);
    }
  }

  async get(key: string, range?: ByteRange) {
    const p = this.pathOf(key);
    try {
      await fsp.access(p);
    } catch {
      return null;
    }
    return fs.createReadStream(p, range ? { start: range.start, end: range.end } : {});
  }

  async remove(key: string) {
    await fsp.rm(this.pathOf(key), { force: true });
  }
}

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** path-style URLs (MinIO and most self-hosted stores need them) */
  forcePathStyle: boolean;
  /** prepended to every key, so deployments can share a bucket */
  prefix: string;
}

export class S3Store implements FileStore {
  readonly name = 's3' as const;
  readonly client: S3Client;
  constructor(readonly s: S3Settings) {
    this.client = new S3Client({
      region: s.region,
      endpoint: s.endpoint,
      forcePathStyle: s.forcePathStyle,
      // checksums only where the API requires them: S3-compatible stores (MinIO, OSS, COS, emulators)
      // do not all accept the SDK's default aws-chunked uploads with checksum trailers
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(s.accessKeyId && s.secretAccessKey && { credentials: { accessKeyId: s.accessKeyId, secretAccessKey: s.secretAccessKey } }),
    });
  }

  /** creates the bucket when it does not exist yet (a store that forbids it must have it made beforehand) */
  async ensureBucket() {
    try {
      await this.client.send(new HeadBucketCommand({ Bucket: this.s.bucket }));
    } catch (e) {
      const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (status !== 404) throw e;
      await this.client.send(new CreateBucketCommand({ Bucket: this.s.bucket }));
    }
  }

  async put(key: string, file: string, size: number, mime: string) {
    await this.client.send(new PutObjectCommand({
      Bucket: this.s.bucket, Key: this.s.prefix + key, Body: fs.createReadStream(file), ContentLength: size, ContentType: mime,
    }));
  }

  async get(key: string, range?: ByteRange) {
    try {
      const r = await this.client.send(new GetObjectCommand({
        Bucket: this.s.bucket, Key: this.s.prefix + key, ...(range && { Range: `bytes=${range.start}-${range.end}` }),
      }));
      if (!r.Body) return null;
      // in Node the SDK answers a stream of the HTTP response
      if (!(r.Body instanceof Readable)) throw new Error('对象存储应答的内容不是数据流');
      return r.Body;
    } catch (e) {
      if ((e as { name?: string }).name === 'NoSuchKey') return null;
      throw e;
    }
  }

  async remove(key: string) {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.s.prefix + key }));
  }

  close() {
    this.client.destroy();
  }
}
