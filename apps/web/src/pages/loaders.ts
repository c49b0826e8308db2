// Route loaders: the first list request of a page, started together with its chunk (app/prefetch.ts)
// instead of after the page has mounted. Each entry calls the same API function the page's table calls
// (the list URL is declared once, in the api module) with the query the table sends first: the page's
// list filter (app/page.tsx listFilter), page 1 and the table's page size. The request layer hands the
// answer to the table when it asks the same URL (api/request.ts prefetch); a query that differs (a search
// value, another area) simply asks the server. loaders.test.tsx renders each page and checks the match.
import { areaFilterOf, DEFAULT_PAGE_SIZE, listFilter } from '../app/page.tsx';
import { logApi, roleApi, userApi } from '../api/yonghu.ts';
import { ownerApi, roomApi } from '../api/archive.ts';
import { call } from '../api/endpoint.ts';
import { E } from '../api/endpoints.gen.ts';
import { alarmSchemeApi, chargingSchemeApi } from '../api/scheme.ts';
import { areaArchiveApi } from '../api/area.ts';
import { companyAdminApi } from '../api/company.ts';
import { controlApi } from './control/api.ts';
import type { ListQuery } from '../components/ResourceTable.tsx';

interface Loader {
  /** the page's list call (as in its <ResourceTable list={…}>) */
  list(q: ListQuery): unknown;
  /** the table's pageSize when it is not the default */
  pageSize?: number;
  /** the table's areaFilter when it overrides the route's */
  areaFilter?: boolean;
  /** initial values of the table's search form: they are part of its first request */
  search?: Record<string, string>;
}

/** 在用 only, the search form's default on the scheme and room lists */
const IN_USE = { status: '1' };

export const PAGE_LOADERS: Record<string, Loader> = {
  systemRecords: { list: (q) => userApi.list(q) },
  systemRole: { list: (q) => roleApi.list(q) },
  notesOperate: { list: (q) => logApi.list(q), pageSize: 20 },
  recordsRoom: { list: (q) => roomApi.list(q), search: IN_USE },
  recordsOwner: { list: (q) => ownerApi.list(q) },
  recordsTable: { list: (q) => call(E.meter.list, { query: q }) },
  recordsCollect: { list: (q) => call(E.collector.list, { query: q }) },
  recordsArea: { list: (q) => areaArchiveApi.list(q) },
  recordsFees: { list: (q) => chargingSchemeApi.list(q), search: IN_USE },
  recordsPolice: { list: (q) => alarmSchemeApi.list(q), search: IN_USE },
  notesControl: { list: (q) => controlApi.commands(q), pageSize: 20 },
  notesConfig: { list: (q) => controlApi.configs(q), pageSize: 20 },
  inRoomRecord: { list: (q) => ownerApi.history(q), areaFilter: false },
  administrator: { list: (q) => userApi.list(q) },
  belongs: { list: (q) => companyAdminApi.list(q), areaFilter: false },
};

/** The first list query of a page, as its table will send it now. */
export function firstListQuery(routeKey: string, loader: Loader): ListQuery {
  return {
    ...listFilter(routeKey, areaFilterOf(routeKey), loader.areaFilter),
    ...loader.search,
    index: 1,
    size: loader.pageSize ?? DEFAULT_PAGE_SIZE,
  };
}
