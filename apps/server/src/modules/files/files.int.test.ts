import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import S3rver from 's3rver';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { UPLOAD_TOKEN_TTL_MS } from '@meter/contracts';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeCompany, makeRole, makeUser } from '../../../test/factories.ts';
import { LocalStore, S3Store } from './store.ts';
import { setupOf, type FileSetup } from './setup.ts';
import { issueToken } from './token.ts';

// Uploads end to end through the real app: tokens, the multipart upload, type and size refusals,
// private files only for their company, public files cached, byte ranges — on local disk and on an
// S3-compatible store (the s3rver emulator on loopback, through the real AWS SDK).

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a5d6c8d80000000049454e44ae426082', 'hex'),
]);
const EXE = Buffer.concat([Buffer.from('4d5a90000300000004000000ffff0000', 'hex'), randomBytes(200)]);

/** a multipart/form-data body: the fields first, then the file (as browsers send an antd Upload) */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = `----meter${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`), file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

async function tokenOf(t: TestApp, session: string, kind: 'Public' | 'Private') {
  const r = await t.call(session, { method: 'GET', url: `/yewu/api/Upload/Token?kind=${kind}` });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data as { token: string; kind: string; issuedAt: number; expiresAt: number };
}

async function upload(t: TestApp, token: string, data: Buffer, name = '照片.png', extra: Record<string, string> = {}) {
  return t.call(null, { method: 'POST', url: '/yewu/api/Upload/File', ...multipart({ token, ...extra }, { name, type: 'image/png', data }) });
}

