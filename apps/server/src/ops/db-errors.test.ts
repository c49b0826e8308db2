import { describe, expect, it } from 'vitest';
import { isDbUnavailable } from './db-errors.ts';

describe('isDbUnavailable', () => {
  it('connection failures, also wrapped by drizzle; never a fault of the request', () => {
    expect(isDbUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isDbUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDbUnavailable(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }))).toBe(true);
    expect(isDbUnavailable(new Error('Failed query: select 1', { cause: Object.assign(new Error('the database system is starting up'), { code: '57P03' }) }))).toBe(true);
    expect(isDbUnavailable(new AggregateError([Object.assign(new Error('x'), { code: 'ECONNREFUSED' })]))).toBe(true);
    expect(isDbUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBe(false);
    expect(isDbUnavailable(new Error('Failed query', { cause: Object.assign(new Error('syntax error'), { code: '42601' }) }))).toBe(false);
    expect(isDbUnavailable(undefined)).toBe(false);
  });
});
