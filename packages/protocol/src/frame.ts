// The framing both wire formats share: an optional 0xFE preamble, 0x68, a length byte L, L data bytes,
// the checksum byte (sum mod 256 from the first 0x68) and 0x16. The codecs differ only in where L sits
// and how many bytes surround the data (`overhead`).
import { checksum, hex2 } from './bcd.ts';
import { ProtocolError } from './errors.ts';

/** Upper bound for the 0xFE preamble `encode` will write (decode accepts any run). */
const MAX_PREAMBLE = 1024;

/**
 * encode's buffer for a frame of `dataLength` data bytes (LENGTH over 255) after `preamble` 0xFE
 * bytes (0..1024, RANGE), with the first 0x68 written; `p` is its offset. The codec writes the header
 * and data, then {@link endFrame}.
 */
export function startFrame(dataLength: number, preamble: number, overhead: number): { out: Uint8Array; p: number } {
  if (dataLength > 0xff) throw new ProtocolError('LENGTH', `data field of ${dataLength} bytes exceeds 255`);
  if (!Number.isInteger(preamble) || preamble < 0 || preamble > MAX_PREAMBLE) {
    throw new ProtocolError('RANGE', `preamble must be 0..${MAX_PREAMBLE} bytes, got ${preamble}`);
  }
  const out = new Uint8Array(preamble + overhead + dataLength);
  out.fill(0xfe, 0, preamble);
  out[preamble] = 0x68;
  return { out, p: preamble };
}

/** Writes the checksum of `out[p, end)` at `end` and the 0x16 after it; returns the frame. */
export function endFrame(out: Uint8Array, p: number, end: number): Uint8Array {
  out[end] = checksum(out, p, end);
  out[end + 1] = 0x16;
  return out;
}

/** decode's first check: the input is bytes (INVALID_ARGUMENT). */
export function expectBytes(bytes: Uint8Array): void {
  if (!(bytes instanceof Uint8Array)) {
    throw new ProtocolError('INVALID_ARGUMENT', 'decode expects a Uint8Array (or Buffer)');
  }
}

/** The offset of the frame's first 0x68 after the 0xFE preamble; START/LENGTH when it is not there or too short. */
export function frameStart(bytes: Uint8Array, overhead: number): number {
  let p = 0;
  while (p < bytes.length && bytes[p] === 0xfe) p++;
  if (p >= bytes.length) throw new ProtocolError('LENGTH', 'no frame after the preamble', p);
  if (bytes[p] !== 0x68) throw new ProtocolError('START', `expected 0x68 at offset ${p}, got 0x${hex2(bytes[p])}`, p);
  if (bytes.length - p < overhead) {
    throw new ProtocolError('LENGTH', `frame needs at least ${overhead} bytes, got ${bytes.length - p}`, p);
  }
  return p;
}

/** Checks the frame at `p` with data length `length` ends exactly with its checksum and 0x16 (LENGTH, TERMINATOR, CHECKSUM). */
export function checkFrameEnd(bytes: Uint8Array, p: number, overhead: number, length: number): void {
  const total = p + overhead + length;
  if (bytes.length < total) {
    throw new ProtocolError('LENGTH', `L=${length} needs ${total} bytes, got ${bytes.length} (truncated)`, bytes.length);
  }
  if (bytes.length > total) {
    throw new ProtocolError('LENGTH', `L=${length} means ${total} bytes, got ${bytes.length} (trailing bytes)`, total);
  }
  if (bytes[total - 1] !== 0x16) {
    throw new ProtocolError('TERMINATOR', `expected 0x16 at offset ${total - 1}, got 0x${hex2(bytes[total - 1])}`, total - 1);
  }
  const cs = checksum(bytes, p, total - 2);
  if (cs !== bytes[total - 2]) {
    throw new ProtocolError('CHECKSUM', `checksum is 0x${hex2(bytes[total - 2])}, computed 0x${hex2(cs)}`, total - 2);
  }
}

/** Header facts present on every decoded frame of either format. */
export interface FrameMeta {
  /** the meter address, human order (highest digit first); wildcard bytes appear as "AA" */
  address: string;
  /** control byte C */
  control: number;
  /** function code (C & 0x1F) */
  func: number;
  direction: 'request' | 'response';
  abnormal: boolean;
  hasFollowing: boolean;
  /** the DATA field (DL/T 645: with the 0x33 offset removed) */
  data: Uint8Array;
  /** number of 0xFE bytes before the frame */
  preamble: number;
}
