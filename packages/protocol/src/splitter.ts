/**
 * Stream splitter: turns arbitrary TCP chunks from a DTU into complete, checksum-valid
 * DL/T 645-2007 or CJ/T 188-2004 frames, plus the plain-text packets (registration, heartbeat)
 * that DTUs interleave with meter traffic.
 *
 * Guarantees:
 * - every emitted frame has the right structure, terminator and checksum for its protocol
 *   (`dlt645.decode` / `cjt188.decode` can still reject its content, e.g. a non-BCD field);
 * - bytes that are neither part of a frame nor a text packet are dropped and counted;
 * - the scanner resynchronises on the next 0x68 after garbage, a broken frame or a corrupted
 *   length byte, and never waits for more than one maximum-size frame (268 bytes + preamble)
 *   on behalf of a candidate that has not completed;
 * - memory is bounded: at most `maxBuffer` bytes are kept between calls (default 4 KiB).
 *
 * The splitter does no I/O and keeps no timers. A trailing text packet or an incomplete frame
 * stays buffered until more bytes arrive; call {@link FrameSplitter.flush} when the connection
 * has been idle (or closes) to release pending text and discard partial frames.
 */
import { checksum, copyBytes, isBcdByte } from './bcd.ts';

export type SplitterProtocol = 'dlt645' | 'cjt188';

/** One item produced by the splitter. */
export type SplitterItem =
  | {
      kind: 'frame';
      protocol: SplitterProtocol;
      /** The frame from its first 0x68 through the 0x16 terminator (preamble excluded). */
      bytes: Uint8Array;
      /** Number of 0xFE bytes that preceded it. */
      preamble: number;
    }
  | {
      kind: 'text';
      /** Printable ASCII as received (registration code, IMEI, heartbeat …). */
      text: string;
      bytes: Uint8Array;
    };

/**
 * Receives what {@link FrameSplitter.feed} finds, in stream order, as it finds it: no item objects and
 * no copy of a frame's bytes unless the receiver makes one.
 */
export interface SplitterSink {
  /**
   * A frame: `input[start, end)`, from its first 0x68 through the 0x16 (preamble excluded). The
   * bytes are the caller's chunk or the splitter's buffer: read them during the call, copy what is
   * kept (`copyBytes(input, start, end)`).
   */
  frame(protocol: SplitterProtocol, input: Uint8Array, start: number, end: number, preamble: number): void;
  /** A text packet (its bytes are the receiver's own). */
  text(text: string, bytes: Uint8Array): void;
}

/** Collects items as `push` and `flush` return them (each frame copied). */
class Collect implements SplitterSink {
  items: SplitterItem[] = [];
  frame(protocol: SplitterProtocol, input: Uint8Array, start: number, end: number, preamble: number): void {
    this.items.push({ kind: 'frame', protocol, bytes: copyBytes(input, start, end), preamble });
  }
  text(text: string, bytes: Uint8Array): void {
    this.items.push({ kind: 'text', text, bytes });
  }
}

export interface FrameSplitterOptions {
  /** Upper bound for bytes kept between calls. Default 4096; minimum 512. */
  maxBuffer?: number;
  /** Emit printable runs as `text` items (otherwise they count as dropped). Default true. */
  emitText?: boolean;
  /** Shortest printable run reported as text; shorter runs are dropped. Default 4. */
  minTextLength?: number;
  /** A text run this long is emitted even if not yet terminated. Default 1024. */
  maxTextLength?: number;
  /**
   * Which CJ/T 188 meter type bytes (T) may start a frame. Default: 0x10–0x4F (water, heat, gas,
   * electricity ranges) and the 0xAA wildcard. Restricting T keeps text such as "heartbeat"
   * (0x68 0x65 …) from being held as a possible frame start.
   */
  acceptCjt188Type?: (meterType: number) => boolean;
}

