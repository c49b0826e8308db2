import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { makeCompany, makeRole, makeUser } from '../../../test/factories.ts';
import { LOGIN_FAILED_MESSAGE } from './service.ts';

// Login attempts are limited per IP address and per username (issue 12 §7); every failure takes one
// argon2 verification, known username or not.

const t = await fileApp({ idleMinutes: 30, maxHours: 12, loginPerIp: 6, loginPerAccount: 3 });

const login = (username: string, password: string, ip: string) =>
  t.app.inject({ method: 'POST', url: '/yonghu/api/admin/login', payload: { username, password }, remoteAddress: ip });

describe('login limits', () => {
  it('one address trying many usernames is refused with 429 after the limit, in Chinese', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await login(`nobody${i}`, 'x', '10.0.0.1')).statusCode);
    expect(codes.slice(0, 6).every((c) => c === 200)).toBe(true);
    const r = await login('nobody9', 'x', '10.0.0.1');
    expect(r.statusCode).toBe(429);
    expect(r.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS' });
    expect(r.json().message).toMatch(/^尝试过于频繁，请 \d+ 秒后再试$/);
    // another address is not affected
    expect((await login('nobody10', 'x', '10.0.0.2')).json()).toEqual({ code: 'LOGIN_FAILED', message: LOGIN_FAILED_MESSAGE });
  });

  it('a client cannot pick the address it is counted under with X-Forwarded-For (no proxy is trusted by default)', async () => {
    const forged = (i: number) =>
      t.app.inject({ method: 'POST', url: '/yonghu/api/admin/login', payload: { username: `forger${i}`, password: 'x' }, remoteAddress: '10.0.0.3', headers: { 'x-forwarded-for': `192.0.2.${i}` } });
    const codes: number[] = [];
    for (let i = 0; i < 7; i++) codes.push((await forged(i)).statusCode);
    expect(codes.slice(0, 6).every((c) => c === 200)).toBe(true);
    expect(codes[6]).toBe(429);
  });

  it('one username tried from many addresses is refused after the limit, even with its right password', async () => {
    const companyId = await makeCompany(t.owner);
    const u = await makeUser(t.owner, { companyId, roleId: await makeRole(t.owner, companyId, ['home']) });
    for (let i = 0; i < 3; i++) expect((await login(u.username, 'bad', `10.1.0.${i}`)).json().code).toBe('LOGIN_FAILED');
    const r = await login(u.username.toUpperCase(), u.password, '10.1.0.9');
    expect(r.statusCode).toBe(429);
  });

  it('an unknown username takes about as long as a known one with a wrong password', async () => {
    const companyId = await makeCompany(t.owner);
    const u = await makeUser(t.owner, { companyId, roleId: await makeRole(t.owner, companyId, ['home']) });
    const time = async (username: string, ip: string) => {
      const s = performance.now();
      await login(username, 'wrong-password', ip);
      return performance.now() - s;
    };
    await time('warmup-nobody', '10.2.0.1'); // the dummy hash is made once
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 3; i++) {
      known.push(await time(u.username, `10.2.1.${i}`));
      unknown.push(await time(`nobody-timing-${i}`, `10.2.2.${i}`));
    }
    // both verify one argon2 hash (tens of ms); without the dummy verification the unknown one took ~1 ms.
    // The fastest of each (the least disturbed by a busy machine) is compared, with a wide margin: this
    // tells "verifies a hash" from "answers at once", not small differences.
    expect(Math.min(...unknown)).toBeGreaterThan(Math.min(...known) * 0.25);
  });
});
