import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { idNoError, maxWithdrawalFen, withdrawalFeeFen, WITHDRAW_FEE_RULE } from './payapp.ts';

describe('withdrawal fee (0.05 %, half-up to the 分, ¥1.00 – ¥25.00)', () => {
  it('examples', () => {
    expect(withdrawalFeeFen(1)).toBe(100);
    expect(withdrawalFeeFen(200_000)).toBe(100); // ¥2,000 → ¥1.00
    expect(withdrawalFeeFen(300_000)).toBe(150); // ¥3,000 → ¥1.50
    expect(withdrawalFeeFen(300_900)).toBe(150); // 150.45 分 → 150
    expect(withdrawalFeeFen(301_000)).toBe(151); // 150.5 分 → 151 (half-up)
    expect(withdrawalFeeFen(5_000_000)).toBe(2500);
    expect(withdrawalFeeFen(100_000_000)).toBe(2500); // capped
    expect(withdrawalFeeFen(0)).toBe(0);
    expect(withdrawalFeeFen(-5)).toBe(0);
    expect(withdrawalFeeFen(1.5)).toBe(0);
  });

  it('is an integer within the bounds and never decreases with the amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e11 }), fc.integer({ min: 0, max: 1e6 }), (a, d) => {
        const f = withdrawalFeeFen(a);
        expect(Number.isInteger(f)).toBe(true);
        expect(f).toBeGreaterThanOrEqual(WITHDRAW_FEE_RULE.minFen);
        expect(f).toBeLessThanOrEqual(WITHDRAW_FEE_RULE.maxFen);
        expect(withdrawalFeeFen(a + d)).toBeGreaterThanOrEqual(f);
      }),
    );
  });

  it('maxWithdrawalFen is the largest amount whose amount + fee fits the balance', () => {
    expect(maxWithdrawalFen(10_000)).toBe(9_900);
    expect(maxWithdrawalFen(100)).toBe(0);
    expect(maxWithdrawalFen(101)).toBe(1);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1e11 }), (b) => {
        const m = maxWithdrawalFen(b);
        if (m > 0) expect(m + withdrawalFeeFen(m)).toBeLessThanOrEqual(b);
        expect(m + 1 + withdrawalFeeFen(m + 1)).toBeGreaterThan(b);
      }),
    );
  });
});

describe('ID / licence numbers', () => {
  it('企业: 统一社会信用代码; 个人: 身份证号 with its check digit', () => {
    expect(idNoError(1, '91310000MA1FL0000X')).toBeNull();
    expect(idNoError(1, '91310000ma1fl0000x')).toBeNull();
    expect(idNoError(1, '123')).toBe('统一社会信用代码须为 18 位（数字或大写字母）');
    expect(idNoError(1, '')).toBe('请输入统一社会信用代码');
    expect(idNoError(2, '11010519491231002X')).toBeNull();
    expect(idNoError(2, '110105194912310021')).toBe('身份证号不是有效的 18 位身份证号码');
  });
});
