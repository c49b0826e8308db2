// Device service calls (/device/api/v1): focus devices. Declared
// in packages/contracts/src/endpoints/device.ts; collectors and meters are the declared resources
// E.collector and E.meter (the archive pages are CrudPages), the dictionary CRUD is E.deviceLookup.
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import type { Paged, Query } from './request.ts';

type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

const F = E.focus;
const one = (id: number, company: Company) => ({ query: { id, searchCompanyID: company } });
const inCompany = (company: Company) => ({ searchCompanyID: company });

export const focusApi = {
  list: (q: PageQuery) => call(F.list, { query: q }),
  create: (meterId: number, memo: string, company?: Company) => call(F.create, { body: { meterId, memo }, query: inCompany(company) }),
  update: (id: number, meterId: number, memo: string, company?: Company) =>
    call(F.update, { body: { id, meterId, memo }, query: inCompany(company) }),
  remove: (id: number, company?: Company) => call(F.remove, one(id, company)),
};

export type { Paged };
