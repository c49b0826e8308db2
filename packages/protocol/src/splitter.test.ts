import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { FrameSplitter, type SplitterItem, type SplitterSink } from './splitter.ts';
import { dlt645 } from './dlt645.ts';
import { cjt188 } from './cjt188.ts';
import { fromHex, toHex } from './bcd.ts';

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));
const cat = (...parts: Uint8Array[]) => Uint8Array.from(parts.flatMap((p) => [...p]));

/** Compact, comparable view of splitter output. */
function view(items: SplitterItem[]): string[] {
  return items.map((it) => (it.kind === 'frame' ? `${it.protocol}:${it.preamble}:${toHex(it.bytes)}` : `text:${it.text}`));
}

function run(chunks: Uint8Array[], splitter = new FrameSplitter()): { out: string[]; splitter: FrameSplitter } {
  const items: SplitterItem[] = [];
  for (const c of chunks) items.push(...splitter.push(c));
  items.push(...splitter.flush());
  return { out: view(items), splitter };
}

// Published frames (sources cited in dlt645.test.ts / cjt188.test.ts).
const DLT_READ = fromHex('68 61 01 00 00 00 00 68 11 04 33 33 34 33 14 16');
const DLT_REPLY = fromHex('68 61 01 00 00 00 00 68 91 08 33 33 34 33 59 33 33 33 8A 16');
const DLT_ADDR = fromHex('68 AA AA AA AA AA AA 68 13 00 DF 16');
const CJT_READ = fromHex('68 10 AA AA AA AA AA AA AA 01 03 90 1F 01 D2 16');
const CJT_REPLY = fromHex('68 10 88 05 27 10 15 20 00 81 16 90 1F 01 00 00 00 00 2C 00 00 00 00 2C 06 20 17 09 01 17 20 00 00 8E 16');
const FE4 = Uint8Array.of(0xfe, 0xfe, 0xfe, 0xfe);

