// Open-page tabs (SPEC §2, §4): open, close current / others / all, home pinned first, persisted in
// localStorage and restored on reload (unless the user switched persistence off in /headSet).
import { KEYS, local, readJson } from './storage.ts';
import { createStore, useStore, type Store } from './store.ts';

export const HOME_KEY = 'home';

export interface TabsState {
  /** route keys in display order; always starts with home */
  keys: string[];
  active: string;
}

export interface TabsStore extends Store<TabsState> {
  open(key: string): void;
  /** close one tab; returns the key that becomes active */
  close(key: string): string;
  closeOthers(key: string): string;
  closeAll(): string;
  /** reload from storage (used at start-up) */
  restore(): void;
  /** forget everything (logout) */
  reset(): void;
  /** write (or drop, when persistence is off) the current tabs now */
  sync(): void;
}

export interface TabsOptions {
  storage?: { get(k: string): string | null; set(k: string, v: string): void; remove(k: string): void };
  /** whether tabs are persisted; read on every change */
  persist?: () => boolean;
  /** filter of restorable keys (unknown or no longer allowed routes are dropped) */
  isValid?: (key: string) => boolean;
}

const INITIAL: TabsState = { keys: [HOME_KEY], active: HOME_KEY };

function normalise(state: TabsState, isValid: (k: string) => boolean): TabsState {
  const keys = [HOME_KEY, ...state.keys.filter((k, i, a) => k !== HOME_KEY && isValid(k) && a.indexOf(k) === i)];
  const active = keys.includes(state.active) ? state.active : keys[keys.length - 1];
  return { keys, active };
}

export function createTabsStore(options: TabsOptions = {}): TabsStore {
  const storage = options.storage ?? local;
  const persist = options.persist ?? (() => true);
  const isValid = options.isValid ?? (() => true);
  const base = createStore<TabsState>(INITIAL);

  const commit = (next: TabsState) => {
    base.set(next);
    if (persist()) storage.set(KEYS.tabs, JSON.stringify(next));
    else storage.remove(KEYS.tabs);
  };

  return {
    ...base,
    open(key) {
      const s = base.get();
      if (s.keys.includes(key)) {
        if (s.active !== key) commit({ ...s, active: key });
        return;
      }
      commit({ keys: [...s.keys, key], active: key });
    },
    close(key) {
      const s = base.get();
      if (key === HOME_KEY || !s.keys.includes(key)) return s.active;
      const idx = s.keys.indexOf(key);
      const keys = s.keys.filter((k) => k !== key);
      // closing the active tab activates its right neighbour, or the left one when it was last
      const active = s.active === key ? keys[Math.min(idx, keys.length - 1)] : s.active;
      commit({ keys, active });
      return active;
    },
    closeOthers(key) {
      const keys = key === HOME_KEY ? [HOME_KEY] : [HOME_KEY, key];
      commit({ keys, active: key });
      return key;
    },
    closeAll() {
      commit({ ...INITIAL });
      return HOME_KEY;
    },
    restore() {
      if (!persist()) {
        base.set(INITIAL);
        return;
      }
      const saved = readJson<TabsState | null>(storage.get(KEYS.tabs), null);
      if (!saved || !Array.isArray(saved.keys)) {
        base.set(INITIAL);
        return;
      }
      base.set(normalise({ keys: saved.keys.map(String), active: String(saved.active) }, isValid));
    },
    reset() {
      storage.remove(KEYS.tabs);
      base.set(INITIAL);
    },
    sync() {
      commit(base.get());
    },
  };
}

export function useTabs(store: TabsStore): TabsState {
  return useStore(store);
}
