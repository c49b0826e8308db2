// The signed-in session (SPEC §4): user, token, access level, allowed routes and operations (and the
// company) in sessionStorage, plus an integrity signature: SHA-256 over user, token, access, routes,
// operations and company. We keep no password in the browser, so the token stands in for it in the
// hash. Any mismatch (a hand-edited route list, a missing key) makes the session invalid → login.

import { useSyncExternalStore } from 'react';
import type { LoginResult, SessionCompany, SessionUser } from '@meter/contracts';
import { sha256Hex } from './sha256.ts';
import { KEYS, local, readJson, session as store } from './storage.ts';

/** The signed-in session: what the login answered (user, token, access level, routes, operations, company). */
export type Session = LoginResult;

export type SessionInfo = Omit<LoginResult, 'token'>;

const SIGNED_KEYS = [KEYS.user, KEYS.token, KEYS.access, KEYS.routes, KEYS.operations, KEYS.company] as const;

/** The signature of the stored values, computed over their exact stored text. */
export function signValues(values: readonly (string | null)[]): string {
  return sha256Hex(JSON.stringify(['meter-session-v1', ...values]));
}

function rawValues(): (string | null)[] {
  return SIGNED_KEYS.map((k) => store.get(k));
}

/** Parse and verify the stored session; null when absent, incomplete or tampered with. */
function verify(values: (string | null)[], sign: string | null): Session | null {
  const [user, token, access, routes, operations, company] = values;
  if (!user || !token || access == null || !routes || !operations || !sign) return null;
  if (signValues(values) !== sign) return null;
  const parsed: Session = {
    token,
    user: readJson<SessionUser | null>(user, null) as SessionUser,
    access: Number(access),
    routes: readJson<string[]>(routes, []),
    operations: readJson<string[]>(operations, []),
    company: readJson<SessionCompany | null>(company, null),
  };
  if (!parsed.user || !Array.isArray(parsed.routes) || !Array.isArray(parsed.operations)) return null;
  if (!Number.isInteger(parsed.access)) return null;
  return parsed;
}

// useSyncExternalStore needs a stable snapshot: re-verify only when the stored text changes.
let cachedRaw: string | undefined;
let cached: Session | null = null;
const listeners = new Set<() => void>();

/** The current valid session, or null (missing or signature mismatch). Re-reads storage every call. */
export function getSession(): Session | null {
  const values = rawValues();
  const sign = store.get(KEYS.sign);
  const raw = JSON.stringify([values, sign]);
  if (raw !== cachedRaw) {
    cachedRaw = raw;
    cached = verify(values, sign);
  }
  return cached;
}

/** True when something is stored but it fails verification (tampered): the caller should log in again. */
export function sessionTampered(): boolean {
  return store.get(KEYS.token) != null && getSession() === null;
}

export function getToken(): string | null {
  return getSession()?.token ?? null;
}

function notify() {
  for (const l of [...listeners]) l();
}

function write(s: Session) {
  const values: string[] = [
    JSON.stringify(s.user),
    s.token,
    String(s.access),
    JSON.stringify(s.routes),
    JSON.stringify(s.operations),
    JSON.stringify(s.company ?? null),
  ];
  SIGNED_KEYS.forEach((k, i) => store.set(k, values[i]));
  store.set(KEYS.sign, signValues(values));
  if (s.company) local.set(KEYS.edition, String(s.company.edition));
  notify();
}

export function saveSession(login: LoginResult): void {
  write({
    token: login.token,
    user: login.user,
    access: login.access,
    routes: login.routes ?? [],
    operations: login.operations ?? [],
    company: login.company ?? null,
  });
}

/** Refresh user, routes, operations and company from GET admin/user/token, keeping the token. */
export function updateSessionInfo(info: SessionInfo): void {
  const current = getSession();
  if (!current) return;
  write({
    token: current.token,
    user: info.user ?? current.user,
    access: typeof info.access === 'number' ? info.access : current.access,
    routes: info.routes ?? current.routes,
    operations: info.operations ?? current.operations,
    company: info.company ?? null,
  });
}

/** Logout: clear the session keys, the company picked by a platform admin, the open tabs and the lock. */
export function clearSession(): void {
  for (const k of [...SIGNED_KEYS, KEYS.sign, KEYS.companyPick]) store.remove(k);
  local.remove(KEYS.tabs);
  local.remove(KEYS.lastPage);
  local.set(KEYS.locking, '0');
  notify();
  for (const fn of clearHooks) fn();
}

const clearHooks = new Set<() => void>();
/** Other stores (tabs, area filters) register here to reset their in-memory state at logout. */
export function onSessionCleared(fn: () => void): () => void {
  clearHooks.add(fn);
  return () => clearHooks.delete(fn);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, getSession);
}

export function hasOperation(s: Session | null, key: string | undefined): boolean {
  if (!key) return true;
  return !!s && s.operations.includes(key);
}

/** Whether the user may perform the operation key (spec §6: rights are checked by key per action). */
export function useCan(key: string | undefined): boolean {
  return hasOperation(useSession(), key);
}

/** The edition remembered from the last login, so /login can show the right title. */
export function rememberedEdition(): number {
  const n = Number(local.get(KEYS.edition));
  return Number.isInteger(n) ? n : 0;
}
