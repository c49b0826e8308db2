// Scheme calls (/yewu/api): charging schemes with their price versions, company charge codes and
// alarm schemes. Money is 元 strings both ways (see docs/API.md); writes carry the company a platform
// admin picked (searchCompanyID).
import type { AlarmScheme, ChargeCode } from '@meter/contracts';
import { http, request, type Query } from './request.ts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';

const P = '/yewu/api';

type PageQuery = Query & { index: number; size: number };
type Body = Record<string, unknown>;
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

const post = (url: string, body: Body, company: Company) => request<{ id: number }>('POST', url, { data: body, params: { searchCompanyID: company } });
const put = (url: string, body: Body, company: Company) => request<null>('PUT', url, { data: body, params: { searchCompanyID: company } });
const del = (url: string, ids: number[], company: Company) => request<null>('DELETE', url, { data: { ids }, params: { searchCompanyID: company } });

export const chargingSchemeApi = {
  list: (q: PageQuery) => call(E.scheme.list, { query: q }),
  detail: (id: number, company?: Company) => call(E.scheme.detail, { params: { id }, query: { searchCompanyID: company } }),
  using: (company?: Company) => call(E.scheme.using, { query: { searchCompanyID: company } }),
  byType: (type: 1 | 2, company?: Company) => call(E.scheme.byType, { query: { type, searchCompanyID: company } }),
  create: (body: Body, company?: Company) => call(E.scheme.create, { body, query: { searchCompanyID: company } }),
  update: (id: number, body: Body, company?: Company) => call(E.scheme.update, { body: { ...body, id }, query: { searchCompanyID: company } }),
  remove: (ids: number[], company?: Company) => call(E.scheme.remove, { body: { ids }, query: { searchCompanyID: company } }),
};

export const chargeCodeApi = {
  list: (q: PageQuery) => http.page<ChargeCode>(`${P}/sys_companychargecode/List`, q),
  detail: (id: number, company?: Company) => http.get<ChargeCode>(`${P}/sys_companychargecode/Detail`, { id, searchCompanyID: company }),
  schemeEnum: () => call(E.scheme.schemeEnum),
  create: (body: Body, company?: Company) => post(`${P}/sys_companychargecode/Detail`, body, company),
  update: (id: number, body: Body, company?: Company) => put(`${P}/sys_companychargecode/Detail`, { ...body, id }, company),
  remove: (ids: number[], company?: Company) => del(`${P}/sys_companychargecode/Detail`, ids, company),
};

export const alarmSchemeApi = {
  list: (q: PageQuery) => http.page<AlarmScheme>(`${P}/alarmscheme/list`, q),
  detail: (id: number, company?: Company) => http.get<AlarmScheme>(`${P}/alarmscheme/detail/${id}`, { searchCompanyID: company }),
  create: (body: Body, company?: Company) => post(`${P}/alarmscheme/detail`, body, company),
  update: (id: number, body: Body, company?: Company) => put(`${P}/alarmscheme/detail`, { ...body, id }, company),
  remove: (ids: number[], company?: Company) => del(`${P}/alarmscheme/detail`, ids, company),
};
