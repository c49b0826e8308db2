import { describe, expect, it } from 'vitest';
import { afterFailure, canMove, chinaClock, FINAL, noCloseReason, protocolOf, routeOf, type CommandStatus } from './rules.ts';

// China time = UTC+8: 2025-06-02 is a Monday, 2025-06-07 a Saturday.
const at = (local: string) => new Date(`${local}+08:00`);

describe('command lifecycle', () => {
  it('queued → sent → a final status; final statuses never move', () => {
    expect(canMove('queued', 'sent')).toBe(true);
    expect(canMove('queued', 'expired')).toBe(true);
    expect(canMove('queued', 'succeeded')).toBe(false);
    for (const s of ['succeeded', 'failed', 'timed_out', 'expired'] as CommandStatus[]) expect(canMove('sent', s)).toBe(true);
    expect(canMove('sent', 'queued')).toBe(true);
    for (const from of FINAL) for (const to of ['queued', 'sent', 'succeeded', 'failed'] as CommandStatus[]) expect(canMove(from, to)).toBe(false);
  });

  const now = new Date('2025-06-02T00:00:00Z');
  const later = new Date(now.getTime() + 3600_000);

  it('a transient failure is retried with a growing delay while attempts and time remain', () => {
    const r1 = afterFailure({ attempts: 1, maxAttempts: 3, expiresAt: later }, true, now, 5000);
    expect(r1).toEqual({ status: 'queued', nextAttemptAt: new Date(now.getTime() + 5000) });
    const r2 = afterFailure({ attempts: 2, maxAttempts: 3, expiresAt: later }, true, now, 5000);
    expect(r2).toEqual({ status: 'queued', nextAttemptAt: new Date(now.getTime() + 10_000) });
  });

  it('the last attempt, or no time left before expiry, ends timed out', () => {
    expect(afterFailure({ attempts: 3, maxAttempts: 3, expiresAt: later }, true, now, 5000)).toEqual({ status: 'timed_out' });
    expect(afterFailure({ attempts: 1, maxAttempts: 3, expiresAt: new Date(now.getTime() + 1000) }, true, now, 5000)).toEqual({ status: 'timed_out' });
  });

  it('a device refusal is final at once', () => {
    expect(afterFailure({ attempts: 1, maxAttempts: 3, expiresAt: later }, false, now, 5000)).toEqual({ status: 'failed' });
  });
});

describe('no-disconnect hours', () => {
  const night = { noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: false };

  it('a window over midnight covers the late evening and the early morning', () => {
    expect(noCloseReason(night, at('2025-06-02T23:30:00'))).toContain('22:00-08:00');
    expect(noCloseReason(night, at('2025-06-02T07:59:00'))).not.toBeNull();
    expect(noCloseReason(night, at('2025-06-02T08:00:00'))).toBeNull();
    expect(noCloseReason(night, at('2025-06-02T21:59:00'))).toBeNull();
    expect(noCloseReason(night, at('2025-06-02T22:00:00'))).not.toBeNull();
  });

  it('a daytime window', () => {
    const day = { noCloseStart: '09:00', noCloseEnd: '17:30', noCloseWeekend: false };
    expect(noCloseReason(day, at('2025-06-02T09:00:00'))).not.toBeNull();
    expect(noCloseReason(day, at('2025-06-02T17:29:59'))).not.toBeNull();
    expect(noCloseReason(day, at('2025-06-02T17:30:00'))).toBeNull();
    expect(noCloseReason(day, at('2025-06-02T08:59:00'))).toBeNull();
  });

  it('weekends (China time) when the scheme says so', () => {
    const weekend = { noCloseStart: '', noCloseEnd: '', noCloseWeekend: true };
    expect(noCloseReason(weekend, at('2025-06-07T12:00:00'))).toBe('周末不断电');
    expect(noCloseReason(weekend, at('2025-06-08T23:59:00'))).toBe('周末不断电');
    // Friday 23:30 in China is still Friday, although it is Friday 15:30 UTC
    expect(noCloseReason(weekend, at('2025-06-06T23:30:00'))).toBeNull();
    // Monday 01:00 in China is Sunday in UTC: not a weekend here
    expect(noCloseReason(weekend, at('2025-06-09T01:00:00'))).toBeNull();
  });

  it('no scheme, blank or malformed times: no restriction; equal start and end: all day', () => {
    expect(noCloseReason(null, at('2025-06-02T23:00:00'))).toBeNull();
    expect(noCloseReason({ noCloseStart: '', noCloseEnd: '', noCloseWeekend: false }, at('2025-06-02T23:00:00'))).toBeNull();
    expect(noCloseReason({ noCloseStart: '25:00', noCloseEnd: '08:00', noCloseWeekend: false }, at('2025-06-02T23:00:00'))).toBeNull();
    expect(noCloseReason({ noCloseStart: '00:00', noCloseEnd: '00:00', noCloseWeekend: false }, at('2025-06-02T12:00:00'))).not.toBeNull();
  });

  it('chinaClock', () => {
    expect(chinaClock(at('2025-06-07T00:05:00'))).toEqual({ minutes: 5, weekday: 6 });
  });
});

describe('protocol and route of a meter', () => {
  it('protocol from the dictionary, else from the address length, else from the kind', () => {
    expect(protocolOf({ kind: 1, address: '00000000000001', protocolId: 11 })).toBe('dlt645');
    expect(protocolOf({ kind: 1, address: '00000000000001', protocolId: null })).toBe('cjt188');
    expect(protocolOf({ kind: 2, address: '000000000001', protocolId: null })).toBe('dlt645');
    expect(protocolOf({ kind: 2, address: '1', protocolId: null })).toBe('cjt188');
  });

  it('behind a collector: its connection; NB: MQTT; 4G: own connection, else MQTT', () => {
    const base = { kind: 1, plan: 0, address: '000000000001', imei: '', protocolId: null, collectorId: null };
    expect(routeOf({ ...base, collectorId: 5 }, '860000000000001')).toMatchObject({ imei: '860000000000001', mqtt: false });
    expect(routeOf({ ...base, plan: 3, imei: '860000000000002' }, null)).toMatchObject({ imei: null, mqtt: true });
    expect(routeOf({ ...base, imei: '860000000000003' }, null)).toMatchObject({ imei: '860000000000003', mqtt: true });
  });
});
