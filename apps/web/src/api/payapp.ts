// Pay-application (汇付 AdaPay) calls (/pay/api/AdaPayApplication): the accounts of /huifu with their
// balances, and withdrawals (the log of /noteswithdraw is billingApi.withdrawals). A platform admin
// acts inside the company picked in the header (searchCompanyID).
import { http, request, type Paged, type Query } from './request.ts';

const P = '/pay/api/AdaPayApplication';

export interface PayAppRow {
  id: number;
  companyId: number;
  companyName: string | null;
  name: string;
  kind: number;
  kindText: string;
  legalPerson: string;
  contactName: string;
  idNo: string;
  phone: string;
  bankName: string;
  bankAccountName: string;
  bankAccountNo: string;
  /** pending 审核中, opened 已开通, disabled 已停用, rejected 未通过 */
  status: string;
  statusText: string;
  providerAppId: string;
  reason: string;
  /** 元 strings */
  balance: string;
  balanceFen: number;
  processing: string;
  processingCount: number;
  maxWithdrawal: string;
  memo: string;
  openedAt: string | null;
  createdAt: string;
}

export interface PayAppBalance {
  id: number;
  name: string;
  status: string;
  statusText: string;
  balance: string;
  balanceFen: number;
  processing: string;
  processingCount: number;
  maxWithdrawal: string;
  fee: { rateBp: number; min: string; max: string; text: string };
}

export interface WithdrawResult {
  id: number;
  requestId: string;
  amount: string;
  fee: string;
  status: number;
  statusText: string;
  balance: string;
  duplicate: boolean;
}

export interface PayAppJournalRow {
  id: number;
  applicationId: number;
  /** collect 收款, withdrawal 提现, fee 提现手续费, reversal 提现失败退回 */
  kind: string;
  kindText: string;
  /** signed 元 strings */
  amount: string;
  balanceAfter: string;
  refType: string;
  refId: number | null;
  operatorName: string;
  memo: string;
  createdAt: string;
}

const post = <T>(url: string, data: unknown, company?: string) => request<T>('POST', url, { data, params: { searchCompanyID: company } });

export const payAppApi = {
  list: (q: Query & { index: number; size: number }) => http.page<PayAppRow>(`${P}/GetAdaPayApplicationAllList`, q) as Promise<Paged<PayAppRow>>,
  journal: (q: Query & { index: number; size: number }) => http.page<PayAppJournalRow>(`${P}/FindJournal`, q) as Promise<Paged<PayAppJournalRow>>,
  balance: (id: number, company?: string) => http.get<PayAppBalance>(`${P}/GetBalance`, { id, searchCompanyID: company }),
  add: (b: Record<string, unknown>, company?: string) => post<{ id: number }>(`${P}/AddAdaPayApplication`, b, company),
  remove: (id: number, company?: string) => post<null>(`${P}/Del`, { id }, company),
  changeBank: (b: { id: number; bankName: string; bankAccountName: string; bankAccountNo: string }, company?: string) =>
    post<null>(`${P}/ChangeBankCode`, b, company),
  setEnabled: (id: number, enabled: boolean, company?: string) => post<null>(`${P}/ChangeStatus`, { id, enabled }, company),
  withdraw: (b: { id: number; amount: string; requestId: string; memo?: string }, company?: string) =>
    post<WithdrawResult>(`${P}/Withdrawal`, b, company),
};
