// Calls of the control, record, warning, archive and task pages (/device/api/v1): the control module's
// commands and lists (device/order/*, device/read/*, device/reading/list, device/unusual/*, …) and the
// metering module's meter list, 人工抄表, 保电/保水, 定时阀控 and meter-config log.
import { http, request, type Paged, type Query } from '../../api/request.ts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';

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

export type CommandStatus = 'queued' | 'sent' | 'succeeded' | 'failed' | 'timed_out' | 'expired';
export const FINAL_STATUSES: CommandStatus[] = ['succeeded', 'failed', 'timed_out', 'expired'];

export interface Command {
  id: number;
  meterId: number | null;
  meterName: string;
  address: string;
  kind: string;
  kindText: string;
  status: CommandStatus;
  statusText: string;
  attempts: number;
  maxAttempts: number;
  memo: string;
  overrideReason: string;
  requesterName: string;
  origin: number;
  reply: Record<string, unknown> | null;
  error: string;
  createdAt: string;
  sentAt: string | null;
  finishedAt: string | null;
  roomName?: string;
  areaName?: string;
  message?: string;
  joined?: boolean;
}

export interface ReadResult {
  taskId: number | null;
  queued: number;
  commands: Command[];
}

export interface Reading {
  id: number;
  meterId: number;
  meterName: string;
  address: string;
  meterKind: number;
  roomName: string;
  areaName: string;
  readAt: string;
  receivedAt: string;
  source: number;
  sourceText: string;
  total: string;
  registers: Record<string, unknown>;
  exception: string;
  commandId: number | null;
  operatorName: string;
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

export interface Warning {
  id: number;
  meterId: number | null;
  collectorId: number | null;
  kind: string;
  kindText: string;
  detail: Record<string, unknown>;
  status: number;
  statusText: string;
  handledByName: string;
  handledAt: string | null;
  handleMemo: string;
  createdAt: string;
  lastSeenAt: string;
  meterName: string;
  address: string;
  meterKind: number | null;
  valveState: number | null;
  collectorName: string;
  collectorImei: string;
  areaName: string;
  roomName: string;
}

export interface MeterListRow {
  id: number;
  name: string;
  address: string;
  kind: number;
  online: boolean;
  valveState: number | null;
  roomName: string;
  areaName: string;
  collectorName: string;
  lastReadAt: string | null;
  lastTotal: string | null;
  lastSeenAt: string | null;
  fails?: number;
  lastFailAt?: string;
  lastError?: string;
  closedAt?: string | null;
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

/** A row of device/power/report. */
export interface PowerReading extends Record<string, unknown> {
  meterId: number;
  meterName: string;
  address: string;
  roomName: string;
  areaName: string;
  readAt: string;
  total: string;
  activePower: unknown;
  voltageA: unknown;
  currentA: unknown;
  source: number;
}

export const controlApi = {
  meters: (q: PageQuery) => http.page<ControlMeter>(`${P}/control/meter/list`, kw(q)),
  /** on-demand reading: up to 20 meters are waited for; more become a read task */
  read: (ids: number[], company: Company) => post<ReadResult>(`${P}/device/order/read`, { ids }, company),
  /** 合闸/开阀 (open) or 拉闸/关阀 (close); silent: the caller shows refusals itself */
  /** password: the valve-control password typed for a phaseId-1 close, for the server to check */
  valve: (b: { id: number; open: boolean; memo: string; overrideReason?: string; password?: string }, company: Company, silent = false) =>
    post<Command>(`${P}/device/order/open`, b, company, silent),
  command: (id: number, company: Company) => http.get<Command>(`${P}/device/order`, { id, searchCompanyID: company }, { silent: true }),
  commands: (q: PageQuery) => http.page<Command & { roomName: string; areaName: string }>(`${P}/device/order/list`, kw(q)),
  readings: (q: PageQuery) => http.page<Reading>(`${P}/device/reading/list`, kw(q)),
  manualReading: (b: Record<string, unknown>, company: Company) => post<ManualResult>(`${P}/manual/reading`, b, company),
  tasks: (q: PageQuery) => http.page<Record<string, unknown>>(`${P}/device/read/task/list`, kw(q)),
  reports: (q: PageQuery) => http.page<Record<string, unknown>>(`${P}/device/report/list`, kw(q)),
  power: (q: PageQuery) => http.page<PowerReading>(`${P}/device/power/report`, kw(q)),
  configs: (q: PageQuery) => http.page<Record<string, unknown>>(`${P}/config/list`, kw(q)),
  configRead: (id: number, company: Company) => post<Command>(`${P}/device/read/config`, { id }, company),
  configSet: (channel: 'lora' | 'nb' | '', b: { id: number; params: Record<string, string>; memo?: string }, company: Company) =>
    post<Command>(`${P}/device/order/${channel ? `${channel}/` : ''}config/set`, b, company),
  loraConfigRead: (id: number, company: Company) => request<Command>('POST', `${P}/device/order/lora/config/read`, { params: { id, searchCompanyID: company } }),
  timeSync: (id: number, company: Company) => post<Command>(`${P}/device/order/time/sync`, { id }, company),
  limit: (b: { id: number; limitPrice: string; memo?: string }, company: Company) => post<Command>(`${P}/device/order/limit`, b, company),
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
  list: (q: PageQuery) => http.page<Warning>(`${P}/device/unusual/list`, kw(q)),
  deal: (ids: number[], memo: string, company: Company) =>
    request<{ handled: number; skipped: number }>('PUT', `${P}/device/unusual/deal`, { data: { ids, memo }, ...withCompany(company) }),
  /** 接受 / 驳回 a reading held as implausible (the warning's id) */
  review: (id: number, accept: boolean, memo: string, company: Company) =>
    request<{ accepted: number; rejected: number; memo: string }>('PUT', `${P}/device/unusual/reading/${accept ? 'accept' : 'reject'}`, { data: { id, memo }, ...withCompany(company) }),
  unread: (q: PageQuery) => http.page<MeterListRow>(`${P}/device/read/unread/list`, kw(q)),
  readFails: (q: PageQuery) => http.page<MeterListRow>(`${P}/device/read/fail/list`, kw(q)),
  noPower: (q: PageQuery) => http.page<MeterListRow>(`${P}/device/nopower/list`, kw(q)),
};

/** Checks the typed valve-control password on the server (SPEC §4/§5); a wrong one rejects (VALVE_PWD_WRONG). */
export const checkValvePasswordOnServer = (company: Company, password: string) =>
  call(E.company.checkValvePwd, { body: { password }, query: { searchCompanyID: company } }, { silent: true });

export type { Paged };