export interface FrameSplitterStats {
  /** Frames emitted, per protocol. */
  frames: { dlt645: number; cjt188: number };
  /** Text packets emitted. */
  textPackets: number;
  /** Bytes discarded as garbage (including overflow and partial frames discarded by `flush`). */
  droppedBytes: number;
  /** 0xFE preamble bytes consumed in front of frames. */
  preambleBytes: number;
  /** Candidates that had the right shape and terminator but a wrong checksum. */
  checksumErrors: number;
  /** Bytes discarded because the buffer exceeded `maxBuffer`. */
  overflowBytes: number;
}

/** Largest possible frame: CJ/T 188 with L = 255 (13 + 255). DL/T 645 is one byte shorter. */
export const MAX_FRAME_LENGTH = 13 + 255;

/** No frame of either protocol can start here. */
const INVALID = 0;
/** Could still become a frame once more bytes arrive. */
const INCOMPLETE = 1;
/** A complete, checksum-valid frame starts here (see `lastLength` / `lastProtocol`). */
const VALID = 2;
type Candidate = typeof INVALID | typeof INCOMPLETE | typeof VALID;

function isPrintable(b: number): boolean {
  return (b >= 0x20 && b <= 0x7e) || b === 0x0a || b === 0x0d || b === 0x09;
}

function isAddressByte(b: number): boolean {
  return b === 0xaa || isBcdByte(b);
}

/** Default meter type bytes accepted for CJ/T 188 (water, heat, gas, electricity ranges; 0xAA wildcard). */
export function defaultCjt188Type(b: number): boolean {
  return (b >= 0x10 && b <= 0x4f) || b === 0xaa;
}

/** the empty pending buffer, shared (an idle splitter holds no bytes of its own: many thousands sit on idle connections) */
const EMPTY = new Uint8Array(0);

export class FrameSplitter {
  private buf: Uint8Array = EMPTY;
  private readonly maxBuffer: number;
  private readonly emitText: boolean;
  private readonly minTextLength: number;
  private readonly maxTextLength: number;
  private readonly acceptCjt188Type: (meterType: number) => boolean;
  private readonly counters: FrameSplitterStats = {
    frames: { dlt645: 0, cjt188: 0 },
    textPackets: 0,
    droppedBytes: 0,
    preambleBytes: 0,
    checksumErrors: 0,
    overflowBytes: 0,
  };
  // Result slots of the last `candidate()` call that returned Valid.
  private lastLength = 0;
  private lastProtocol: SplitterProtocol = 'dlt645';
  // End (exclusive) of the last complete, well-terminated candidate with a bad checksum, or -1.
  private lastChecksumErrorEnd = -1;
  // Length of the part of the current scan input that an earlier scan has already seen.
  private seen = 0;
  // True when the next unprocessed byte directly follows a frame, a text packet or a flush.
  private atBoundary = true;

  constructor(options: FrameSplitterOptions = {}) {
    this.maxBuffer = Math.max(512, options.maxBuffer ?? 4096);
    this.emitText = options.emitText ?? true;
    this.minTextLength = Math.max(1, options.minTextLength ?? 4);
    this.acceptCjt188Type = options.acceptCjt188Type ?? defaultCjt188Type;
    this.maxTextLength = Math.max(this.minTextLength, Math.min(options.maxTextLength ?? 1024, this.maxBuffer - MAX_FRAME_LENGTH));
  }

  /** Counters since construction (a snapshot). */
  get stats(): FrameSplitterStats {
    return { ...this.counters, frames: { ...this.counters.frames } };
  }

  /** Bytes currently held while waiting for more input. */
  get buffered(): number {
    return this.buf.length;
  }

  /** Feed one chunk; returns the items completed by it, in stream order. */
  push(chunk: Uint8Array): SplitterItem[] {
    if (chunk.length === 0) return [];
    const c = new Collect();
    this.feed(chunk, c);
    return c.items;
  }

