import { describe, expect, it } from 'vitest';
import { SessionCache } from './session-cache.ts';
import type { SessionRow } from './repo.ts';

const row = (id: number): SessionRow => ({
  session_id: id, user_id: id, username: `u${id}`, real_name: '', company_id: 1, role_id: 1, access: 1, user_type: 1,
  routes: [], operations: [], area_ids: null,
});

describe('SessionCache', () => {
  it('answers within its lifetime only', () => {
    const c = new SessionCache(1000);
    c.set('a', row(1), c.generation, 10_000);
    expect(c.get('a', 10_999)?.session_id).toBe(1);
    expect(c.get('a', 11_000)).toBeUndefined();
    expect(c.size).toBe(0);
  });

  it('keeps nothing when switched off', () => {
    const c = new SessionCache(0);
    c.set('a', row(1), c.generation);
    expect(c.get('a')).toBeUndefined();
  });

  it('clear forgets everything; when full the oldest entry goes', () => {
    const c = new SessionCache(60_000, 2);
    c.set('a', row(1), c.generation);
    c.set('b', row(2), c.generation);
    c.set('c', row(3), c.generation);
    expect([c.get('a'), c.get('b')?.session_id, c.get('c')?.session_id]).toEqual([undefined, 2, 3]);
    c.clear();
    expect(c.get('b')).toBeUndefined();
  });

  it('a lookup that started before a clear does not store its (possibly stale) row', () => {
    const c = new SessionCache(60_000);
    const gen = c.generation;
    c.clear(); // a logout committed while the lookup was in flight
    c.set('a', row(1), gen);
    expect(c.get('a')).toBeUndefined();
  });
});
