/**
 * Fuzz test: ≥ 100,000 random and mutated frames through both decoders and the stream splitter.
 *
 * Invariants checked for every input:
 * - `dlt645.decode` / `cjt188.decode` either return a frame or throw a `ProtocolError` — nothing else;
 * - a successful decode implies the input is a well-formed frame with a correct checksum (checked
 *   by an independent reference implementation below), and re-encoding the result gives back the
 *   exact input bytes;
 * - every input that is well-formed except for its checksum is rejected with code `CHECKSUM`;
 * - the splitter never throws, never holds more than `maxBuffer` bytes, and only emits frames that
 *   the reference accepts.
 *
 * Set FUZZ_ITERATIONS to run longer (e.g. FUZZ_ITERATIONS=2000000).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { dlt645 } from './dlt645.ts';
import { cjt188 } from './cjt188.ts';
import { FrameSplitter } from './splitter.ts';
import { concatBytes, fromHex, toHex } from './bcd.ts';
import { ProtocolError } from './errors.ts';
import { cjtMessage, dltMessage } from './arbitraries.test-util.ts';

const ITERATIONS = Number(process.env.FUZZ_ITERATIONS ?? 100_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);

type Proto = 'dlt645' | 'cjt188';

/** Independent reference check: is `bytes` one well-formed frame, and is its checksum right? */
function reference(bytes: Uint8Array, proto: Proto): { wellFormed: boolean; checksumOk: boolean } {
  let p = 0;
  while (p < bytes.length && bytes[p] === 0xfe) p++;
  const overhead = proto === 'dlt645' ? 12 : 13;
  const lenAt = proto === 'dlt645' ? 9 : 10;
  const n = bytes.length - p;
  if (n < overhead || bytes[p] !== 0x68) return { wellFormed: false, checksumOk: false };
  if (proto === 'dlt645' && bytes[p + 7] !== 0x68) return { wellFormed: false, checksumOk: false };
  const total = overhead + bytes[p + lenAt];
  if (n !== total || bytes[bytes.length - 1] !== 0x16) return { wellFormed: false, checksumOk: false };
  let sum = 0;
  for (let i = p; i < bytes.length - 2; i++) sum += bytes[i];
  return { wellFormed: true, checksumOk: (sum & 0xff) === bytes[bytes.length - 2] };
}