  /**
   * Feed one chunk; what it completes goes to `sink` as it is found (as `push` returns it, without
   * an item object or a copy a frame). The sink must not feed this splitter from within a call.
   */
  feed(chunk: Uint8Array, sink: SplitterSink): void {
    if (chunk.length === 0) return;
    let input: Uint8Array;
    if (this.buf.length === 0) {
      input = chunk;
    } else {
      input = new Uint8Array(this.buf.length + chunk.length);
      input.set(this.buf);
      input.set(chunk, this.buf.length);
    }
    this.seen = this.buf.length;
    const keepFrom = this.scan(input, sink, false);
    let rest = input.subarray(keepFrom);
    if (rest.length > this.maxBuffer) {
      // Cannot normally happen (pending data is bounded by one frame or one text run), but a
      // hard cap keeps memory bounded whatever the input.
      const excess = rest.length - this.maxBuffer;
      this.counters.droppedBytes += excess;
      this.counters.overflowBytes += excess;
      rest = rest.subarray(excess);
    }
    // Copy so that we never retain (or alias) the caller's chunk.
    this.buf = rest.length ? copyBytes(rest) : EMPTY;
  }

  /**
   * End of burst / connection: emit any pending text run, discard any partial frame (counted as
   * dropped), and empty the buffer.
   */
  flush(): SplitterItem[] {
    const c = new Collect();
    if (this.buf.length > 0) {
      this.seen = this.buf.length;
      this.scan(this.buf, c, true);
      this.buf = EMPTY;
    }
    this.atBoundary = true;
    return c.items;
  }

  /** Forget buffered bytes without emitting anything (counted as dropped). */
  reset(): void {
    this.counters.droppedBytes += this.buf.length;
    this.buf = EMPTY;
    this.atBoundary = true;
  }

  /**
   * Scan `input`, appending items. Returns the index from which bytes must be kept for the next
   * call (all of them when `final`: returns input.length).
   */
  private scan(input: Uint8Array, sink: SplitterSink, final: boolean): number {
    let start = 0; // first byte not yet accounted for
    let pendingCandidate = -1; // earliest incomplete candidate at or after `start`
    const n = input.length;
    for (let i = start; i < n; i++) {
      if (input[i] !== 0x68) continue;
      const c = this.candidate(input, i);
      if (c === VALID) {
        // A complete frame wins over any earlier incomplete candidate: with a valid checksum it
        // is far more likely than a 0x68 in garbage that happens to look like a header.
        let fe = 0;
        while (i - fe - 1 >= start && input[i - fe - 1] === 0xfe) fe++;
        this.gap(input, start, i - fe, true, sink);
        this.counters.preambleBytes += fe;
        const len = this.lastLength;
        const protocol = this.lastProtocol;
        this.atBoundary = true;
        this.counters.frames[protocol]++;
        sink.frame(protocol, input, i, i + len, fe);
        start = i + len;
        i = start - 1;
        pendingCandidate = -1;
      } else if (c === INCOMPLETE) {
        if (pendingCandidate < 0) pendingCandidate = i;
      } else if (this.lastChecksumErrorEnd > this.seen) {
        // Count each bad-checksum candidate once, when it first becomes complete.
        this.counters.checksumErrors++;
      }
    }
    if (final) {
      // Nothing more will come: whatever is left is text or garbage.
      this.gap(input, start, n, true, sink);
      return n;
    }
    if (pendingCandidate >= 0) {
      let keep = pendingCandidate;
      while (keep > start && input[keep - 1] === 0xfe) keep--;
      if (keep === pendingCandidate) {
        // The candidate may be a 0x68 ('h') inside a text packet: keep the printable run leading
        // into it too, so that the text is not cut in two if the candidate turns out invalid.
        while (keep > start && isPrintable(input[keep - 1]) && pendingCandidate - keep < this.maxTextLength) keep--;
      }
      this.gap(input, start, keep, true, sink);
      return keep;
    }
    return this.gap(input, start, n, false, sink);
  }

