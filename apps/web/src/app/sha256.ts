// SHA-256 over UTF-8 text, hex, from @noble/hashes (audited). Synchronous on purpose: the route guards
// verify the session signature during render, where crypto.subtle's promise API cannot be awaited.
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';

export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}
