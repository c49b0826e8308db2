import type { StatementRow } from '../payment/index.ts';
import type { OrderHere, RefundHere, RowIn } from './repo.ts';

// The classification of one statement (channel, day) against our orders:
// - 已匹配 matched: paid at the provider, credited here, same amount;
// - 金额不符 amount_differs: our order exists, the provider's amount is another (credited or not —
//   the payment service refuses to credit a differing amount);
// - 本地缺单 missing_here: paid at the provider, not credited here (our order unpaid or closed, or no
//   such order at all: then it has no company);
// - 平台缺单 missing_there: credited here that day, no success in this statement nor in another day's.

export type Outcome = 'matched' | 'missing_here' | 'missing_there' | 'amount_differs';

export function classify(statement: StatementRow[], known: OrderHere[], paidHere: OrderHere[], inOtherStatements: Set<string>): RowIn[] {
  const byNo = new Map(known.map((o) => [o.outTradeNo, o]));
  const seen = new Map<string, RowIn>();
  for (const s of statement) {
    const o = byNo.get(s.outTradeNo);
    const outcome: Outcome = !o ? 'missing_here' : o.amountFen !== s.amountFen ? 'amount_differs' : o.status === 'paid' ? 'matched' : 'missing_here';
    seen.set(s.outTradeNo, {
      companyId: o?.companyId ?? null, outTradeNo: s.outTradeNo, tradeNo: s.tradeNo, tradeTime: s.tradeTime, providerFen: s.amountFen,
      paymentId: o?.id ?? null, ourFen: o?.amountFen ?? null, ourStatus: o?.status ?? '', outcome,
    });
  }
  for (const o of paidHere) {
    if (seen.has(o.outTradeNo) || inOtherStatements.has(o.outTradeNo)) continue;
    seen.set(o.outTradeNo, {
      companyId: o.companyId, outTradeNo: o.outTradeNo, tradeNo: '', tradeTime: '', providerFen: null, paymentId: o.id, ourFen: o.amountFen, ourStatus: o.status,
      outcome: 'missing_there',
    });
  }
  return [...seen.values()];
}

/**
 * The refund rows of a statement against our refund records (by out_refund_no): 已匹配 refunded there and
 * here (success), same amount; 金额不符 another amount; 本地缺单 refunded there, not (or not yet, or failed)
 * here; 平台缺单 succeeded here that day, in no statement.
 */
export function classifyRefunds(statement: StatementRow[], known: RefundHere[], doneHere: RefundHere[], inOtherStatements: Set<string>): RowIn[] {
  const byNo = new Map(known.map((f) => [f.outRefundNo, f]));
  const seen = new Map<string, RowIn>();
  for (const s of statement) {
    const no = s.outRefundNo ?? '';
    const f = byNo.get(no);
    const outcome: Outcome = !f ? 'missing_here' : f.amountFen !== s.amountFen ? 'amount_differs' : f.status === 'success' ? 'matched' : 'missing_here';
    seen.set(no, {
      companyId: f?.companyId ?? null, outTradeNo: s.outTradeNo, kind: 'refund', outRefundNo: no, tradeNo: s.tradeNo, tradeTime: s.tradeTime, providerFen: s.amountFen,
      paymentId: f?.paymentId ?? null, ourFen: f?.amountFen ?? null, ourStatus: f ? `refund_${f.status}` : '', outcome,
    });
  }
  for (const f of doneHere) {
    if (seen.has(f.outRefundNo) || inOtherStatements.has(f.outRefundNo)) continue;
    seen.set(f.outRefundNo, {
      companyId: f.companyId, outTradeNo: f.outTradeNo, kind: 'refund', outRefundNo: f.outRefundNo, tradeNo: '', tradeTime: '', providerFen: null, paymentId: f.paymentId,
      ourFen: f.amountFen, ourStatus: `refund_${f.status}`, outcome: 'missing_there',
    });
  }
  return [...seen.values()];
}
