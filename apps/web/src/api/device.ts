// Device service calls (/device/api/v1): collectors (gather), meters (device), focus devices, the
// device dictionaries and the company's allowed device plans. Declared in
// packages/contracts/src/endpoints/device.ts (the dictionary CRUD `lookup` is the declared resource E.deviceLookup).
import type { CollectorSecret, LookupKind, LookupRow } from '@meter/contracts';
import { call } from './endpoint.ts';
import { E } from './endpoints.gen.ts';
import type { Paged, Query } from './request.ts';

export type { CollectorSecret };

type PageQuery = Query & { index: number; size: number };
type Body = Record<string, unknown>;
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
type Company = string | undefined;

const D = E.device;
const one = (id: number, company: Company) => ({ query: { id, searchCompanyID: company } });
const inCompany = (company: Company) => ({ searchCompanyID: company });

export const gatherApi = {
  list: (q: PageQuery) => call(D.collectors, { query: q }),
  get: (id: number, company?: Company) => call(D.collector, one(id, company)),
  create: (body: Body, company?: Company) => call(D.createCollector, { body, query: inCompany(company) }),
  update: (id: number, body: Body, company?: Company) => call(D.updateCollector, { body: { ...body, id }, query: inCompany(company) }),
  remove: (id: number, company?: Company) => call(D.deleteCollector, one(id, company)),
  /** the registration secret (`REG <imei> <secret>`), for whoever may edit collectors */
  secret: (id: number, company?: Company) => call(D.collectorSecret, one(id, company)),
  /** a new registration secret: the old one stops working at once */
  resetSecret: (id: number, company?: Company) => call(D.resetCollectorSecret, one(id, company)),
};

export const meterApi = {
  list: (q: PageQuery) => call(D.meters, { query: q }),
  get: (id: number, company?: Company) => call(D.meter, one(id, company)),
  create: (body: Body, company?: Company) => call(D.createMeter, { body, query: inCompany(company) }),
  update: (id: number, body: Body, company?: Company) => call(D.updateMeter, { body: { ...body, id }, query: inCompany(company) }),
  remove: (id: number, company?: Company) => call(D.deleteMeter, one(id, company)),
  /** the plans the current company may use (filtered when its device check is on) */
  plans: (company?: Company) => call(D.plans, { query: inCompany(company) }),
};

export const focusApi = {
  list: (q: PageQuery) => call(D.focusList, { query: q }),
  create: (meterId: number, memo: string, company?: Company) => call(D.createFocus, { body: { meterId, memo }, query: inCompany(company) }),
  update: (id: number, meterId: number, memo: string, company?: Company) =>
    call(D.updateFocus, { body: { id, meterId, memo }, query: inCompany(company) }),
  remove: (id: number, company?: Company) => call(D.deleteFocus, one(id, company)),
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
