// Bank sub-merchant calls (/pay/api/AgricultureBank, Property_Info, companyBocInfo, Bank/List) through
// their declarations (E.agricultureBank, E.propertyInfo, E.companyBocInfo, E.bank). A platform admin
// acts inside the company picked in the header (searchCompanyID). Answer types come from @meter/contracts.
import type { BankLog, BankWithdrawal, BankWithdrawalResult, BocInfo, BocInfoInput, SubAcc, SubMerState } from '@meter/contracts';
import type { Query } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

export type { BankLog, BankWithdrawal, BankWithdrawalResult, BocInfo, SubAcc, SubMerState };

const inCompany = (company?: string) => ({ searchCompanyID: company });

export const bankApi = {
  register: (propertyID: number, company?: string) => call(E.agricultureBank.register, { query: { propertyID, ...inCompany(company) } }),
  sendCode: (subMerId: string, company?: string) => call(E.agricultureBank.sendCode, { query: { subMerId, ...inCompany(company) } }),
  verify: (b: { subMerId: string; code: string; amount: string }, company?: string) => call(E.agricultureBank.verify, { body: b, query: inCompany(company) }),
  setStatus: (subMerId: string, status: 'active' | 'disabled', company?: string) =>
    call(E.agricultureBank.setStatus, { body: { subMerId, status }, query: inCompany(company) }),
  balance: (subMerId: string, company?: string) => call(E.agricultureBank.balance, { query: { subMerId, ...inCompany(company) } }),
  withdraw: (b: { subMerId: string; amount: string; requestId: string; memo?: string }, company?: string) =>
    call(E.agricultureBank.withdraw, { body: b, query: inCompany(company) }),
  withdrawals: (q: Query & { index: number; size: number }) => call(E.agricultureBank.withdrawals, { query: q }),
  logs: (q: Query & { index: number; size: number }) => call(E.agricultureBank.logs, { query: q }),
  bocInfo: (company?: string) => call(E.companyBocInfo.get, { query: inCompany(company) }),
  saveBocInfo: (b: BocInfoInput, company?: string) => call(E.companyBocInfo.save, { body: b, query: inCompany(company) }),
};
