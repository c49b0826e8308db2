// Calls of the control, record, warning, archive and task pages (/device/api/v1), through the declared
// endpoints: the control module's commands and lists (E.control: device/order/*, device/read/*,
// device/reading/list, device/unusual/*, …) and the metering module's meter list, 人工抄表, 保电/保水,
// 定时阀控 and meter-config log (E.metering). The answers' row types come from @meter/contracts.
import type { API, CallInput, Command, CommandStatus, ControlMeter, ManualResult, MeterListItem, PowerReading, Protection, Reading, TimedControl, Warning } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import type { Paged, Query } from '../../api/request.ts';

export type { Command, CommandStatus, ControlMeter, ManualResult, PowerReading, Protection, Reading, TimedControl, Warning };
/** a meter of the warning lists (unread; failed reads and no power add their own columns) */
export type MeterListRow = MeterListItem & { fails?: number; lastFailAt?: string; lastError?: string; closedAt?: string | null };
/** what a declared endpoint takes as its body */
type Body<K extends keyof typeof API.metering> = CallInput<(typeof API.metering)[K]>['body'];
type ManualReadingInput = Body<'manualReading'>;
type ProtectStartInput = Body<'protectStart'>;
type ProtectEndInput = Body<'protectEnd'>;
type TimedCreateInput = Body<'timedCreate'>;
type TimedUpdateInput = Body<'timedUpdate'>;
export const FINAL_STATUSES: CommandStatus[] = ['succeeded', 'failed', 'timed_out', 'expired'];

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

const inCompany = (company: Company) => ({ searchCompanyID: company });
/** device/read/config answers one command for one meter (several meters: each command) */
const one = (c: Command | Command[]): Command => (Array.isArray(c) ? c[0] : c);

// ---- calls ------------------------------------------------------------------------------------

export const controlApi = {
  meters: (q: PageQuery) => call(E.metering.meters, { query: kw(q) }),
  /** on-demand reading: up to 20 meters are waited for; more become a read task */
  read: (ids: number[], company: Company) => call(E.control.read, { body: { ids }, query: inCompany(company) }),
  /** 合闸/开阀 (open) or 拉闸/关阀 (close); silent: the caller shows refusals itself */
  /** password: the valve-control password typed for a phaseId-1 close, for the server to check */
  valve: (b: { id: number; open: boolean; memo: string; overrideReason?: string; password?: string }, company: Company, silent = false) =>
    call(E.control.valve, { body: b, query: inCompany(company) }, { silent }),
  /** 批量拉闸/关阀: every close queued as one task (its progress: tasks({ id: taskId })) */
  closeBulk: (b: { ids: number[]; memo: string; overrideReason?: string; password?: string }, company: Company) =>
    call(E.control.closeBulk, { body: b, query: inCompany(company) }),
  command: (id: number, company: Company) => call(E.control.command, { query: { id, ...inCompany(company) } }, { silent: true }),
  commands: (q: PageQuery) => call(E.control.commands, { query: kw(q) }),
  readings: (q: PageQuery) => call(E.control.readings, { query: kw(q) }),
  manualReading: (b: ManualReadingInput, company: Company) => call(E.metering.manualReading, { body: b, query: inCompany(company) }),
  tasks: (q: PageQuery) => call(E.control.readTasks, { query: kw(q) }),
  /** one task as /task lists it (a bulk close's progress), or undefined */
  task: (id: number, company: Company) => controlApi.tasks({ id, index: 1, size: 1, searchCompanyID: company }).then((r) => r.data[0]),
  reports: (q: PageQuery) => call(E.control.reports, { query: kw(q) }),
  power: (q: PageQuery) => call(E.control.power, { query: kw(q) }),
  configs: (q: PageQuery) => call(E.metering.configs, { query: kw(q) }),
  configRead: (id: number, company: Company) => call(E.control.configRead, { body: { id }, query: inCompany(company) }).then(one),
  configSet: (channel: 'lora' | 'nb' | '', b: { id: number; params: Record<string, string>; memo?: string }, company: Company) =>
    call(channel === 'lora' ? E.control.loraConfigSet : channel === 'nb' ? E.control.nbConfigSet : E.control.configSet, { body: b, query: inCompany(company) }),
  loraConfigRead: (id: number, company: Company) => call(E.control.loraConfigRead, { query: { id, ...inCompany(company) } }),
  timeSync: (id: number, company: Company) => call(E.control.timeSync, { body: { id }, query: inCompany(company) }),
  limit: (b: { id: number; limitPrice: string; memo?: string }, company: Company) => call(E.control.limit, { body: b, query: inCompany(company) }),
};

export const protectApi = {
  list: (q: PageQuery) => call(E.metering.protections, { query: kw(q) }),
  start: (b: ProtectStartInput, company: Company) => call(E.metering.protectStart, { body: b, query: inCompany(company) }),
  end: (b: ProtectEndInput, company: Company) => call(E.metering.protectEnd, { body: b, query: inCompany(company) }),
};

export const timedApi = {
  list: (q: PageQuery) => call(E.metering.timedList, { query: kw(q) }),
  create: (b: TimedCreateInput, company: Company) => call(E.metering.timedCreate, { body: b, query: inCompany(company) }),
  update: (b: TimedUpdateInput, company: Company) => call(E.metering.timedUpdate, { body: b, query: inCompany(company) }),
  enable: (ids: number[], enabled: boolean, company: Company, password?: string) =>
    call(E.metering.timedEnable, { body: { ids, enabled, password }, query: inCompany(company) }),
  remove: (ids: number[], company: Company) => call(E.metering.timedDelete, { body: { ids }, query: inCompany(company) }),
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
  call(E.company.checkValvePwd, { body: { password }, query: { searchCompanyID: company } }, { silent: true });

export type { Paged };
