// Calls of the control, record, warning, archive and task pages (/device/api/v1): the control module's
// commands and lists (device/order/*, device/read/*, device/reading/list, device/unusual/*, …) and the
// metering module's meter list, 人工抄表, 保电/保水, 定时阀控 and meter-config log.
import type { Command, CommandStatus, MeterListItem, PowerReading, Reading, Warning } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { http, request, type Paged, type Query } from '../../api/request.ts';

export type { Command, CommandStatus, PowerReading, Reading, Warning };
/** a meter of the warning lists (unread; failed reads and no power add their own columns) */
export type MeterListRow = MeterListItem & { fails?: number; lastFailAt?: string; lastError?: string; closedAt?: string | null };
export const FINAL_STATUSES: CommandStatus[] = ['succeeded', 'failed', 'timed_out', 'expired'];

const P = '/device/api/v1';

export type PageQuery = Query & { index: number; size: number };
/** the company a platform admin works in (searchCompanyID); ignored for company staff */
export type Company = string | undefined;

/**
 * The search forms' keyword field is named `kw` (the resource table keeps `keyword` for the toolbar's
 * own search box and drops it); the endpoints take `keyword`.
 */
export function kw<T extends Query>(q: T): T {
  const { kw: value, ...rest } = q as T & { kw?: unknown };
  return (value !== undefined && value !== '' ? { ...rest, keyword: value } : rest) as T;
}

const withCompany = (company: Company) => ({ params: { searchCompanyID: company } });
const inCompany = (company: Company) => ({ searchCompanyID: company });
/** device/read/config answers one command for one meter (several meters: each command) */
const one = (c: Command | Command[]): Command => (Array.isArray(c) ? c[0] : c);
const post = <T>(url: string, data: unknown, company: Company, silent = false) => request<T>('POST', url, { data, ...withCompany(company), silent });

// ---- shapes -----------------------------------------------------------------------------------

export interface ControlMeter {
  id: number;
  companyId: number;
  name: string;
  address: string;
  kind: number;
  kindText: string;
  unit: string;
  plan: number;
  phaseId: number | null;
  phaseName: string;
  status: number;
  online: boolean;
  valveState: number | null;
  lastSeenAt: string | null;
  roomId: number | null;
  roomName: string;
  areaId: number | null;
  areaName: string;
  collectorName: string;
  lastReadAt: string | null;
  lastTotal: string | null;
  lastSource: number | null;
  initialReading: string;
  protection: { id: number; reason: string; startAt: string; endAt: string | null } | null;
  pending: string[];
  timedCount: number;
  needsValvePassword: boolean;
}

export interface Protection {
  id: number;
  meterId: number;
  kind: number;
  kindText: string;
  meterName: string;
  address: string;
  roomName: string;
  areaName: string;
  reason: string;
  startAt: string;
  endAt: string | null;
  active: boolean;
  statusText: string;
  createdByName: string;
  endedByName: string;
}

export interface TimedControl {
  id: number;
  meterId: number;
  meterName: string;
  address: string;
  kind: number;
  phaseId: number | null;
  roomName: string;
  areaName: string;
  action: 'open' | 'close';
  actionText: string;
  repeat: 'once' | 'daily';
  repeatText: string;
  runAt: string | null;
  timeOfDay: string;
  scheduleText: string;
  enabled: boolean;
  lastRunAt: string | null;
  nextRunAt: string | null;
  memo: string;
  createdByName: string;
  createdAt: string;
  needsValvePassword: boolean;
  lastCommand: { id: number; status: string; statusText: string; error: string; createdAt: string } | null;
}

export interface ManualResult {
  meterId: number;
  total: string;
  readAt: string;
  adjust: number;
  adjustText: string;
  previousTotal: string;
  usage: string | null;
  message: string;
}

// ---- calls ------------------------------------------------------------------------------------

