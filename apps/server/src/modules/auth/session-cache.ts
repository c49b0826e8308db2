import type { SessionRow } from './repo.ts';

/**
 * A short-lived memo of live sessions by token hash, so a burst of requests with one token costs one
 * lookup. It only ever shortens what a session may do: entries live `ttlMs` at most (1 s by default,
 * AUTH_SESSION_CACHE_MS; 0 turns it off), and the app clears it whole on every change a person makes
 * (any non-GET request, here or — through the event bus — in another process). So a logout, a
 * password change, a disabled account or a narrowed role takes effect at once in this process and
 * within milliseconds (at worst `ttlMs`) in the others.
 */
export class SessionCache {
  private readonly entries = new Map<string, { row: SessionRow; until: number }>();
  /** bumped by clear(): a lookup that started before a clear must not store what it read */
  generation = 0;

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 10_000,
  ) {}

  get(tokenHash: string, now = Date.now()): SessionRow | undefined {
    const e = this.entries.get(tokenHash);
    if (!e) return undefined;
    if (e.until <= now) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    return e.row;
  }

  /** Stores a row read while `generation` was `gen` (a clear since then drops it). */
  set(tokenHash: string, row: SessionRow, gen: number, now = Date.now()) {
    if (this.ttlMs <= 0 || gen !== this.generation) return;
    // the oldest entry goes first when full (a Map keeps insertion order)
    if (this.entries.size >= this.maxEntries && !this.entries.has(tokenHash)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(tokenHash, { row, until: now + this.ttlMs });
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }

  get size() {
    return this.entries.size;
  }
}
