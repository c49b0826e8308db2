import { describe, expect, it } from 'vitest';
import { chinaMinute, nextCloseAt, supplyOf, type SupplyMeter } from './supply.ts';

// Issue 11 item 11: 断电 is shown only when the read-back says so; a deferred close is 待断电 with
// its time. Every clock here is set on purpose (China time = UTC+8).

const at = (china: string) => new Date(`${china}+08:00`);
const night = { noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: false };
const meter = (m: Partial<SupplyMeter> = {}): SupplyMeter => ({ valveState: 1, closing: false, noClose: night, protected: false, ...m });

describe('nextCloseAt', () => {
  it('now when outside the window; the window end inside it (over midnight, both sides)', () => {
    expect(nextCloseAt(night, at('2026-11-25T12:00:00'))!.toISOString()).toBe(at('2026-11-25T12:00:00').toISOString());
    expect(chinaMinute(nextCloseAt(night, at('2026-11-25T23:10:00'))!)).toBe('2026-11-26 08:00');
    expect(chinaMinute(nextCloseAt(night, at('2026-11-26T03:00:00'))!)).toBe('2026-11-26 08:00');
    expect(nextCloseAt(null, at('2026-11-26T03:00:00'))!.getTime()).toBe(at('2026-11-26T03:00:00').getTime());
  });
  it('周末不断电: Monday 00:00, or the window end on Monday when that is inside the window', () => {
    // 2026-11-28 is a Saturday
    expect(chinaMinute(nextCloseAt({ noCloseStart: '', noCloseEnd: '', noCloseWeekend: true }, at('2026-11-28T15:00:00'))!)).toBe('2026-11-30 00:00');
    expect(chinaMinute(nextCloseAt({ ...night, noCloseWeekend: true }, at('2026-11-28T15:00:00'))!)).toBe('2026-11-30 08:00');
  });
  it('null when a whole-day window never allows a close', () => {
    expect(nextCloseAt({ noCloseStart: '00:00', noCloseEnd: '00:00', noCloseWeekend: false }, at('2026-11-25T12:00:00'))).toBeNull();
  });
});

describe('supplyOf', () => {
  const now = at('2026-11-25T23:10:00');
  it('nothing for an account above the close level', () => {
    expect(supplyOf({ wallet: 'electric', alarmLevel: 2, closeDeferred: false, meters: [meter()] }, now)).toBeNull();
  });
  it('待断电 with its time while the close is deferred and the meter shows 通 — never 断电', () => {
    const s = supplyOf({ wallet: 'electric', alarmLevel: 3, closeDeferred: true, meters: [meter()] }, now)!;
    expect(s).toEqual({ state: 'pending', text: '欠费·待断电（预计 11-26 08:00）', closeAt: '2026-11-26 08:00' });
    expect(s.text).not.toContain('已断电');
  });
  it('已断电 / 已关阀 only when every meter reads back 断', () => {
    expect(supplyOf({ wallet: 'electric', alarmLevel: 3, closeDeferred: false, meters: [meter({ valveState: 0 }), meter({ valveState: 1 })] }, now)!.state).toBe('on');
    expect(supplyOf({ wallet: 'electric', alarmLevel: 3, closeDeferred: false, meters: [meter({ valveState: 0 }), meter({ valveState: 0 })] }, now)!.text).toBe('欠费·已断电');
    expect(supplyOf({ wallet: 'water', alarmLevel: 3, closeDeferred: false, meters: [meter({ valveState: 0 })] }, now)!.text).toBe('欠费·已关阀');
    expect(supplyOf({ wallet: 'water', alarmLevel: 3, closeDeferred: false, meters: [meter({ valveState: null })] }, now)!.text).toBe('欠费·未关阀');
  });
  it('断电中 while a close is on its way; 保电中 for a protected meter; 欠费 with no meter', () => {
    expect(supplyOf({ wallet: 'electric', alarmLevel: 3, closeDeferred: false, meters: [meter({ closing: true })] }, now)!.text).toBe('欠费·断电中');
    expect(supplyOf({ wallet: 'electric', alarmLevel: 3, closeDeferred: true, meters: [meter({ protected: true })] }, now)!.text).toBe('欠费·保电中，不断电');
    expect(supplyOf({ wallet: 'electric', alarmLevel: 3, closeDeferred: false, meters: [] }, now)!.text).toBe('欠费');
  });
});
