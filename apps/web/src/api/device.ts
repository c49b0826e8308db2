// Device service calls (/device/api/v1): focus devices and the device dictionaries as options. Declared
// in packages/contracts/src/endpoints/device.ts; collectors and meters are the declared resources
// E.collector and E.meter (the archive pages are CrudPages), the dictionary CRUD is E.deviceLookup.
import type { LookupKind, LookupRow } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import type { Paged, Query } from './request.ts';

type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

const D = E.device;
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

/** the dictionaries answered whole; phase and brand are paged */
const PLAIN_LOOKUPS = {
  protocol: D.protocolList, baud: D.baudList, gateway: D.gatewayList, port: D.portList, caliber: D.caliberList, type: D.typeList,
};

export const lookupApi = {
  /** one dictionary as options (phase and brand lists are paged: the first 1000 rows) */
  options: async (kind: LookupKind): Promise<LookupRow[]> => {
    if (kind === 'phase' || kind === 'brand') {
      return (await call(kind === 'phase' ? D.phaseList : D.brandList, { query: { index: 1, size: 1000 } })).data;
    }
    return call(PLAIN_LOOKUPS[kind]);
  },
};

export type { Paged };
