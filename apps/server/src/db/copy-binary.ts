// COPY … FROM STDIN (FORMAT binary) payloads (PostgreSQL's "binary copy" file format): a header,
// then per row a field count and each field as a length and the type's binary ("send") form, then a
// trailer. Cheaper to build than text (no number or date formatting, no escaping) and cheaper for
// the server to read (no parsing of numerics and timestamps). Only the types the ingest path writes.

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
/** Microseconds between the Unix epoch and PostgreSQL's (2000-01-01 00:00:00 UTC), in ms. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 4_294_967_296;
const NUMERIC = /^(-?)(\d+)(?:\.(\d+))?$/;

/**
 * Exact hundredths (`1234.56`: 1 to 13 digits, a point, two digits — the form every meter total and
 * money amount takes) as one integer, or -1 for any other form. Char by char: it runs for every row.
 */
function hundredthsOf(s: string): number {
  const n = s.length;
  if (n < 4 || n > 16 || s.charCodeAt(n - 3) !== 46 /* . */) return -1;
  let v = 0;
  for (let i = 0; i < n; i++) {
    if (i === n - 3) continue;
    const c = s.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return -1;
    v = v * 10 + c;
  }
  return v;
}

/** A string JSON writes as it is between quotes: printable ASCII without `"` and `\\`. */
function plain(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return false;
  }
  return true;
}

/**
 * JSON.stringify of a flat object (values strings, finite numbers, booleans; undefined ones left out),
 * the same text, at about half the cost for the small objects every reading carries; anything else is
 * JSON.stringify's.
 */
export function flatJson(o: Readonly<Record<string, unknown>>): string {
  let out = '{';
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) return JSON.stringify(o);
    const v = o[k];
    if (v === undefined) continue;
    if (!plain(k)) return JSON.stringify(o);
    const head = out.length === 1 ? '"' : ',"';
    if (typeof v === 'string') {
      if (!plain(v)) return JSON.stringify(o);
      out += head + k + '":"' + v + '"';
    } else if (typeof v === 'number' && Number.isFinite(v)) out += head + k + '":' + String(v);
    else if (typeof v === 'boolean') out += head + k + (v ? '":true' : '":false');
    else return JSON.stringify(o);
  }
  return out + '}';
}

export class BinaryCopyWriter {
  private buf: Buffer;
  private off = 0;

  // big-endian writes by hand: Buffer's checked writers cost more than the bytes
  private i16(v: number, at: number) {
    this.buf[at] = (v >>> 8) & 0xff;
    this.buf[at + 1] = v & 0xff;
  }

  private i32(v: number, at: number) {
    this.buf[at] = (v >>> 24) & 0xff;
    this.buf[at + 1] = (v >>> 16) & 0xff;
    this.buf[at + 2] = (v >>> 8) & 0xff;
    this.buf[at + 3] = v & 0xff;
  }

  constructor(sizeHint = 1 << 16) {
    this.buf = Buffer.allocUnsafe(Math.max(64, sizeHint));
    SIGNATURE.copy(this.buf, 0);
    this.off = SIGNATURE.length;
    this.i32(0, this.off); // flags
    this.i32(0, this.off + 4); // header extension length
    this.off += 8;
  }

