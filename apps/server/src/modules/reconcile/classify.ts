import type { StatementRow } from '../payment/index.ts';
import type { OrderHere, RowIn } from './repo.ts';

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
