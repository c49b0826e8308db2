/**
 * Typed error thrown by every decoder and encoder in this package.
 *
 * Callers can rely on `instanceof ProtocolError` and switch on `code`; no other
 * exception type escapes `decode()` for any input byte sequence.
 */

/** Machine-readable reason for a {@link ProtocolError}. */
export type ProtocolErrorCode =
  /** The frame does not begin with 0x68 (after any 0xFE preamble), or the second 0x68 is missing. */
  | 'START'
  /** The last byte is not 0x16. */
  | 'TERMINATOR'
  /** The checksum byte does not match the sum of the covered bytes mod 256. */
  | 'CHECKSUM'
  /** Too few / too many bytes for the frame, or a data field of the wrong size for its content. */
  | 'LENGTH'
  /** A field that must be BCD contains a nibble above 9. */
  | 'BCD'
  /** A data identifier has no known layout (strict decoding, or encoding `values` for it). */
  | 'UNKNOWN_DI'
  /** A value is outside what the wire format can represent. */
  | 'RANGE'
  /** An encoder input is malformed (bad address string, missing field, …). */
  | 'INVALID_ARGUMENT';

export class ProtocolError extends Error {
  override readonly name = 'ProtocolError';
  readonly code: ProtocolErrorCode;
  /** Byte offset in the decoded input where the problem was found, when meaningful. */
  readonly offset: number | undefined;
  /** The message without the `CODE: ` prefix. */
  readonly detail: string;

  constructor(code: ProtocolErrorCode, detail: string, offset?: number) {
    super(`${code}: ${detail}`);
    this.code = code;
    this.detail = detail;
    this.offset = offset;
  }

  /**
   * A copy with a context prefix and an offset shifted by `base` (used to turn an offset inside a
   * sub-field into an offset inside the whole frame).
   */
  withContext(context: string, base: number): ProtocolError {
    return new ProtocolError(this.code, context ? `${context}: ${this.detail}` : this.detail, base + (this.offset ?? 0));
  }
}

/** Type guard, handy in `catch (e)` blocks. */
export function isProtocolError(e: unknown): e is ProtocolError {
  return e instanceof ProtocolError;
}