  private room(n: number) {
    if (this.off + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.off + n));
    this.buf.copy(next, 0, 0, this.off);
    this.buf = next;
  }

  /** Starts a row of `fields` fields. */
  row(fields: number): this {
    this.room(2);
    this.i16(fields, this.off);
    this.off += 2;
    return this;
  }

  null(): this {
    this.room(4);
    this.i32(-1, this.off);
    this.off += 4;
    return this;
  }

  /** A 64-bit signed integer within ±2^53 (bigint columns). */
  int8(v: number | null): this {
    if (v === null) return this.null();
    if (!Number.isSafeInteger(v)) throw new RangeError(`int8 field must be a safe integer, got ${v}`);
    this.room(12);
    this.i32(8, this.off);
    const hi = Math.floor(v / TWO_32);
    this.i32(hi, this.off + 4);
    this.i32(v - hi * TWO_32, this.off + 8);
    this.off += 12;
    return this;
  }

  int4(v: number | null): this {
    if (v === null) return this.null();
    this.room(8);
    this.i32(4, this.off);
    this.i32(v, this.off + 4);
    this.off += 8;
    return this;
  }

  /** timestamptz (and timestamp): microseconds since 2000-01-01 UTC, from a Date (millisecond precision). */
  timestamptz(d: Date | null): this {
    if (d === null) return this.null();
    const ms = d.getTime();
    if (!Number.isFinite(ms)) throw new RangeError('timestamptz field must be a valid date');
    return this.timestamptzMs(ms);
  }

  /** timestamptz (and timestamp) from epoch milliseconds. */
  timestamptzMs(ms: number): this {
    if (!Number.isFinite(ms)) throw new RangeError('timestamptz field must be a finite instant');
    return this.int8((ms - PG_EPOCH_MS) * 1000);
  }

  /** numeric of scale 2 from exact hundredths (a non-negative integer below 10^15): `numeric` of its text, without the text. */
  numericCents(c: number): this {
    if (!Number.isSafeInteger(c) || c < 0 || c >= 1e15) throw new RangeError(`numericCents field must be hundredths (0 ≤ c < 10^15), got ${c}`);
    return this.hundredths(Math.floor(c / 100), c % 100);
  }

  /**
   * numeric from an exact decimal string (`-123.45`, `7`, `0.50`): base-10000 digit groups, the
   * weight of the first, the sign and the display scale (the number of decimals written).
   */
  numeric(s: string | null): this {
    if (s === null) return this.null();
    const h = hundredthsOf(s);
    if (h >= 0) return this.hundredths(Math.floor(h / 100), h % 100);
    const m = NUMERIC.exec(s);
    if (!m) throw new RangeError(`numeric field must be a plain decimal, got ${JSON.stringify(s)}`);
    const [, minus, intPart, fracPart = ''] = m;
    const int = intPart.replace(/^0+/, '');
    // whole groups of four digits: the integer part padded on the left, the fraction on the right
    const intDigits = int.padStart(Math.ceil(int.length / 4) * 4, '0');
    const fracDigits = fracPart.padEnd(Math.ceil(fracPart.length / 4) * 4, '0');
    const groups: number[] = [];
    for (let i = 0; i < intDigits.length; i += 4) groups.push(Number(intDigits.slice(i, i + 4)));
    for (let i = 0; i < fracDigits.length; i += 4) groups.push(Number(fracDigits.slice(i, i + 4)));
    let weight = intDigits.length / 4 - 1;
    let first = 0;
    while (first < groups.length && groups[first] === 0) {
      first++;
      weight--;
    }
    let last = groups.length;
    while (last > first && groups[last - 1] === 0) last--;
    const digits = groups.slice(first, last);
    if (!digits.length) weight = 0;
    const negative = minus === '-' && digits.length > 0;
    return this.numericDigits(digits, weight, negative, fracPart.length);
  }

  /** A non-negative numeric of scale 2 from its integer part (< 10^13) and its two decimals. */
  private hundredths(int: number, cents: number): this {
    // base-10000 groups: up to four of the integer part (g3 … g0), then the fraction's one
    const g0 = int % 10000;
    const g1 = Math.floor(int / 1e4) % 10000;
    const g2 = Math.floor(int / 1e8) % 10000;
    const g3 = Math.floor(int / 1e12);
    const top = g3 ? 3 : g2 ? 2 : g1 ? 1 : g0 ? 0 : -1;
    // trailing zero groups are not written: the last written is the fraction, or the lowest non-zero integer group
    const low = cents ? -1 : g0 ? 0 : g1 ? 1 : g2 ? 2 : 3;
    const n = top < 0 ? (cents ? 1 : 0) : top - low + 1;
    this.room(12 + n * 2);
    this.i32(8 + n * 2, this.off);
    this.i16(n, this.off + 4);
    this.i16(n === 0 ? 0 : top < 0 ? -1 : top, this.off + 6);
    this.i16(0, this.off + 8);
    this.i16(2, this.off + 10);
    let at = this.off + 12;
    for (let g = top; g >= 0 && g >= low; g--) {
      this.i16(g === 3 ? g3 : g === 2 ? g2 : g === 1 ? g1 : g0, at);
      at += 2;
    }
    if (cents) {
      this.i16(cents * 100, at);
      at += 2;
    }
    this.off = at;
    return this;
  }

  private numericDigits(digits: number[], weight: number, negative: boolean, dscale: number): this {
    this.room(4 + 8 + digits.length * 2);
    this.i32(8 + digits.length * 2, this.off);
    this.i16(digits.length, this.off + 4);
    this.i16(weight, this.off + 6);
    this.i16(negative ? 0x4000 : 0, this.off + 8);
    this.i16(dscale, this.off + 10);
    this.off += 12;
    for (const g of digits) {
      this.i16(g, this.off);
      this.off += 2;
    }
    return this;
  }

  /** text, varchar: UTF-8 bytes. */
  text(s: string | null): this {
    if (s === null) return this.null();
    this.room(4 + s.length * 3);
    const n = s.length ? this.buf.write(s, this.off + 4, 'utf8') : 0;
    this.i32(n, this.off);
    this.off += 4 + n;
    return this;
  }

  /** jsonb: format version 1, then the JSON text. */
  jsonb(json: string | null): this {
    if (json === null) return this.null();
    this.room(5 + json.length * 3);
    this.buf[this.off + 4] = 1;
    const n = this.buf.write(json, this.off + 5, 'utf8');
    this.i32(n + 1, this.off);
    this.off += 5 + n;
    return this;
  }

  /**
   * jsonb of a flat object: the bytes of `jsonb(flatJson(o))`, written straight into the payload (no
   * JSON text built first, no UTF-8 encoder call for the few ASCII characters). Anything flatJson
   * would hand to JSON.stringify (a nested value, a character to escape or beyond ASCII) is rewound
   * and written as `jsonb(JSON.stringify(o))`.
   */
  jsonbFlat(o: Readonly<Record<string, unknown>>): this {
    const start = this.off;
    this.room(6);
    let at = start + 5;
    this.buf[at++] = 0x7b; // {
    let first = true;
    for (const k in o) {
      if (!Object.prototype.hasOwnProperty.call(o, k)) return this.rewindJson(start, o);
      const v = o[k];
      if (v === undefined) continue;
      let s: string;
      let quoted = false;
      if (typeof v === 'string') {
        s = v;
        quoted = true;
      } else if (typeof v === 'number' && Number.isFinite(v)) s = String(v);
      else if (typeof v === 'boolean') s = v ? 'true' : 'false';
      else return this.rewindJson(start, o);
      this.off = at;
      this.room(k.length + s.length + 7);
      const buf = this.buf;
      if (!first) buf[at++] = 0x2c; // ,
      first = false;
      buf[at++] = 0x22;
      for (let i = 0; i < k.length; i++) {
        const c = k.charCodeAt(i);
        if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return this.rewindJson(start, o);
        buf[at++] = c;
      }
      buf[at++] = 0x22;
      buf[at++] = 0x3a; // :
      if (quoted) buf[at++] = 0x22;
      for (let i = 0; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (quoted && (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c)) return this.rewindJson(start, o);
        buf[at++] = c;
      }
      if (quoted) buf[at++] = 0x22;
    }
    this.off = at;
    this.room(1);
    this.buf[at++] = 0x7d; // }
    this.i32(at - start - 4, start);
    this.buf[start + 4] = 1;
    this.off = at;
    return this;
  }

  /** Back to `start`, and the object as JSON.stringify writes it. */
  private rewindJson(start: number, o: Readonly<Record<string, unknown>>): this {
    this.off = start;
    return this.jsonb(JSON.stringify(o));
  }

  /** The whole payload, trailer included. The writer is done after this. */
  finish(): Buffer {
    this.room(2);
    this.i16(-1, this.off);
    this.off += 2;
    return this.buf.subarray(0, this.off);
  }
}
