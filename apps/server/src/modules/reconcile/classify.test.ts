import { describe, expect, it } from 'vitest';
import { classify, classifyRefunds } from './classify.ts';

// The four outcomes of a statement row against our orders, and the orders credited here that the
// statement lacks (unless another day's statement has them).

const s = (outTradeNo: string, amountFen: number) => ({ tradeNo: `T${outTradeNo}`, outTradeNo, tradeTime: '2026-11-25 10:00:00', amountFen });
const o = (id: number, outTradeNo: string, amountFen: number, status = 'paid') => ({ id, companyId: 7, outTradeNo, amountFen, status });

describe('classify', () => {
  it('matched, amount differs (credited or not), missing here (unpaid or unknown), missing there', () => {
    const rows = classify(
      [s('A', 100), s('B', 200), s('C', 300), s('D', 400), s('E', 500)],
      [o(1, 'A', 100), o(2, 'B', 201), o(3, 'C', 300, 'created'), o(4, 'D', 401, 'closed')],
      [o(1, 'A', 100), o(2, 'B', 201), o(5, 'F', 600), o(6, 'G', 700)],
      new Set(['G']),
    );
    const by = Object.fromEntries(rows.map((r) => [r.outTradeNo, [r.outcome, r.companyId, r.providerFen, r.ourFen]]));
    expect(by).toEqual({
      A: ['matched', 7, 100, 100],
      B: ['amount_differs', 7, 200, 201],
      C: ['missing_here', 7, 300, 300],
      D: ['amount_differs', 7, 400, 401],
      E: ['missing_here', null, 500, null],
      F: ['missing_there', 7, null, 600],
    });
  });

  it('refund rows: matched, amount differs, missing here (unknown or failed here), missing there (unless in another statement)', () => {
    const r = (no: string, amountFen: number) => ({ ...s('P', amountFen), kind: 'refund' as const, outRefundNo: no });
    const f = (id: number, no: string, amountFen: number, status = 'success') => ({ id, companyId: 7, paymentId: 9, outTradeNo: 'P', outRefundNo: no, amountFen, status });
    const rows = classifyRefunds(
      [r('R1', 100), r('R2', 200), r('R3', 300), r('R4', 400)],
      [f(1, 'R1', 100), f(2, 'R2', 201), f(4, 'R4', 400, 'failed')],
      [f(1, 'R1', 100), f(5, 'R5', 500), f(6, 'R6', 600)],
      new Set(['R6']),
    );
    const by = Object.fromEntries(rows.map((x) => [x.outRefundNo, [x.kind, x.outcome, x.companyId, x.providerFen, x.ourFen, x.ourStatus]]));
    expect(by).toEqual({
      R1: ['refund', 'matched', 7, 100, 100, 'refund_success'],
      R2: ['refund', 'amount_differs', 7, 200, 201, 'refund_success'],
      R3: ['refund', 'missing_here', null, 300, null, ''],
      R4: ['refund', 'missing_here', 7, 400, 400, 'refund_failed'],
      R5: ['refund', 'missing_there', 7, null, 500, 'refund_success'],
    });
  });
});
