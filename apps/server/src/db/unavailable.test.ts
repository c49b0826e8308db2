import { describe, expect, it } from 'vitest';
import { databaseUnavailable } from './unavailable.ts';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('databaseUnavailable', () => {
  it('is true for a database that is away', () => {
    expect(databaseUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(databaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(databaseUnavailable(pgError('57P01', 'terminating connection due to administrator command'))).toBe(true);
    expect(databaseUnavailable(pgError('57P03', 'the database system is starting up'))).toBe(true);
    expect(databaseUnavailable(pgError('08006'))).toBe(true);
    expect(databaseUnavailable(pgError('53300', 'too many connections'))).toBe(true);
    expect(databaseUnavailable(pgError('55000', 'database "x" is not currently accepting connections'))).toBe(true);
    expect(databaseUnavailable(pgError('40P01'))).toBe(true);
  });

  it('is false for an error of the statement or its data', () => {
    expect(databaseUnavailable(pgError('23505', 'duplicate key value'))).toBe(false);
    expect(databaseUnavailable(pgError('42P01', 'relation does not exist'))).toBe(false);
    expect(databaseUnavailable(pgError('22003', 'numeric field overflow'))).toBe(false);
    expect(databaseUnavailable(pgError('55000', 'cannot change sequence'))).toBe(false);
    expect(databaseUnavailable(new TypeError('meter ids must be integers'))).toBe(false);
    expect(databaseUnavailable('not an error')).toBe(false);
  });
});
