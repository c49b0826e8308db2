// Build step: a brotli (.br) and a gzip (.gz) copy beside every text asset of the build, so the server
// (@fastify/static preCompressed) sends them as they are, without compressing on each request.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map)$/;

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    const p = join(dir, name);
    if ((await stat(p)).isDirectory()) {
      // .vite holds the manifest for the bundle bench, never served
      if (name !== '.vite') out.push(...(await filesUnder(p)));
    } else if (COMPRESSIBLE.test(name)) out.push(p);
  }
  return out;
}

export interface CompressedFile {
  file: string;
  bytes: number;
  br?: number;
  gzip?: number;
}

/** Writes file.br and file.gz for each compressible file under dir (a copy only where it is smaller). */
export async function compressDir(dir: string): Promise<CompressedFile[]> {
  const done: CompressedFile[] = [];
  for (const file of await filesUnder(dir)) {
    const raw = await readFile(file);
    const [b, g] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gz(raw, { level: 9 }),
    ]);
    const entry: CompressedFile = { file, bytes: raw.length };
    if (b.length < raw.length) {
      await writeFile(`${file}.br`, b);
      entry.br = b.length;
    }
    if (g.length < raw.length) {
      await writeFile(`${file}.gz`, g);
      entry.gzip = g.length;
    }
    done.push(entry);
  }
  return done;
}

/** The Vite plugin: compresses the written build once it is complete. */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'meter-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = await compressDir(outDir);
      const sum = (k: 'bytes' | 'br' | 'gzip') => files.reduce((a, f) => a + (f[k] ?? f.bytes), 0) / 1024;
      this.info(`precompressed ${files.length} files: ${sum('bytes').toFixed(0)} KB → br ${sum('br').toFixed(0)} KB, gzip ${sum('gzip').toFixed(0)} KB`);
    },
  };
}