describe('FrameSplitter', () => {
  it('emits single frames of both protocols with their preamble counts', () => {
    const { out, splitter } = run([cat(FE4, DLT_READ), cat(FE4.subarray(1), CJT_REPLY)]);
    expect(out).toEqual([`dlt645:4:${toHex(DLT_READ)}`, `cjt188:3:${toHex(CJT_REPLY)}`]);
    expect(splitter.stats).toMatchObject({ frames: { dlt645: 1, cjt188: 1 }, droppedBytes: 0, preambleBytes: 7 });
  });

  it('emitted frames decode with the matching codec', () => {
    const items = new FrameSplitter().push(cat(DLT_REPLY, CJT_REPLY));
    const [a, b] = items;
    if (a.kind !== 'frame' || b.kind !== 'frame') throw new Error('expected frames');
    expect(dlt645.decode(a.bytes)).toMatchObject({ values: { value: 0.26 } });
    expect(cjt188.decode(b.bytes)).toMatchObject({ values: { kind: 'flow', realTime: '2017-01-09 17:20:06' } });
  });

  // Source: doctest of a public Python CJT188Protocol.find_frame_in_buff(): the buffer
  // "00 00 00 00 FE FE FE FE FE FE 68 10 01 02 … 26 16" holds one frame starting at offset 10, 35 bytes long.
  it('skips garbage and a long FE run in front of a published CJ/T 188 reply', () => {
    const frame = '68 10 01 02 03 04 05 06 07 81 16 90 1F 96 00 55 55 05 2C 00 55 55 05 2C 00 00 00 00 00 00 00 00 00 26 16';
    const { out, splitter } = run([fromHex(`00 00 00 00 FE FE FE FE FE FE ${frame}`)]);
    expect(out).toEqual([`cjt188:6:${frame}`]);
    expect(fromHex(frame)).toHaveLength(35);
    expect(splitter.stats.droppedBytes).toBe(4);
  });

  it('drops garbage before and between frames, including stray 0x68 bytes', () => {
    const garbage1 = fromHex('00 11 68 22 68 68 33 FE 16');
    const garbage2 = fromHex('68 12 34 56 78 90 12 68 11'); // looks like a DL/T 645 header, then stops
    const garbage3 = fromHex('FF 80 7F 68');
    const stream = cat(garbage1, DLT_READ, garbage2, FE4, CJT_READ, garbage3, DLT_ADDR);
    const { out, splitter } = run([stream]);
    expect(out).toEqual([`dlt645:0:${toHex(DLT_READ)}`, `cjt188:4:${toHex(CJT_READ)}`, `dlt645:0:${toHex(DLT_ADDR)}`]);
    expect(splitter.stats.droppedBytes).toBe(garbage1.length + garbage2.length + garbage3.length);
  });

  it('gives the same result for a stream split at every byte boundary, and byte by byte', () => {
    const stream = cat(
      ascii('REG:860123456789012'),
      FE4,
      DLT_READ,
      fromHex('00 68 00'),
      CJT_REPLY,
      ascii('heartbeat'),
      fromHex('FE FE'),
      CJT_READ,
      DLT_REPLY,
    );
    const expected = run([stream]).out;
    expect(expected).toEqual([
      'text:REG:860123456789012',
      `dlt645:4:${toHex(DLT_READ)}`,
      `cjt188:0:${toHex(CJT_REPLY)}`,
      'text:heartbeat',
      `cjt188:2:${toHex(CJT_READ)}`,
      `dlt645:0:${toHex(DLT_REPLY)}`,
    ]);
    for (let k = 0; k <= stream.length; k++) {
      expect(run([stream.subarray(0, k), stream.subarray(k)]).out, `split at ${k}`).toEqual(expected);
    }
    for (let k = 1; k < stream.length; k += 7) {
      for (let j = k + 1; j < stream.length; j += 11) {
        expect(run([stream.subarray(0, k), stream.subarray(k, j), stream.subarray(j)]).out, `split at ${k},${j}`).toEqual(expected);
      }
    }
    expect(run(Array.from(stream, (b) => Uint8Array.of(b))).out).toEqual(expected);
  });

  it('interleaves DTU registration and heartbeat text packets with frames', () => {
    const splitter = new FrameSplitter();
    expect(view(splitter.push(ascii('IMEI860123456789012\r\n')))).toEqual(['text:IMEI860123456789012\r\n']);
    expect(view(splitter.push(cat(FE4, DLT_READ)))).toEqual([`dlt645:4:${toHex(DLT_READ)}`]);
    // An unterminated text packet stays pending until something follows it (or flush)…
    expect(view(splitter.push(ascii('www.usr.cn')))).toEqual([]);
    expect(view(splitter.push(DLT_REPLY))).toEqual(['text:www.usr.cn', `dlt645:0:${toHex(DLT_REPLY)}`]);
    expect(view(splitter.push(ascii('HB01')))).toEqual([]);
    expect(view(splitter.flush())).toEqual(['text:HB01']);
    expect(splitter.stats).toMatchObject({ textPackets: 3, droppedBytes: 0 });
  });

  it('does not mistake a text "h" for a frame start, nor cut a frame whose address bytes are printable', () => {
    // Address 363534333231: bytes 31 32 33 34 35 36 are ASCII "123456", so the header reads "h123456h".
    const printableAddr = dlt645.encode({ kind: 'read', direction: 'request', address: '363534333231', dataId: 0x00010000 });
    const stream = cat(ascii('hello'), printableAddr, ascii('heartbeat h'));
    const expected = ['text:hello', `dlt645:0:${toHex(printableAddr)}`, 'text:heartbeat h'];
    for (let k = 0; k <= stream.length; k++) {
      expect(run([stream.subarray(0, k), stream.subarray(k)]).out, `split at ${k}`).toEqual(expected);
    }
  });

  it('rejects a frame with a bad checksum and resynchronises on the next frame', () => {
    const bad = DLT_REPLY.slice();
    bad[14] ^= 0x01;
    const { out, splitter } = run([cat(bad, CJT_READ)]);
    expect(out).toEqual([`cjt188:0:${toHex(CJT_READ)}`]);
    expect(splitter.stats.checksumErrors).toBe(1);
    expect(splitter.stats.droppedBytes).toBe(bad.length);
    // Counted once even when the bad frame is seen again across chunk boundaries.
    const s2 = new FrameSplitter();
    s2.push(fromHex('68 00 00'));
    s2.push(bad);
    s2.push(CJT_READ);
    expect(s2.stats.checksumErrors).toBe(1);
  });

  it('does not stall behind a header whose length byte promises a long frame', () => {
    // A corrupted L = 0xFF makes the first candidate wait for 267 bytes; the complete frames that
    // follow must still come out immediately.
    const corrupt = DLT_READ.slice();
    corrupt[9] = 0xff;
    const splitter = new FrameSplitter();
    const items = splitter.push(cat(corrupt, DLT_REPLY, CJT_READ));
    expect(view(items)).toEqual([`dlt645:0:${toHex(DLT_REPLY)}`, `cjt188:0:${toHex(CJT_READ)}`]);
    expect(splitter.buffered).toBe(0);
  });

  it('keeps memory bounded under a flood of garbage and never throws', () => {
    const splitter = new FrameSplitter({ maxBuffer: 4096 });
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24;
    let frames = 0;
    for (let i = 0; i < 1024; i++) {
      const chunk = new Uint8Array(1024);
      for (let j = 0; j < chunk.length; j++) chunk[j] = rnd() % 3 === 0 ? 0x68 : rnd();
      for (const item of splitter.push(chunk)) if (item.kind === 'frame') frames++;
      expect(splitter.buffered).toBeLessThanOrEqual(4096);
    }
    // A real frame still gets through afterwards.
    const tail = splitter.push(cat(fromHex('00'), DLT_READ));
    expect(view(tail).at(-1)).toBe(`dlt645:0:${toHex(DLT_READ)}`);
    expect(splitter.stats.droppedBytes).toBeGreaterThan(1024 * 1024 * 0.5);
    expect(frames).toBeLessThan(5);
  });

  it('caps an endless text run and an endless FE run', () => {
    const splitter = new FrameSplitter({ maxBuffer: 4096, maxTextLength: 1000 });
    const items = splitter.push(ascii('A'.repeat(5000)));
    expect(items.every((i) => i.kind === 'text' && i.text.length === 1000)).toBe(true);
    expect(splitter.buffered).toBeLessThanOrEqual(1000);
    splitter.push(new Uint8Array(10000).fill(0xfe));
    expect(splitter.buffered).toBeLessThanOrEqual(4096);
    expect(view(splitter.push(DLT_READ)).at(-1)).toBe(`dlt645:4096:${toHex(DLT_READ)}`);
  });

  it('flush discards a partial frame; reset forgets everything', () => {
    const splitter = new FrameSplitter();
    expect(splitter.push(DLT_REPLY.subarray(0, 10))).toEqual([]);
    expect(splitter.buffered).toBe(10);
    expect(splitter.flush()).toEqual([]);
    expect(splitter.stats.droppedBytes).toBe(10);
    splitter.push(DLT_REPLY.subarray(0, 5));
    splitter.reset();
    expect(splitter.buffered).toBe(0);
    expect(splitter.stats.droppedBytes).toBe(15);
  });

  it('can count text as garbage instead', () => {
    const { out, splitter } = run([cat(ascii('REG:1234'), DLT_ADDR)], new FrameSplitter({ emitText: false }));
    expect(out).toEqual([`dlt645:0:${toHex(DLT_ADDR)}`]);
    expect(splitter.stats.droppedBytes).toBe(8);
  });

  it('does not alias Node Buffers (whose slice() is a view)', () => {
    const chunk = Buffer.from(cat(DLT_READ, DLT_REPLY.subarray(0, 6), ascii('x')));
    const splitter = new FrameSplitter();
    const [first] = splitter.push(chunk.subarray(0, DLT_READ.length + 6));
    chunk.fill(0);
    if (first.kind !== 'frame') throw new Error('expected frame');
    expect(Buffer.isBuffer(first.bytes)).toBe(false);
    expect(toHex(first.bytes)).toBe(toHex(DLT_READ));
    expect(view(splitter.push(Buffer.from(DLT_REPLY.subarray(6))))).toEqual([`dlt645:0:${toHex(DLT_REPLY)}`]);
  });

  it('does not alias the caller’s buffers', () => {
    const chunk = cat(DLT_READ, DLT_REPLY.subarray(0, 6));
    const splitter = new FrameSplitter();
    const [first] = splitter.push(chunk);
    chunk.fill(0);
    if (first.kind !== 'frame') throw new Error('expected frame');
    expect(toHex(first.bytes)).toBe(toHex(DLT_READ));
    expect(view(splitter.push(DLT_REPLY.subarray(6)))).toEqual([`dlt645:0:${toHex(DLT_REPLY)}`]);
  });
});