  /**
   * Account for `input[from, to)`, which holds no frame: emit text packets, drop the rest. When
   * `terminated` is false the region ends at the end of the input, so a trailing printable run or
   * 0xFE run may continue in the next chunk and is kept; returns the index from which bytes are
   * kept (`to` when terminated).
   *
   * A printable run is a text packet only if it starts at a clean boundary (stream start, right
   * after a frame or another text packet, or after `flush()`/`reset()`). The data bytes of DL/T 645
   * frames (+0x33) are mostly printable, so without this rule the remains of a corrupted frame
   * would come out as "text". A line feed ends a text packet.
   */
  private gap(input: Uint8Array, from: number, to: number, terminated: boolean, sink: SplitterSink): number {
    let i = from;
    let keep = to;
    while (i < to) {
      if (isPrintable(input[i])) {
        let j = i;
        while (j < to && isPrintable(input[j]) && j - i < this.maxTextLength) {
          j++;
          if (input[j - 1] === 0x0a) break;
        }
        const complete = input[j - 1] === 0x0a || j - i >= this.maxTextLength;
        if (j === to && !terminated && !complete) {
          keep = i; // may continue in the next chunk
          break;
        }
        if (this.atBoundary && this.emitText && j - i >= this.minTextLength) {
          const bytes = copyBytes(input, i, j);
          this.counters.textPackets++;
          sink.text(String.fromCharCode(...bytes), bytes);
        } else {
          this.counters.droppedBytes += j - i;
          this.atBoundary = false;
        }
        i = j;
      } else {
        if (!terminated && input[i] === 0xfe) {
          // A trailing run of 0xFE may be the preamble of a frame still to come.
          let j = i;
          while (j < to && input[j] === 0xfe) j++;
          if (j === to) {
            keep = i;
            break;
          }
        }
        this.counters.droppedBytes++;
        this.atBoundary = false;
        i++;
      }
    }
    return terminated ? to : keep;
  }

  /** Classify a possible frame start at `i` (input[i] === 0x68). */
  private candidate(input: Uint8Array, i: number): Candidate {
    this.lastChecksumErrorEnd = -1;
    const dlt = this.checkDlt645(input, i);
    if (dlt === VALID) return dlt;
    const cjt = this.checkCjt188(input, i);
    if (cjt === VALID) return cjt;
    return dlt === INCOMPLETE || cjt === INCOMPLETE ? INCOMPLETE : INVALID;
  }

  private checkDlt645(input: Uint8Array, i: number): Candidate {
    const avail = input.length - i;
    for (let k = 1; k <= 6; k++) {
      if (k >= avail) return INCOMPLETE;
      if (!isAddressByte(input[i + k])) return INVALID;
    }
    if (avail <= 7) return INCOMPLETE;
    if (input[i + 7] !== 0x68) return INVALID;
    if (avail <= 9) return INCOMPLETE;
    const total = 12 + input[i + 9];
    return this.checkTail(input, i, total, 'dlt645');
  }

  /** The frame at i is `total` bytes long: complete, ending in 0x16 with a matching checksum? */
  private checkTail(input: Uint8Array, i: number, total: number, protocol: SplitterProtocol): Candidate {
    const avail = input.length - i;
    if (avail < total) return INCOMPLETE;
    if (input[i + total - 1] !== 0x16) return INVALID;
    if (checksum(input, i, i + total - 2) !== input[i + total - 2]) {
      this.lastChecksumErrorEnd = i + total;
      return INVALID;
    }
    this.lastLength = total;
    this.lastProtocol = protocol;
    return VALID;
  }

  private checkCjt188(input: Uint8Array, i: number): Candidate {
    const avail = input.length - i;
    if (avail <= 1) return INCOMPLETE;
    if (!this.acceptCjt188Type(input[i + 1])) return INVALID;
    for (let k = 2; k <= 8; k++) {
      if (k >= avail) return INCOMPLETE;
      if (!isAddressByte(input[i + k])) return INVALID;
    }
    if (avail <= 10) return INCOMPLETE;
    const total = 13 + input[i + 10];
    return this.checkTail(input, i, total, 'cjt188');
  }
}
