import { describe, expect, it } from 'vitest';
import { simulatedProvider } from './provider.ts';

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
