import { afterEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { compressDir } from './precompress.ts';

let dir = '';
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('compressDir', () => {
  it('writes .br and .gz copies that decompress to the original, for text assets only', async () => {
    dir = mkdtempSync(join(tmpdir(), 'meter-precompress-'));
    mkdirSync(join(dir, 'assets'));
    mkdirSync(join(dir, '.vite'));
    const js = 'export function 房间(n){return n*2}\n'.repeat(300);
    writeFileSync(join(dir, 'assets/app-AbCdEf12.js'), js);
    writeFileSync(join(dir, 'index.html'), '<!doctype html>'.repeat(50));
    writeFileSync(join(dir, 'assets/logo-AbCdEf12.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    writeFileSync(join(dir, '.vite/manifest.json'), '{}'.repeat(100));
    // a file that does not get smaller keeps no compressed copy
    writeFileSync(join(dir, 'tiny.txt'), 'x');

    const files = await compressDir(dir);

    const p = join(dir, 'assets/app-AbCdEf12.js');
    expect(brotliDecompressSync(readFileSync(`${p}.br`)).toString()).toBe(js);
    expect(gunzipSync(readFileSync(`${p}.gz`)).toString()).toBe(js);
    expect(readFileSync(`${p}.br`).length).toBeLessThan(js.length / 10);
    expect(existsSync(join(dir, 'index.html.br'))).toBe(true);
    expect(existsSync(join(dir, 'assets/logo-AbCdEf12.png.br'))).toBe(false);
    expect(existsSync(join(dir, '.vite/manifest.json.br'))).toBe(false);
    expect(existsSync(join(dir, 'tiny.txt.br'))).toBe(false);
    expect(files.map((f) => f.file).sort()).toEqual([p, join(dir, 'index.html'), join(dir, 'tiny.txt')].sort());
  });
});
