import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { UPLOAD_TOKEN_REFRESH_MS, UPLOAD_TOKEN_TTL_MS } from '@meter/contracts';
import { mayRead } from './access.ts';
import { checkUpload, detect } from './limits.ts';
import { parseRange } from './range.ts';
import { cleanName } from './service.ts';
import { issueToken, verifyToken } from './token.ts';

// The pure parts of uploads: type detection by magic bytes, limits and their Chinese refusals, tokens,
// byte ranges, who may read a file.

/** the smallest valid PNG: signature + IHDR (1×1) */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c489', 'hex');
const JPEG = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
/** an ISO BMFF header: ftyp isom (an MP4) */
const MP4 = Buffer.from('0000001c667479706973766d0000020069736f6d69736f32', 'hex');
const PDF = Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj\n', 'latin1');
const EXE = Buffer.from('4d5a90000300000004000000ffff0000', 'hex');

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  return 'no refusal';
};

describe('type detection reads the first bytes, not the name', () => {
  it('knows images, videos and documents', async () => {
    expect(await detect(PNG)).toEqual({ mime: 'image/png', ext: 'png', category: 'image' });
    expect(await detect(JPEG)).toMatchObject({ mime: 'image/jpeg', category: 'image' });
    expect(await detect(MP4)).toMatchObject({ mime: 'video/mp4', ext: 'mp4', category: 'video' });
    expect(await detect(PDF)).toMatchObject({ mime: 'application/pdf', category: 'document' });
  });

  it('refuses what it does not know or does not store, in Chinese', async () => {
    expect(await detect(EXE)).toBeNull(); // a Windows program: file-type knows it, we do not store it
    expect(await detect(Buffer.from('hello, world: a text file renamed to .png'))).toBeNull();
    expect(refusal(() => checkUpload(null, 100))).toMatch(/^不支持的文件类型：仅支持图片（JPG、PNG、GIF、WebP、BMP）/);
  });
});

describe('limits', () => {
  it('each category has its own size limit', async () => {
    const png = await detect(PNG);
    expect(checkUpload(png, 10 * 1024 * 1024)).toEqual(png);
    expect(refusal(() => checkUpload(png, 10 * 1024 * 1024 + 1))).toBe('文件过大：图片不能超过 10 MB（当前 10.0 MB）');
    expect(refusal(() => checkUpload(png, 12.5 * 1024 * 1024))).toBe('文件过大：图片不能超过 10 MB（当前 12.5 MB）');
    const mp4 = await detect(MP4);
    expect(checkUpload(mp4, 150 * 1024 * 1024)).toEqual(mp4);
    expect(refusal(() => checkUpload(mp4, 201 * 1024 * 1024))).toMatch(/^文件过大：视频不能超过 200 MB/);
  });

  it('an empty file, or another category than the page asked for, is refused', async () => {
    expect(refusal(() => checkUpload(null, 0))).toBe('文件为空，请重新选择');
    expect(refusal(() => checkUpload(null, 10, 'image'))).toBe('文件类型不符：请上传图片（JPG、PNG、GIF、WebP、BMP）');
    const mp4 = await detect(MP4);
    expect(refusal(() => checkUpload(mp4, 10, 'image'))).toBe('文件类型不符：请上传图片（JPG、PNG、GIF、WebP、BMP）');
    expect(checkUpload(mp4, 10, 'video')).toEqual(mp4);
  });

  it('file names keep no path and no control characters', () => {
    expect(cleanName('C:\\Users\\甲\\照片.png')).toBe('照片.png');
    expect(cleanName('../../etc/passwd')).toBe('passwd');
    expect(cleanName('a\u0000b\u001f.png')).toBe('ab.png');
    expect(cleanName('')).toBe('未命名');
  });
});

describe('upload tokens', () => {
  const key = randomBytes(32);
  const t0 = Date.parse('2026-11-26T02:00:00Z');
  const claims = { kind: 'Private' as const, companyId: 7, userId: 3, issuedAt: t0 };

  it('carry kind, company and user, and are accepted until their lifetime ends', () => {
    const t = issueToken(key, claims);
    expect(t).toMatchObject({ kind: 'Private', issuedAt: t0, expiresAt: t0 + UPLOAD_TOKEN_TTL_MS });
    expect(verifyToken(key, t.token, t0 + 1000)).toEqual(claims);
    // the web asks for a new one before the server stops accepting the old one
    expect(UPLOAD_TOKEN_REFRESH_MS).toBe(3_000_000);
    expect(UPLOAD_TOKEN_TTL_MS).toBeGreaterThan(UPLOAD_TOKEN_REFRESH_MS);
    expect(verifyToken(key, t.token, t0 + UPLOAD_TOKEN_TTL_MS)).toEqual(claims);
  });

  it('an expired, altered, foreign or missing token is refused', () => {
    const t = issueToken(key, claims).token;
    expect(refusal(() => verifyToken(key, t, t0 + UPLOAD_TOKEN_TTL_MS + 1))).toBe('上传凭证已过期，请重新上传');
    const [v, payload, mac] = t.split('.');
    const forged = Buffer.from(JSON.stringify({ k: 'Private', c: 8, u: 3, t: t0 })).toString('base64url');
    expect(refusal(() => verifyToken(key, `${v}.${forged}.${mac}`, t0))).toBe('上传凭证无效，请刷新页面后重试');
    expect(refusal(() => verifyToken(randomBytes(32), t, t0))).toBe('上传凭证无效，请刷新页面后重试');
    expect(refusal(() => verifyToken(key, `${v}.${payload}`, t0))).toBe('上传凭证无效，请刷新页面后重试');
    expect(refusal(() => verifyToken(key, undefined, t0))).toBe('缺少上传凭证，请刷新页面后重试');
    // made in the future (a clock far off): refused too
    expect(refusal(() => verifyToken(key, issueToken(key, { ...claims, issuedAt: t0 + 3600_000 }).token, t0))).toBe('上传凭证无效，请刷新页面后重试');
  });
});

describe('byte ranges', () => {
  it('one range is served, anything else whole or refused', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
    expect(parseRange('items=0-1', 100)).toBeNull();
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange('bytes=9-3', 100)).toBe('unsatisfiable');
  });
});

describe('who may read a file (the one place)', () => {
  const priv = { kind: 'Private', companyId: 1, roomId: 11 };
  it('public files: anyone; private: the platform and the owning company', () => {
    expect(mayRead(null, { ...priv, kind: 'Public' })).toBe(true);
    expect(mayRead(null, priv)).toBe(false);
    expect(mayRead({ platform: true, companyId: null }, priv)).toBe(true);
    expect(mayRead({ platform: false, companyId: 1 }, priv)).toBe(true);
    expect(mayRead({ platform: false, companyId: 2 }, priv)).toBe(false);
    expect(mayRead({ platform: false, companyId: 2 }, { ...priv, companyId: null })).toBe(false);
  });
  it('owners: only their rooms’ files of their company', () => {
    expect(mayRead({ platform: false, companyId: 1, roomIds: [11] }, priv)).toBe(true);
    expect(mayRead({ platform: false, companyId: 1, roomIds: [12] }, priv)).toBe(false);
    expect(mayRead({ platform: false, companyId: 2, roomIds: [11] }, priv)).toBe(false);
  });
});