/** mulberry32: small, fast, seedable. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n: number) => Math.floor(next() * n), byte: () => Math.floor(next() * 256) };
}

function buildPool(): { bytes: Uint8Array; proto: Proto }[] {
  const pool: { bytes: Uint8Array; proto: Proto }[] = [];
  const dlt = fc.sample(fc.tuple(dltMessage, fc.integer({ min: 0, max: 4 })), { numRuns: 2000, seed: SEED });
  for (const [m, pre] of dlt) pool.push({ bytes: dlt645.encode(m, { preamble: pre }), proto: 'dlt645' });
  const cjt = fc.sample(fc.tuple(cjtMessage, fc.integer({ min: 0, max: 4 })), { numRuns: 2000, seed: SEED + 1 });
  for (const [m, pre] of cjt) pool.push({ bytes: cjt188.encode(m, { preamble: pre }), proto: 'cjt188' });
  // A few published frames as seeds too.
  for (const h of [
    'FE FE FE FE 68 61 01 00 00 00 00 68 11 04 33 33 34 33 14 16',
    '68 61 01 00 00 00 00 68 91 07 33 34 35 35 CC 7C 33 16 16',
    '68 11 11 11 11 11 11 68 1C 10 33 33 33 33 33 33 33 33 4D 33 57 74 48 45 38 4B 55 16',
    'FE FE FE FE 68 60 07 92 04 00 91 68 D1 01 37 67 16',
  ]) {
    pool.push({ bytes: fromHex(h), proto: 'dlt645' });
  }
  for (const h of [
    '68 10 88 05 27 10 15 20 00 81 16 90 1F 01 00 00 00 00 2C 00 00 00 00 2C 06 20 17 09 01 17 20 00 00 8E 16',
    'FE FE FE 68 10 01 13 12 19 00 00 00 04 04 A0 17 01 55 CC 16',
  ]) {
    pool.push({ bytes: fromHex(h), proto: 'cjt188' });
  }
  return pool;
}

const HEARTBEAT = Uint8Array.from('HB:0001', (c) => c.charCodeAt(0));

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

type Mutation =
  | 'none'
  | 'bitflip'
  | 'truncate'
  | 'insert'
  | 'delete'
  | 'overwrite'
  | 'checksum'
  | 'length'
  | 'random'
  | 'concat'
  | 'contentFixedChecksum';
const MUTATIONS: Mutation[] = ['none', 'bitflip', 'truncate', 'insert', 'delete', 'overwrite', 'checksum', 'length', 'random', 'concat', 'contentFixedChecksum'];

describe('fuzz: decoders and splitter under random and mutated input', () => {
  it(`${ITERATIONS} inputs: only ProtocolError, bad checksums always rejected, re-encode exact`, () => {
    const rnd = prng(SEED);
    const pool = buildPool();
    const splitter = new FrameSplitter({ maxBuffer: 4096 });
    const codes: Record<string, number> = {};
    const stats = {
      inputs: 0,
      decodedOk: 0,
      checksumRejected: 0,
      badChecksumInputs: 0,
      splitterFrames: 0,
      splitterText: 0,
      intactPushed: 0,
    };
    const fail = (what: string, bytes: Uint8Array, e?: unknown) => {
      throw new Error(`${what}\ninput: ${toHex(bytes)}\n${e instanceof Error ? e.stack : String(e ?? '')}`);
    };

    for (let iter = 0; iter < ITERATIONS; iter++) {
      const base = pool[rnd.int(pool.length)];
      const mutation = MUTATIONS[rnd.int(MUTATIONS.length)];
      let bytes: Uint8Array = base.bytes.slice();
      switch (mutation) {
        case 'none':
          break;
        case 'bitflip':
          for (let k = 1 + rnd.int(3); k > 0; k--) {
            const i = rnd.int(bytes.length);
            bytes[i] ^= 1 << rnd.int(8);
          }
          break;
        case 'truncate':
          bytes = bytes.slice(0, rnd.int(bytes.length));
          break;
        case 'insert': {
          const at = rnd.int(bytes.length + 1);
          const extra = Uint8Array.from({ length: 1 + rnd.int(4) }, () => (rnd.next() < 0.2 ? 0x68 : rnd.byte()));
          bytes = concatBytes(bytes.subarray(0, at), extra, bytes.subarray(at));
          break;
        }
        case 'delete': {
          const at = rnd.int(bytes.length);
          bytes = concatBytes(bytes.subarray(0, at), bytes.subarray(at + 1 + rnd.int(4)));
          break;
        }
        case 'overwrite':
          bytes[rnd.int(bytes.length)] = rnd.byte();
          break;
        case 'checksum':
          bytes[bytes.length - 2] = (bytes[bytes.length - 2] + 1 + rnd.int(255)) & 0xff;
          break;
        case 'length': {
          let p = 0;
          while (bytes[p] === 0xfe) p++;
          const at = p + (base.proto === 'dlt645' ? 9 : 10);
          bytes[at] = rnd.byte();
          break;
        }
        case 'random':
          bytes = Uint8Array.from({ length: rnd.int(300) }, () => rnd.byte());
          if (bytes.length > 0 && rnd.next() < 0.5) bytes[0] = 0x68;
          break;
        case 'concat':
          bytes = concatBytes(bytes, pool[rnd.int(pool.length)].bytes);
          break;
        case 'contentFixedChecksum': {
          // Corrupt the data field but repair the checksum: exercises BCD / layout errors.
          let p = 0;
          while (bytes[p] === 0xfe) p++;
          const dataStart = p + (base.proto === 'dlt645' ? 10 : 11);
          const dataEnd = bytes.length - 2;
          if (dataEnd > dataStart) {
            for (let k = 1 + rnd.int(3); k > 0; k--) bytes[dataStart + rnd.int(dataEnd - dataStart)] = rnd.byte();
            let sum = 0;
            for (let i = p; i < dataEnd; i++) sum += bytes[i];
            bytes[dataEnd] = sum & 0xff;
          }
          break;
        }
      }
      stats.inputs++;

      for (const proto of ['dlt645', 'cjt188'] as const) {
        const ref = reference(bytes, proto);
        if (!ref.checksumOk) stats.badChecksumInputs++;
        const codec = proto === 'dlt645' ? dlt645 : cjt188;
        let frame: ReturnType<typeof codec.decode> | undefined;
        try {
          frame = codec.decode(bytes);
        } catch (e) {
          if (!(e instanceof ProtocolError)) fail(`${proto}.decode threw a non-ProtocolError`, bytes, e);
          const pe = e as ProtocolError;
          codes[`${proto}:${pe.code}`] = (codes[`${proto}:${pe.code}`] ?? 0) + 1;
          if (ref.wellFormed && !ref.checksumOk) {
            if (pe.code !== 'CHECKSUM') fail(`${proto}: well-formed frame with bad checksum rejected as ${pe.code}`, bytes, e);
            stats.checksumRejected++;
          }
          continue;
        }
        if (!ref.checksumOk) fail(`${proto}.decode accepted a frame the reference rejects`, bytes);
        stats.decodedOk++;
        let again: Uint8Array;
        try {
          again = proto === 'dlt645' ? dlt645.encode(frame as never) : cjt188.encode(frame as never);
        } catch (e) {
          fail(`${proto}.encode(decode(x)) threw`, bytes, e);
          return;
        }
        if (!sameBytes(again, bytes)) fail(`${proto}: re-encoding is not byte-exact: ${toHex(again)}`, bytes);
      }

      // Stream the same input through the splitter in random-sized chunks, with an occasional
      // heartbeat text between inputs.
      if (mutation === 'none') stats.intactPushed++;
      if (rnd.next() < 0.05) bytes = concatBytes(HEARTBEAT, bytes);
      let off = 0;
      while (off < bytes.length) {
        const size = 1 + rnd.int(64);
        let items;
        try {
          items = splitter.push(bytes.subarray(off, off + size));
        } catch (e) {
          fail('splitter.push threw', bytes, e);
          return;
        }
        off += size;
        if (splitter.buffered > 4096) fail(`splitter holds ${splitter.buffered} bytes`, bytes);
        for (const item of items) {
          if (item.kind === 'text') {
            stats.splitterText++;
            continue;
          }
          stats.splitterFrames++;
          const ref = reference(item.bytes, item.protocol);
          if (!ref.wellFormed || !ref.checksumOk) fail(`splitter emitted a frame the reference rejects (${item.protocol})`, item.bytes);
          try {
            (item.protocol === 'dlt645' ? dlt645 : cjt188).decode(item.bytes);
          } catch (e) {
            if (!(e instanceof ProtocolError) || e.code === 'CHECKSUM' || e.code === 'START' || e.code === 'TERMINATOR') {
              fail('splitter frame failed framing checks in the decoder', item.bytes, e);
            }
          }
        }
      }
    }
    splitter.flush();

    const s = splitter.stats;
    console.log(
      `fuzz: ${stats.inputs} inputs (${ITERATIONS} iterations, seed ${SEED}); ` +
        `decoded OK ${stats.decodedOk}; inputs with a bad checksum ${stats.badChecksumInputs} (codec views); ` +
        `well-formed-but-bad-checksum rejected as CHECKSUM ${stats.checksumRejected}; ` +
        `splitter: ${s.frames.dlt645 + s.frames.cjt188} frames from ${stats.intactPushed} intact inputs, ` +
        `${s.textPackets} text, ${s.droppedBytes} bytes dropped, ${s.checksumErrors} checksum errors\n` +
        `error codes: ${JSON.stringify(codes)}`,
    );
    expect(stats.inputs).toBe(ITERATIONS);
    expect(stats.checksumRejected).toBeGreaterThan(ITERATIONS / 20);
    expect(stats.decodedOk).toBeGreaterThan(ITERATIONS / 20);
    // The splitter recovers (at least) the frames that were left intact, despite the noise around them.
    expect(s.frames.dlt645 + s.frames.cjt188).toBeGreaterThan(stats.intactPushed * 0.9);
  }, 60_000);
});
