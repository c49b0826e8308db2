// User preferences kept in localStorage (/headSet).
import { KEYS, local, readJson } from './storage.ts';
import { createStore, useStore } from './store.ts';

export interface Settings {
  /** keep the open tabs in localStorage and restore them on reload (SPEC §4) */
  persistTabs: boolean;
  /** the notice popup closes itself 3 s after the result (SPEC §4) */
  noticeAutoClose: boolean;
  /** side menu collapsed to 50 px */
  menuCollapsed: boolean;
}

export const DEFAULT_SETTINGS: Settings = { persistTabs: true, noticeAutoClose: true, menuCollapsed: false };

function load(): Settings {
  return { ...DEFAULT_SETTINGS, ...readJson<Partial<Settings>>(local.get(KEYS.settings), {}) };
}

export const settingsStore = createStore<Settings>(load());

export function updateSettings(patch: Partial<Settings>): void {
  settingsStore.set((s) => {
    const next = { ...s, ...patch };
    local.set(KEYS.settings, JSON.stringify(next));
    return next;
  });
}

export function useSettings(): Settings {
  return useStore(settingsStore);
}
