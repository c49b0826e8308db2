import { describe, expect, it } from 'vitest';
import type { LoginResult } from '@meter/contracts';
import { sha256Hex } from './sha256.ts';
import { clearSession, getSession, getToken, hasOperation, saveSession, sessionTampered, updateSessionInfo } from './session.ts';
import { KEYS } from './storage.ts';
import { createHash } from 'node:crypto';

const login: LoginResult = {
  token: 'a'.repeat(43),
  user: { id: 5, username: 'demo', realName: '演示管理员', companyId: 2, roleId: 3, userType: 1 },
  access: 1,
  routes: ['energy', 'recordsRoom'],
  operations: ['finance.prepay'],
  company: { id: 2, name: '演示物业', bankType: 0, edition: 0 },
};

describe('sha256Hex', () => {
  it('matches known vectors and node:crypto', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const s of ['智能水电表', 'x'.repeat(55), 'y'.repeat(56), 'z'.repeat(64), '🙂'.repeat(100)]) {
      expect(sha256Hex(s)).toBe(createHash('sha256').update(s, 'utf8').digest('hex'));
    }
  });
});

describe('session', () => {
  it('saves and reads back a signed session', () => {
    saveSession(login);
    const s = getSession();
    expect(s).toMatchObject({ token: login.token, access: 1, routes: login.routes, operations: login.operations });
    expect(s?.user.username).toBe('demo');
    expect(s?.company?.name).toBe('演示物业');
    expect(getToken()).toBe(login.token);
    expect(window.sessionStorage.getItem(KEYS.sign)).toMatch(/^[0-9a-f]{64}$/);
    // no password anywhere in the browser
    expect(JSON.stringify({ ...window.sessionStorage })).not.toContain('password');
  });

  it.each([
    ['routes', () => window.sessionStorage.setItem(KEYS.routes, JSON.stringify(['energy', 'recordsRoom', 'administrator']))],
    ['operations', () => window.sessionStorage.setItem(KEYS.operations, JSON.stringify(['finance.refund']))],
    ['access', () => window.sessionStorage.setItem(KEYS.access, '0')],
    ['user', () => window.sessionStorage.setItem(KEYS.user, JSON.stringify({ ...login.user, username: 'admin' }))],
    ['token', () => window.sessionStorage.setItem(KEYS.token, 'b'.repeat(43))],
    ['signature', () => window.sessionStorage.setItem(KEYS.sign, '0'.repeat(64))],
    ['missing signature', () => window.sessionStorage.removeItem(KEYS.sign)],
  ])('a tampered %s makes the session invalid', (_what, tamper) => {
    saveSession(login);
    expect(getSession()).not.toBeNull();
    tamper();
    expect(getSession()).toBeNull();
    expect(getToken()).toBeNull();
    expect(sessionTampered()).toBe(true);
  });

  it('updateSessionInfo keeps the token and re-signs', () => {
    saveSession(login);
    updateSessionInfo({ ...login, routes: ['energy'], operations: [], token: undefined } as never);
    const s = getSession();
    expect(s?.token).toBe(login.token);
    expect(s?.routes).toEqual(['energy']);
  });

  it('logout clears the session keys and the open tabs', () => {
    saveSession(login);
    window.localStorage.setItem(KEYS.tabs, JSON.stringify({ keys: ['home', 'energy'], active: 'energy' }));
    clearSession();
    expect(getSession()).toBeNull();
    expect(sessionTampered()).toBe(false);
    for (const k of [KEYS.user, KEYS.token, KEYS.access, KEYS.routes, KEYS.operations, KEYS.company, KEYS.sign]) {
      expect(window.sessionStorage.getItem(k)).toBeNull();
    }
    expect(window.localStorage.getItem(KEYS.tabs)).toBeNull();
  });

  it('hasOperation checks the operation key', () => {
    saveSession(login);
    const s = getSession();
    expect(hasOperation(s, 'finance.prepay')).toBe(true);
    expect(hasOperation(s, 'finance.refund')).toBe(false);
    expect(hasOperation(s, undefined)).toBe(true);
    expect(hasOperation(null, 'finance.prepay')).toBe(false);
  });
});