describe('FrameSplitter.feed', () => {
  /** The sink's view of a stream: frames copied where they lie, during the call (as a receiver must). */
  function viaFeed(chunks: Uint8Array[]): { out: string[]; stats: FrameSplitter['stats'] } {
    const splitter = new FrameSplitter();
    const items: SplitterItem[] = [];
    const sink: SplitterSink = {
      frame: (protocol, input, start, end, preamble) => items.push({ kind: 'frame', protocol, bytes: input.slice(start, end), preamble }),
      text: (text, bytes) => items.push({ kind: 'text', text, bytes }),
    };
    for (const c of chunks) splitter.feed(c, sink);
    items.push(...splitter.flush());
    return { out: view(items), stats: splitter.stats };
  }

  it('finds what push returns, in the same order, over any chunking of frames, text and garbage', () => {
    const part = fc.oneof(
      fc.constantFrom(DLT_READ, DLT_REPLY, DLT_ADDR, CJT_READ, CJT_REPLY, FE4, ascii('HB\n'), ascii('REG123456789012345\n')),
      fc.uint8Array({ minLength: 1, maxLength: 12 }),
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 12 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }), (parts, cuts) => {
        const stream = cat(...parts);
        const chunks: Uint8Array[] = [];
        for (let at = 0, k = 0; at < stream.length; k++) {
          const n = cuts[k % cuts.length];
          chunks.push(stream.subarray(at, at + n));
          at += n;
        }
        const a = run(chunks);
        const b = viaFeed(chunks);
        expect(b.out).toEqual(a.out);
        expect(b.stats).toEqual(a.splitter.stats);
      }),
      { numRuns: 500 },
    );
  });
});
