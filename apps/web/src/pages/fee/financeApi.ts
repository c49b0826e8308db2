// The finance day (/yewu/api/DailyClosing/*: 日结/交班) and receipt voids (/yewu/api/BillPrinting/Void,
// Voids: 作废/冲正). Money on the wire is a 元 string with 2 decimals.
import { http, request, type Query } from '../../api/request.ts';
import type { PageQuery } from './billingApi.ts';

const Y = '/yewu/api';

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

export interface DayRow extends Record<string, unknown> {
  day: string;
  state: 'open' | 'closed';
  stateText: string;
  net: string;
  count: number;
  cash: string;
  wechat: string;
  alipay: string;
  bank: string;
  handovers: number;
  closedByName: string;
  closedAt: string;
  memo: string;
}

export interface ReceiptVoid {
  receiptId: number;
  reversalJournalId: number;
  reason: string;
  voidedByName: string;
  voidedAt: string;
  amount: string;
  businessDay: string;
}

const post = <T>(url: string, data: unknown, company?: string) => request<T>('POST', url, { data, params: { searchCompanyID: company } });

export const financeApi = {
  days: (q: PageQuery) => http.page<DayRow>(`${Y}/DailyClosing/List`, q),
  day: (day: string, company?: string) => http.get<DayDetail>(`${Y}/DailyClosing/Detail`, { day, searchCompanyID: company } as Query),
  closeDay: (day: string, memo: string, company?: string) => post<DayDetail>(`${Y}/DailyClosing/Close`, { day, memo }, company),
  handover: (day: string, memo: string, operatorId?: number, company?: string) => post<DayDetail>(`${Y}/DailyClosing/Handover`, { day, memo, operatorId }, company),
  voidReceipt: (receiptId: number, reason: string, company?: string) =>
    post<{ receiptId: number; no: string; reversalJournalId: number; amount: string; balance: string }>(`${Y}/BillPrinting/Void`, { receiptId, reason }, company),
  voids: (ids: number[], company?: string) =>
    ids.length ? http.get<ReceiptVoid[]>(`${Y}/BillPrinting/Voids`, { ids: ids.join(','), searchCompanyID: company } as Query) : Promise.resolve([] as ReceiptVoid[]),
};
