// Lock screen flag (SPEC §4): locking sets the flag to 1; while set every route redirects to /locking;
// unlocking sets it to 0; /locking itself is unreachable when unlocked.
import { KEYS, local } from './storage.ts';
import { createStore } from './store.ts';

/** The lock animation lasts 3 s; the route push to /locking happens 800 ms after the click. */
export const LOCK_ANIMATION_MS = 3000;
export const LOCK_PUSH_DELAY_MS = 800;

export function isLocked(): boolean {
  return local.get(KEYS.locking) === '1';
}

export function setLocked(locked: boolean, lastPage?: string): void {
  local.set(KEYS.locking, locked ? '1' : '0');
  if (locked && lastPage) local.set(KEYS.lastPage, lastPage);
}

/** The page to return to after unlocking. */
export function lastPage(): string {
  const p = local.get(KEYS.lastPage);
  return p && p.startsWith('/') && p !== '/locking' && p !== '/login' ? p : '/home';
}

/** Drives the expanding lock animation overlay (rendered outside the router). */
export const lockAnimation = createStore<{ running: boolean; startedAt: number }>({ running: false, startedAt: 0 });

/**
 * Start locking: flag set at once, the animation runs 3 s, the route push happens after 800 ms.
 * `navigate` is injected so this stays testable and router-agnostic.
 */
export function startLock(currentPath: string, navigate: (to: string) => void): void {
  setLocked(true, currentPath);
  lockAnimation.set({ running: true, startedAt: Date.now() });
  setTimeout(() => navigate('/locking'), LOCK_PUSH_DELAY_MS);
  setTimeout(() => lockAnimation.set({ running: false, startedAt: 0 }), LOCK_ANIMATION_MS);
}
