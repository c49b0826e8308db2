// Scheme calls (/yewu/api): charging schemes with their price versions, company charge codes and
// alarm schemes. Money is 元 strings both ways (see docs/API.md); writes carry the company a platform
// admin picked (searchCompanyID).
import type { AlarmScheme, ChargeCode, CrudRow } from '@meter/contracts';
import type { Paged, Query } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

/** a declared resource answers CrudRow; these are its fields */
export type ChargeCodeRow = ChargeCode & CrudRow;
export type AlarmSchemeRow = AlarmScheme & CrudRow;

type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

const inCompany = (company: Company) => ({ searchCompanyID: company });

/** the schemes' list (the home page's loader) and the pickers' in-use lists; /recordsFees is CrudPage's (E.scheme) */
export const chargingSchemeApi = {
  list: (q: PageQuery) => call(E.scheme.list, { query: q }),
  using: (company?: Company) => call(E.scheme.using, { query: inCompany(company) }),
  byType: (type: 1 | 2, company?: Company) => call(E.scheme.byType, { query: { type, ...inCompany(company) } }),
};

export const chargeCodeApi = {
  list: (q: PageQuery) => call(E.chargeCode.list, { query: q }) as Promise<Paged<ChargeCodeRow>>,
};

export const alarmSchemeApi = {
  list: (q: PageQuery) => call(E.alarmScheme.list, { query: q }) as Promise<Paged<AlarmSchemeRow>>,
  detail: (id: number, company?: Company) => call(E.alarmScheme.detail, { params: { id }, query: inCompany(company) }) as Promise<AlarmSchemeRow>,
};
