// The finance day (/yewu/api/DailyClosing/*: 日结/交班) and receipt voids (/yewu/api/BillPrinting/Void,
// Voids: 作废/冲正). Money on the wire is a 元 string with 2 decimals.
import type { API, ResultOf } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import type { PageQuery } from './billingApi.ts';

export interface MethodFigures {
  method: 'cash' | 'wechat' | 'alipay' | 'bank';
  methodText: string;
  receipt: string;
  refund: string;
  reversal: string;
  net: string;
  count: number;
}

export interface DayTotals {
  methods: MethodFigures[];
  operators: { operatorId: number | null; operatorName: string; methods: MethodFigures[]; net: string; count: number }[];
  nonCash: { kind: string; kindText: string; amount: string; count: number }[];
  net: string;
  count: number;
}

export interface Handover {
  state: 'open' | 'closed';
  stateText: string;
  closedByName: string;
  closedAt: string;
  memo: string;
}

export interface DayDetail {
  day: string;
  companyName: string;
  state: 'open' | 'closed';
  stateText: string;
  closing: { id: number; closedByName: string; closedAt: string; memo: string } | null;
  totals: DayTotals;
  operators: { operatorId: number; operatorName: string; methods: MethodFigures[]; net: string; count: number; handover: Handover }[];
  printedByName: string;
}

/** a business day in the list (declared with its endpoint) */
export type DayRow = ResultOf<typeof API.finance.days> & Record<string, unknown>;

export interface ReceiptVoid {
  receiptId: number;
  reversalJournalId: number;
  reason: string;
  voidedByName: string;
  voidedAt: string;
  amount: string;
  businessDay: string;
}

/** what a void answers: the receipt, its reversal and the room's balance after it */
interface VoidAnswer { receiptId: number; no: string; reversalJournalId: number; amount: string; balance: string }

const F = E.finance;
const inCompany = (company?: string) => ({ searchCompanyID: company });

export const financeApi = {
  days: (q: PageQuery) => call(F.days, { query: q }),
  day: (day: string, company?: string) => call(F.day, { query: { day, ...inCompany(company) } }) as Promise<DayDetail>,
  closeDay: (day: string, memo: string, company?: string) => call(F.closeDay, { body: { day, memo }, query: inCompany(company) }) as Promise<DayDetail>,
  handover: (day: string, memo: string, operatorId?: number, company?: string) =>
    call(F.handover, { body: { day, memo, operatorId }, query: inCompany(company) }) as Promise<DayDetail>,
  voidReceipt: (receiptId: number, reason: string, company?: string) =>
    call(F.voidReceipt, { body: { receiptId, reason }, query: inCompany(company) }) as Promise<VoidAnswer>,
  voids: (ids: number[], company?: string) =>
    ids.length ? (call(F.voids, { query: { ids: ids.join(','), ...inCompany(company) } }) as Promise<ReceiptVoid[]>) : Promise.resolve([] as ReceiptVoid[]),
};
