import { describe, expect, it } from 'vitest';
import { trustProxyOf } from './config.ts';

describe('TRUST_PROXY', () => {
  it('trusts nobody by default', () => {
    expect(trustProxyOf('')).toBe(false);
    expect(trustProxyOf('  ')).toBe(false);
  });

  it('takes a hop count', () => {
    const f = trustProxyOf('1');
    expect(typeof f).toBe('function');
    if (typeof f !== 'function') return;
    expect(f('10.0.0.1', 0)).toBe(true);
    expect(f('10.0.0.2', 1)).toBe(false);
  });

  it('takes a list of addresses and CIDRs', () => {
    expect(trustProxyOf('127.0.0.1, 10.0.0.0/8')).toEqual(['127.0.0.1', '10.0.0.0/8']);
  });
});