export const controlApi = {
  meters: (q: PageQuery) => http.page<ControlMeter>(`${P}/control/meter/list`, kw(q)),
  /** on-demand reading: up to 20 meters are waited for; more become a read task */
  read: (ids: number[], company: Company) => call(E.control.read, { body: { ids }, query: inCompany(company) }),
  /** 合闸/开阀 (open) or 拉闸/关阀 (close); silent: the caller shows refusals itself */
  /** password: the valve-control password typed for a phaseId-1 close, for the server to check */
  valve: (b: { id: number; open: boolean; memo: string; overrideReason?: string; password?: string }, company: Company, silent = false) =>
    call(E.control.valve, { body: b, query: inCompany(company) }, { silent }),
  command: (id: number, company: Company) => call(E.control.command, { query: { id, ...inCompany(company) } }, { silent: true }),
  commands: (q: PageQuery) => call(E.control.commands, { query: kw(q) }),
  readings: (q: PageQuery) => call(E.control.readings, { query: kw(q) }),
  manualReading: (b: Record<string, unknown>, company: Company) => post<ManualResult>(`${P}/manual/reading`, b, company),
  tasks: (q: PageQuery) => call(E.control.readTasks, { query: kw(q) }),
  reports: (q: PageQuery) => call(E.control.reports, { query: kw(q) }),
  power: (q: PageQuery) => call(E.control.power, { query: kw(q) }),
  configs: (q: PageQuery) => http.page<Record<string, unknown>>(`${P}/config/list`, kw(q)),
  configRead: (id: number, company: Company) => call(E.control.configRead, { body: { id }, query: inCompany(company) }).then(one),
  configSet: (channel: 'lora' | 'nb' | '', b: { id: number; params: Record<string, string>; memo?: string }, company: Company) =>
    call(channel === 'lora' ? E.control.loraConfigSet : channel === 'nb' ? E.control.nbConfigSet : E.control.configSet, { body: b, query: inCompany(company) }),
  loraConfigRead: (id: number, company: Company) => call(E.control.loraConfigRead, { query: { id, ...inCompany(company) } }),
  timeSync: (id: number, company: Company) => call(E.control.timeSync, { body: { id }, query: inCompany(company) }),
  limit: (b: { id: number; limitPrice: string; memo?: string }, company: Company) => call(E.control.limit, { body: b, query: inCompany(company) }),
};

export const protectApi = {
  list: (q: PageQuery) => http.page<Protection>(`${P}/protect/list`, kw(q)),
  start: (b: Record<string, unknown>, company: Company) => post<{ message: string }>(`${P}/protect/start`, b, company),
  end: (b: Record<string, unknown>, company: Company) => post<{ message: string }>(`${P}/protect/end`, b, company),
};

export const timedApi = {
  list: (q: PageQuery) => http.page<TimedControl>(`${P}/timed/list`, kw(q)),
  create: (b: Record<string, unknown>, company: Company) => post<{ created: number; message: string }>(`${P}/timed`, b, company),
  update: (b: Record<string, unknown>, company: Company) => request<null>('PUT', `${P}/timed`, { data: b, ...withCompany(company) }),
  enable: (ids: number[], enabled: boolean, company: Company, password?: string) =>
    post<{ message: string }>(`${P}/timed/enable`, { ids, enabled, password }, company),
  remove: (ids: number[], company: Company) => request<null>('DELETE', `${P}/timed`, { data: { ids }, ...withCompany(company) }),
};

export const warningApi = {
  list: (q: PageQuery) => call(E.control.warnings, { query: kw(q) }),
  deal: (ids: number[], memo: string, company: Company) => call(E.control.deal, { body: { ids, memo }, query: inCompany(company) }),
  /** 接受 / 驳回 a reading held as implausible (the warning's id) */
  review: (id: number, accept: boolean, memo: string, company: Company) =>
    call(accept ? E.control.acceptReading : E.control.rejectReading, { body: { id, memo }, query: inCompany(company) }),
  unread: (q: PageQuery) => call(E.control.unread, { query: kw(q) }),
  readFails: (q: PageQuery) => call(E.control.readFails, { query: kw(q) }),
  noPower: (q: PageQuery) => call(E.control.noPower, { query: kw(q) }),
};

/** Checks the typed valve-control password on the server (SPEC §4/§5); a wrong one rejects (VALVE_PWD_WRONG). */
export const checkValvePasswordOnServer = (company: Company, password: string) =>
  post<null>('/yewu/api/Company/checkValveControlPwd', { password }, company, true);

export type { Paged };
