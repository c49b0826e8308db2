// The upload tokens' local cache (api/upload.ts), kept apart so that the app shell can forget the tokens
// when the session ends without loading the upload code (and the contracts' schemas) on first load.
import type { UploadKind } from '@meter/contracts';

export interface Cached {
  token: string;
  /** when it was fetched (ms since the epoch) */
  time: number;
  /** a fingerprint of the session it was fetched under */
  session: string;
}

export const storageKey = (kind: UploadKind) => `uploadToken:${kind}`;
/** not the session token itself: only enough to tell two sessions apart */
export const fingerprint = (t: string | null) => (t ? `${t.length}:${t.slice(-8)}` : '');

export function readCache(kind: UploadKind): Cached | null {
  try {
    const v = JSON.parse(localStorage.getItem(storageKey(kind)) ?? 'null') as Cached | null;
    return v && typeof v.token === 'string' && typeof v.time === 'number' ? v : null;
  } catch {
    return null;
  }
}

export function forgetUploadTokens(): void {
  for (const k of ['Public', 'Private'] as const) localStorage.removeItem(storageKey(k));
}

