import { describe, expect, it } from 'vitest';
import { SUB_MER_EVENTS, SUB_MER_STATUS, SUB_MER_STATUSES, canSubMer, subMerTransition, type SubMerEvent, type SubMerStatus } from './bank.ts';

// The sub-merchant state machine, every (state, event) pair: the legal ones written out here by hand
// (applied → code sent → verified by code and amount → active ⇄ disabled; rejected along the way),
// every other pair refused with a Chinese reason naming the current state.

const LEGAL: [SubMerStatus, SubMerEvent, SubMerStatus][] = [
  ['draft', 'edit', 'draft'],
  ['rejected', 'edit', 'rejected'],
  ['draft', 'register', 'applied'],
  ['rejected', 'register', 'applied'],
  ['applied', 'sendCode', 'code_sent'],
  ['code_sent', 'sendCode', 'code_sent'],
  ['code_sent', 'verify', 'verified'],
  ['code_sent', 'verifyFailed', 'code_sent'],
  ['verified', 'activate', 'active'],
  ['applied', 'reject', 'rejected'],
  ['code_sent', 'reject', 'rejected'],
  ['verified', 'reject', 'rejected'],
  ['active', 'disable', 'disabled'],
  ['disabled', 'enable', 'active'],
];

describe('sub-merchant state machine', () => {
  it('knows every state and event', () => {
    expect(SUB_MER_STATUSES.sort()).toEqual(['active', 'applied', 'code_sent', 'disabled', 'draft', 'rejected', 'verified']);
    expect(SUB_MER_EVENTS.sort()).toEqual(['activate', 'disable', 'edit', 'enable', 'register', 'reject', 'sendCode', 'verify', 'verifyFailed']);
  });

  for (const [from, event, to] of LEGAL) {
    it(`${from} —${event}→ ${to}`, () => {
      expect(subMerTransition(from, event)).toEqual({ ok: true, to });
      expect(canSubMer(from, event)).toBe(true);
    });
  }

  it('refuses every other pair with a Chinese reason naming the current state', () => {
    let refused = 0;
    for (const from of SUB_MER_STATUSES) {
      for (const event of SUB_MER_EVENTS) {
        if (LEGAL.some(([f, e]) => f === from && e === event)) continue;
        const t = subMerTransition(from, event);
        expect(t.ok, `${from} ${event}`).toBe(false);
        if (!t.ok) expect(t.message).toContain(`当前为「${SUB_MER_STATUS[from]}」`);
        expect(canSubMer(from, event)).toBe(false);
        refused++;
      }
    }
    expect(refused).toBe(SUB_MER_STATUSES.length * SUB_MER_EVENTS.length - LEGAL.length);
  });

  it('an active sub-merchant cannot be verified or registered again; an unknown state is refused', () => {
    expect(subMerTransition('active', 'verify')).toEqual({ ok: false, message: '该商户当前为「已开通」，不能验证（仅「待验证」时可以）' });
    expect(subMerTransition('active', 'register').ok).toBe(false);
    expect(subMerTransition('whatever', 'sendCode').ok).toBe(false);
  });
});
