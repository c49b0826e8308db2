import { describe, expect, it } from 'vitest';
import { orderNo, parseOrderNo, signNotice, simulatedProvider, verifyNotice } from './provider.ts';

describe('simulated pay-application provider', () => {
  const at = new Date('2026-01-01T00:00:00Z');
  const w = { id: 7, companyId: 1, providerAppId: 'SIMAPP1', amountFen: 100, bankAccountNo: '6217000012345678', createdAt: at, providerNo: '' };

  it('opens every application', async () => {
    const p = simulatedProvider();
    expect(await p.application({ id: 3, companyId: 1, name: 'x', kind: 1, idNo: '', bankAccountNo: '' })).toEqual({ status: 'opened', providerAppId: 'SIMAPP3' });
  });

  it('a withdrawal is processing until the delay has passed, then succeeds — or fails for a card ending in 4444', async () => {
    let now = at.getTime();
    const p = simulatedProvider({ delayMs: 5000, now: () => now });
    expect(await p.submitWithdrawal(w, 'WD1-7')).toEqual({ providerNo: 'SIMWD7' });
    expect(await p.withdrawal(w)).toEqual({ status: 'processing' });
    now += 4999;
    expect(await p.withdrawal(w)).toEqual({ status: 'processing' });
    now += 1;
    expect(await p.withdrawal(w)).toEqual({ status: 'succeeded' });
    const bad = await p.withdrawal({ ...w, bankAccountNo: '6217000000004444' });
    expect(bad.status).toBe('failed');
    expect(bad.status === 'failed' && bad.reason).toContain('银行退票');
  });
});

describe('withdrawal notices', () => {
  it('order numbers round-trip; a notice verifies only with its own fields and signature', () => {
    expect(orderNo(12, 345)).toBe('WD12-345');
    expect(parseOrderNo('WD12-345')).toEqual({ companyId: 12, id: 345 });
    expect(parseOrderNo('WD12-')).toBeNull();
    expect(parseOrderNo('XX12-3')).toBeNull();
    const n = { order_no: 'WD1-2', provider_no: 'AD2', status: 'failed' as const };
    const sign = signNotice(n);
    expect(verifyNotice({ ...n, sign })).toBe(true);
    expect(verifyNotice({ ...n, status: 'succeeded', sign })).toBe(false);
    expect(verifyNotice({ ...n, provider_no: 'AD3', sign })).toBe(false);
    expect(verifyNotice({ ...n, sign: 'nothex' })).toBe(false);
  });
});
