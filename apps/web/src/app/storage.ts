// Storage keys in one place. Session data lives in sessionStorage (one browser tab = one session);
// open tabs, the lock flag and settings live in localStorage (they survive a reload).

export const KEYS = {
  user: 'meter.user',
  token: 'meter.token',
  access: 'meter.access',
  routes: 'meter.routes',
  operations: 'meter.operations',
  company: 'meter.company',
  sign: 'meter.sign',
  companyPick: 'meter.companyPick',
  tabs: 'meter.tabs',
  locking: 'meter.locking',
  lastPage: 'meter.lastPage',
  settings: 'meter.settings',
  edition: 'meter.edition',
} as const;

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export const session = {
  get: (k: string) => safe(() => window.sessionStorage.getItem(k), null),
  set: (k: string, v: string) => safe(() => window.sessionStorage.setItem(k, v), undefined),
  remove: (k: string) => safe(() => window.sessionStorage.removeItem(k), undefined),
};

export const local = {
  get: (k: string) => safe(() => window.localStorage.getItem(k), null),
  set: (k: string, v: string) => safe(() => window.localStorage.setItem(k, v), undefined),
  remove: (k: string) => safe(() => window.localStorage.removeItem(k), undefined),
};

export function readJson<T>(raw: string | null, fallback: T): T {
  if (raw == null) return fallback;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return fallback;
  }
}
