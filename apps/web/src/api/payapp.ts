// Pay-application (汇付 AdaPay) calls (/pay/api/AdaPayApplication), through their declarations
// (E.payapp): the balances, withdrawals and statements of the accounts of /huifu (their list, 新增 and
// 删除 are CrudPage's; the log of /noteswithdraw is billingApi.withdrawals). A platform admin acts inside the company picked in the
// header (searchCompanyID). The answers' types come from @meter/contracts.
import type { PayApp, PayAppBalance, PayAppJournalEntry, WithdrawResult } from '@meter/contracts';
import type { Query } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

/** an account as listed (declared with its endpoint) */
export type PayAppRow = PayApp;
/** a line of an account's statement (declared with its endpoint) */
export type PayAppJournalRow = PayAppJournalEntry;
export type { PayAppBalance, WithdrawResult };

const inCompany = (company?: string) => ({ searchCompanyID: company });

export const payAppApi = {
  /** the accounts as listed (the withdrawal dialog's and /noteswithdraw's pickers) */
  list: (q: Query & { index: number; size: number }) => call(E.payapp.list, { query: q }),
  /** q carries the account's id (the drawer adds it) */
  journal: (q: Query & { index: number; size: number }) => call(E.payapp.journal, { query: q as typeof q & { id: number } }),
  balance: (id: number, company?: string) => call(E.payapp.balance, { query: { id, ...inCompany(company) } }),
  changeBank: (b: { id: number; bankName: string; bankAccountName: string; bankAccountNo: string }, company?: string) =>
    call(E.payapp.changeBank, { body: b, query: inCompany(company) }),
  setEnabled: (id: number, enabled: boolean, company?: string) => call(E.payapp.setEnabled, { body: { id, enabled }, query: inCompany(company) }),
  withdraw: (b: { id: number; amount: string; requestId: string; memo?: string }, company?: string) =>
    call(E.payapp.withdraw, { body: b, query: inCompany(company) }),
};
