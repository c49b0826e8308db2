// The built web app as the server sends it: precompressed brotli/gzip copies chosen by Accept-Encoding,
// hashed assets cached for a year (immutable), the app shell (index.html, SPA fallback) revalidated.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { testApp, type TestApp } from '../../test/helpers.ts';

const JS = `export const rows = ${JSON.stringify(Array.from({ length: 200 }, (_, i) => ({ id: i, name: `房间${i}` })))};\n`;
const HTML = '<!doctype html><html lang="zh-CN"><head><script type="module" src="/assets/index-AbC_d-12.js"></script></head><body><div id="root"></div></body></html>';
const ASSET = '/assets/index-AbC_d-12.js';
const IMMUTABLE = 'public, max-age=31536000, immutable';

let t: TestApp;
let dist: string;

function write(rel: string, text: string) {
  const p = join(dist, rel);
  writeFileSync(p, text);
  writeFileSync(`${p}.br`, brotliCompressSync(Buffer.from(text)));
  writeFileSync(`${p}.gz`, gzipSync(Buffer.from(text)));
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'meter-web-dist-'));
  mkdirSync(join(dist, 'assets'));
  write('index.html', HTML);
  write(ASSET.slice(1), JS);
  t = await testApp(undefined, { webDist: dist });
});

afterAll(async () => {
  await t?.close();
  rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding === undefined ? {} : { 'accept-encoding': encoding } });

describe('static web assets', () => {
  it('a hashed asset asked with Accept-Encoding: br answers brotli, cached a year and immutable', async () => {
    const res = await get(ASSET, 'br');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.headers.vary).toMatch(/accept-encoding/i);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(JS);
    expect(res.rawPayload.length).toBeLessThan(JS.length / 3);
  });

  it('gzip when the browser accepts only gzip; br preferred when both are accepted', async () => {
    const gz = await get(ASSET, 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['cache-control']).toBe(IMMUTABLE);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(JS);
    const both = await get(ASSET, 'gzip, deflate, br, zstd');
    expect(both.headers['content-encoding']).toBe('br');
  });

  it('without Accept-Encoding the file goes out as it is, still immutable', async () => {
    const res = await get(ASSET);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(res.body).toBe(JS);
  });

  it('index.html and the SPA fallback of a page URL are no-cache (and compressed too)', async () => {
    for (const url of ['/index.html', '/', '/recordsRoom?x=1']) {
      const res = await get(url, 'br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(res.headers['content-type'], url).toMatch(/text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(brotliDecompressSync(res.rawPayload).toString(), url).toBe(HTML);
    }
    const plain = await get('/home');
    expect(plain.headers['cache-control']).toBe('no-cache');
    expect(plain.body).toBe(HTML);
  });

  it('a missing asset is a 404, not the app shell', async () => {
    const res = await get('/assets/nothing-AAAAAAAA.js', 'br');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
  });
});
