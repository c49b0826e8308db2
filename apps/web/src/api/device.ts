// Device service calls (/device/api/v1): collectors (gather), meters (device), focus devices, the
// device dictionaries and the company's allowed device plans.
import type { AllowedPlans, CollectorRow, FocusRow, LookupKind, LookupRow, MeterRow } from '@meter/contracts';
import { http, request, type Paged, type Query } from './request.ts';

const P = '/device/api/v1';

type PageQuery = Query & { index: number; size: number };
type Body = Record<string, unknown>;
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

const post = <T>(url: string, body: Body, company: Company) => request<T>('POST', url, { data: body, params: { searchCompanyID: company } });
const put = (url: string, body: Body, company: Company) => request<null>('PUT', url, { data: body, params: { searchCompanyID: company } });
const del = (url: string, id: number, company?: Company) => request<null>('DELETE', url, { params: { id, searchCompanyID: company } });

export const gatherApi = {
  list: (q: PageQuery) => http.page<CollectorRow>(`${P}/gather/list`, q),
  get: (id: number, company?: Company) => http.get<CollectorRow>(`${P}/gather`, { id, searchCompanyID: company }),
  create: (body: Body, company?: Company) => post<{ id: number }>(`${P}/gather`, body, company),
  update: (id: number, body: Body, company?: Company) => put(`${P}/gather`, { ...body, id }, company),
  remove: (id: number, company?: Company) => del(`${P}/gather`, id, company),
  /** the registration secret (`REG <imei> <secret>`), for whoever may edit collectors */
  secret: (id: number, company?: Company) => http.get<CollectorSecret>(`${P}/gather/secret`, { id, searchCompanyID: company }),
  /** a new registration secret: the old one stops working at once */
  resetSecret: (id: number, company?: Company) =>
    request<CollectorSecret>('POST', `${P}/gather/secret/reset`, { params: { id, searchCompanyID: company } }),
};

export interface CollectorSecret {
  id: number;
  imei: string;
  secret: string;
}

export const meterApi = {
  list: (q: PageQuery) => http.page<MeterRow>(`${P}/device/list`, q),
  get: (id: number, company?: Company) => http.get<MeterRow>(`${P}/device`, { id, searchCompanyID: company }),
  create: (body: Body, company?: Company) => post<{ id: number }>(`${P}/device`, body, company),
  update: (id: number, body: Body, company?: Company) => put(`${P}/device`, { ...body, id }, company),
  remove: (id: number, company?: Company) => del(`${P}/device`, id, company),
  /** the plans the current company may use (filtered when its device check is on) */
  plans: (company?: Company) => http.get<AllowedPlans>(`${P}/device/plans`, { searchCompanyID: company }),
};

export const focusApi = {
  list: (q: PageQuery) => http.page<FocusRow>(`${P}/focus/list`, q),
  create: (meterId: number, memo: string, company?: Company) => post<{ id: number }>(`${P}/focus`, { meterId, memo }, company),
  update: (id: number, meterId: number, memo: string, company?: Company) => put(`${P}/focus`, { id, meterId, memo }, company),
  remove: (id: number, company?: Company) => del(`${P}/focus`, id, company),
};

const PAGED_LOOKUPS: LookupKind[] = ['phase', 'brand'];

export const lookupApi = {
  /** one dictionary as options (phase and brand lists are paged: the first 1000 rows) */
  options: async (kind: LookupKind): Promise<LookupRow[]> => {
    if (PAGED_LOOKUPS.includes(kind)) return (await http.page<LookupRow>(`${P}/${kind}/list`, { index: 1, size: 1000 })).data;
    return http.get<LookupRow[]>(`${P}/${kind}/list`);
  },
  // platform admins maintain the dictionaries
  list: (q: PageQuery) => http.page<LookupRow>(`${P}/lookup/list`, q),
  create: (body: Body) => post<{ id: number }>(`${P}/lookup`, body, undefined),
  update: (id: number, body: Body) => put(`${P}/lookup`, { ...body, id }, undefined),
  remove: (id: number) => del(`${P}/lookup`, id),
};

export type { Paged };