function suite(name: string, makeSetup: () => Promise<{ setup: FileSetup; check(key: string, data: Buffer): Promise<void>; close(): Promise<void> }>) {
  describe(name, () => {
    let t: TestApp;
    let env: Awaited<ReturnType<typeof makeSetup>>;
    let demo: string;
    let other: string;
    let admin: string;
    beforeAll(async () => {
      env = await makeSetup();
      t = await testApp(undefined, { files: env.setup });
      demo = await t.login('demo', 'demo123');
      admin = await t.login('admin', 'admin123');
      const b = await makeCompany(t.owner);
      const u = await makeUser(t.owner, { companyId: b, roleId: await makeRole(t.owner, b, ['home']) });
      other = await t.login(u.username, u.password);
    });
    afterAll(async () => {
      await t?.close();
      await env?.close();
    });

    it('a private upload is served to its company and the platform, refused to another company and to nobody', async () => {
      const tok = await tokenOf(t, demo, 'Private');
      expect(tok.expiresAt - tok.issuedAt).toBe(UPLOAD_TOKEN_TTL_MS);
      const up = await upload(t, tok.token, PNG);
      expect(up.body.code, JSON.stringify(up.body)).toBe('SUCCESS');
      expect(up.body.data).toMatchObject({ kind: 'Private', category: 'image', mime: 'image/png', name: '照片.png', size: PNG.length });
      const key = up.body.data.key as string;
      expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
      await env.check(`private/${key}`, PNG);
      const { rows } = await t.owner.query(`SELECT f.company_id, f.store, u.username FROM files f JOIN admin_users u ON u.id = f.uploaded_by WHERE key = $1`, [key]);
      expect(rows[0]).toMatchObject({ store: env.setup.store.name, username: 'demo' });
      expect(rows[0].company_id).not.toBeNull();

      const mine = await t.app.inject({ method: 'GET', url: `/yewu/api/Upload/Private/${key}`, headers: { authorization: demo } });
      expect(mine.statusCode).toBe(200);
      expect(mine.rawPayload.equals(PNG)).toBe(true);
      expect(mine.headers['content-type']).toBe('image/png');
      expect(mine.headers['cache-control']).toBe('private, max-age=3600');
      expect((await t.app.inject({ method: 'GET', url: `/yewu/api/Upload/Private/${key}`, headers: { authorization: admin } })).statusCode).toBe(200);

      const theirs = await t.call(other, { method: 'GET', url: `/yewu/api/Upload/Private/${key}` });
      expect(theirs.status).toBe(403);
      expect(theirs.body.message).toBe('无权查看该文件');
      expect((await t.call(null, { method: 'GET', url: `/yewu/api/Upload/Private/${key}` })).status).toBe(401);
      // nor through the public path
      expect((await t.call(null, { method: 'GET', url: `/yewu/api/Upload/Public/${key}` })).status).toBe(404);
    });

    it('a public upload is served to anyone, cached, and in byte ranges', async () => {
      const tok = await tokenOf(t, admin, 'Public');
      const up = await upload(t, tok.token, PNG, 'logo.png', { accept: 'image' });
      expect(up.body.code, JSON.stringify(up.body)).toBe('SUCCESS');
      const url = `/yewu/api/Upload/Public/${up.body.data.key}`;
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(PNG)).toBe(true);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['accept-ranges']).toBe('bytes');
      expect((await t.app.inject({ method: 'GET', url, headers: { 'if-none-match': String(res.headers.etag) } })).statusCode).toBe(304);
      const part = await t.app.inject({ method: 'GET', url, headers: { range: 'bytes=8-15' } });
      expect(part.statusCode).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 8-15/${PNG.length}`);
      expect(part.rawPayload.equals(PNG.subarray(8, 16))).toBe(true);
      expect((await t.app.inject({ method: 'GET', url, headers: { range: `bytes=${PNG.length}-` } })).statusCode).toBe(416);
    });

    it('refuses by content, not by name: a program named .png, another type than asked for, an empty file', async () => {
      const tok = (await tokenOf(t, demo, 'Private')).token;
      const exe = await upload(t, tok, EXE, '发票.png');
      expect(exe.body).toMatchObject({ code: 'UPLOAD_TYPE' });
      expect(exe.body.message).toMatch(/^不支持的文件类型：仅支持图片/);
      const asked = await upload(t, tok, PNG, 'a.png', { accept: 'video' });
      expect(asked.body.message).toBe('文件类型不符：请上传视频（MP4、WebM、OGG、MOV）');
      expect((await upload(t, tok, Buffer.alloc(0), 'empty.png')).body.message).toBe('文件为空，请重新选择');
      const big = Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]);
      expect((await upload(t, tok, big, 'big.png')).body.message).toMatch(/^文件过大：图片不能超过 10 MB/);
      const none = await t.call(null, { method: 'POST', url: '/yewu/api/Upload/File', ...multipart({ token: tok }) });
      expect(none.body.message).toBe('请选择要上传的文件');
      const json = await t.call(null, { method: 'POST', url: '/yewu/api/Upload/File', payload: { token: tok } });
      expect(json.status).toBeGreaterThanOrEqual(400);
      expect(json.body.message).toMatch(/[\u4e00-\u9fa5]/);
      // nothing of the refused uploads was kept
      const { rows } = await t.owner.query(`SELECT count(*)::int AS n FROM files WHERE name IN ('发票.png', 'empty.png', 'big.png')`);
      expect(rows[0].n).toBe(0);
    });

    it('an expired, forged or missing token uploads nothing', async () => {
      const [{ id, company_id }] = (await t.owner.query(`SELECT id, company_id FROM admin_users WHERE username = 'demo'`)).rows;
      const old = issueToken(env.setup.tokenKey, { kind: 'Private', companyId: Number(company_id), userId: Number(id), issuedAt: Date.now() - UPLOAD_TOKEN_TTL_MS - 1000 });
      const expired = await upload(t, old.token, PNG);
      expect(expired.body).toMatchObject({ code: 'UPLOAD_TOKEN_EXPIRED', message: '上传凭证已过期，请重新上传' });
      const forged = issueToken(randomBytes(32), { kind: 'Private', companyId: Number(company_id), userId: Number(id), issuedAt: Date.now() });
      expect((await upload(t, forged.token, PNG)).body.code).toBe('UPLOAD_TOKEN_INVALID');
      expect((await upload(t, '', PNG)).body.code).toBe('UPLOAD_TOKEN_MISSING');
      expect((await t.call(demo, { method: 'GET', url: '/yewu/api/Upload/Token?kind=Secret' })).status).toBe(400);
      expect((await t.call(null, { method: 'GET', url: '/yewu/api/Upload/Token?kind=Public' })).status).toBe(401);
    });
  });
}

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'meter-up-'));

suite('uploads on local disk', async () => {
  const dir = tmp();
  const local = new LocalStore(dir);
  return {
    setup: setupOf(local, randomBytes(32), path.join(dir, '.incoming'), local),
    async check(key, data) {
      expect(fs.readFileSync(path.join(dir, key)).equals(data)).toBe(true);
      expect(fs.readdirSync(path.join(dir, '.incoming'))).toEqual([]);
    },
    async close() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});

suite('uploads on an S3-compatible store (s3rver emulator, AWS SDK)', async () => {
  const dir = tmp();
  // a free port of loopback: files running side by side (and an e2e run) never meet on it
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dir, 's3') });
  const { port } = await server.run();
  const s3 = new S3Store({
    endpoint: `http://127.0.0.1:${port}`, region: 'us-east-1', bucket: 'meter-uploads', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER',
    forcePathStyle: true, prefix: 'test/',
  });
  // the bucket does not exist yet: made at start
  await s3.ensureBucket();
  await s3.ensureBucket();
  return {
    setup: setupOf(s3, randomBytes(32), path.join(dir, '.incoming'), new LocalStore(path.join(dir, 'local'))),
    async check(key, data) {
      const o = await s3.client.send(new GetObjectCommand({ Bucket: 'meter-uploads', Key: `test/${key}` }));
      expect(Buffer.from(await o.Body!.transformToByteArray()).equals(data)).toBe(true);
      expect(o.ContentType).toBe('image/png');
      expect(fs.existsSync(path.join(dir, 'local', key))).toBe(false);
    },
    async close() {
      s3.close();
      await server.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
});
