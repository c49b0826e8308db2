import { Decimal } from 'decimal.js';
import { ELECTRIC_PLAN_KINDS, WATER_PLAN_KINDS, warningKindText } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { companyOf } from '../../http/context.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { Page } from '../../http/envelope.ts';
import type { EventBus } from '../realtime/index.ts';
import { SOURCE, SOURCE_TEXT } from './ingest.ts';
import * as repo from './repo/index.ts';
import { openOfKind } from './review-repo.ts';
import { valvePassword as valvePwd } from '../company/index.ts';
import { COMMAND_KINDS, COMMAND_STATUS, FINAL, OPPOSITE, ORIGIN, noCloseReason, protocolOf, type CommandKind } from './rules.ts';
import type * as S from './schema.ts';
import { ELECTRIC_PARAM_KEYS, WATER_PARAM_KEYS } from './schema.ts';
import type { z } from 'zod';
import { now as clock } from '../../clock.ts';
import { coalesced } from '../../coalesced.ts';
import { startOfBeijingDay } from '../../time.ts';
import { warningsHandled } from './work-orders.ts';

// Device control for people (SPEC §7 device/order/*, device/read/*, device/unusual/*): every
// command is a row with a lifecycle; a duplicate while one is pending joins it; cutting supply to a
// protected meter or inside no-disconnect hours is refused unless a person gives a reason. The
// worker carries commands out; the API waits a little for the result so the page can show it.

export interface ControlApi {
  bus: EventBus;
  commandTtlMinutes: number;
  maxAttempts: number;
  /** how long an API call waits for its command's result before answering "queued" */
  waitMs: number;
}

type Input<T extends z.ZodType> = z.output<T>;

const VALVE_WORD = (meterKind: number, kind: CommandKind) =>
  kind === 'open' ? (meterKind === 2 ? '开阀' : '合闸') : kind === 'close' ? (meterKind === 2 ? '关阀' : '拉闸') : COMMAND_KINDS[kind];

export function commandView(c: repo.CommandRow, meter?: { name: string; address: string; kind: number }) {
  return {
    id: c.id,
    meterId: c.meterId,
    meterName: meter?.name ?? '',
    address: meter?.address ?? '',
    kind: c.kind,
    kindText: meter ? VALVE_WORD(meter.kind, c.kind) : COMMAND_KINDS[c.kind],
    status: c.status,
    statusText: COMMAND_STATUS[c.status],
    attempts: c.attempts,
    maxAttempts: c.maxAttempts,
    memo: c.memo,
    overrideReason: c.overrideReason,
    requesterName: c.requesterName,
    origin: c.origin,
    reply: c.reply,
    error: c.error,
    createdAt: c.createdAt,
    sentAt: c.sentAt,
    finishedAt: c.finishedAt,
    expiresAt: c.expiresAt,
  };
}
export type CommandView = ReturnType<typeof commandView> & { joined?: boolean };

export interface Request {
  kind: CommandKind;
  payload?: Record<string, unknown>;
  memo?: string;
  overrideReason?: string;
  origin?: number;
  readTaskId?: number;
}

/** Why this command may not be asked for this meter (a business refusal), or nothing. */
export function check(meter: repo.ControlMeter, r: Request) {
  const name = meter.name || meter.address;
  if (meter.status === 2) throw refuse('METER_CLOSED', `表具「${name}」已销表，不能操作`);
  if (meter.status === 0 && r.kind !== 'read' && r.kind !== 'config_read') throw refuse('METER_DISABLED', `表具「${name}」已停用，不能操作`);
  const electric = meter.kind === 1;
  if ((r.kind === 'limit' || r.kind === 'protect_on' || r.kind === 'protect_off') && !electric) {
    throw refuse('NOT_SUPPORTED', r.kind === 'limit' ? '水表不支持透支限额下发' : '水表的保水只在平台侧生效，无需下发设备');
  }
  if (r.kind === 'config_set') {
    const allowed = protocolOf(meter) === 'dlt645' ? ELECTRIC_PARAM_KEYS : WATER_PARAM_KEYS;
    const bad = Object.keys((r.payload?.params ?? {}) as object).find((k) => !(allowed as readonly string[]).includes(k));
    if (bad) throw badRequest(`表具「${name}」不支持参数「${bad}」，可设置：${allowed.join('、')}`);
  }
  if (r.kind === 'close' && !r.overrideReason) {
    const word = electric ? '拉闸' : '关阀';
    if (meter.protection) {
      const what = meter.protection.kind === 2 ? '保水' : '保电';
      throw refuse(
        'METER_PROTECTED',
        `表具「${name}」处于${what}状态${meter.protection.reason ? `（${meter.protection.reason}）` : ''}，不能${word}。如确需${word}，请填写强制操作原因`,
      );
    }
    const why = noCloseReason(meter.noClose, clock());
    if (why) throw refuse('NO_CLOSE_PERIOD', `当前处于报警方案设置的${why}，不能${word}。如确需${word}，请填写强制操作原因`);
  }
}

/** What the system (billing, a timed run, a job) asks of the control module: no person, no override. */
export interface SystemCommandRequest {
  meterId: number;
  kind: CommandKind;
  /** ORIGIN.automatic (balance-driven), ORIGIN.timed, ORIGIN.manual when a person's action implies it */
  origin: number;
  memo: string;
  payload?: Record<string, unknown>;
  /** who caused it, when a person did (account closing); null for the system itself */
  requestedBy?: number | null;
  requesterName?: string;
  ttlMs?: number;
  maxAttempts?: number;
  /** the text of a superseded opposite command's error */
  supersededBy?: string;
}

export interface SystemCommandOutcome {
  meterId: number;
  /** the command now pending for this meter and kind (a new one, or one already pending) */
  commandId: number | null;
  /** false: an identical command was already pending (joined), or none was queued (see skipped) */
  created: boolean;
  /** why no command was queued: the meter is not in use, protected (保电/保水) or in no-disconnect hours */
  skipped?: string;
}

export const SYSTEM_COMMAND_TTL_MS = 24 * 3600_000;

/**
 * Queues a command as the system, in the caller's transaction (a rolled-back caller queues
 * nothing). The rules of a person's command (check above) apply, minus the override: the system
 * never forces a close, so a close of a protected meter or inside the alarm scheme's no-disconnect
 * hours is skipped (and reported), not refused; a pending command of the same kind is joined; a
 * queued opposite valve command is superseded. The worker picks the command up on its next poll.
 */
export async function requestSystemCommand(tx: Tx, r: SystemCommandRequest, now = new Date()): Promise<SystemCommandOutcome> {
  const skip = (why: string): SystemCommandOutcome => ({ meterId: r.meterId, commandId: null, created: false, skipped: why });
  const [m] = await repo.controlMeters(tx, [r.meterId]);
  if (!m) return skip('表具不存在');
  if (m.status === 2) return skip('表具已销表');
  if (m.status !== 1 && r.kind !== 'read' && r.kind !== 'config_read') return skip('表具已停用');
  if (r.kind === 'close') {
    if (m.protection) return skip(m.protection.kind === 2 ? '保水中' : '保电中');
    const why = noCloseReason(m.noClose, clock());
    if (why) return skip(why);
  }
  const got = await queueOrJoin(tx, m, r.supersededBy ?? `已被之后的「${VALVE_WORD(m.kind, r.kind)}」指令取代`, {
    companyId: m.companyId,
    meterId: m.id,
    collectorId: m.collectorId,
    kind: r.kind,
    payload: r.payload ?? {},
    expiresAt: new Date(now.getTime() + (r.ttlMs ?? SYSTEM_COMMAND_TTL_MS)),
    maxAttempts: r.maxAttempts ?? 3,
    requestedBy: r.requestedBy ?? null,
    requesterName: r.requesterName ?? '系统',
    origin: r.origin,
    memo: r.memo,
    overrideReason: '',
  });
  if (got) return { meterId: m.id, commandId: got.row.id, created: !got.joined };
  return skip('表具指令正忙，稍后再试');
}

/**
 * Records a timed valve command that was not carried out (refused by a rule, or its time was
 * missed) as a finished command, so the valve-control log shows why nothing happened.
 */
export function recordUnrunCommand(tx: Tx, c: repo.UnrunCommand): Promise<number> {
  return repo.insertUnrunCommand(tx, c);
}

/**
 * Queues one command per meter (in the caller's scope: only meters the caller may see). A pending
 * command of the same kind is joined, not duplicated; a queued opposite valve command is superseded.
 */
export async function requestCommands(ctx: Ctx, api: ControlApi, meterIds: number[], r: Request): Promise<CommandView[]> {
  const now = new Date();
  const out = await ctx.tx(async (tx) => {
    const meters = await repo.controlMeters(tx, meterIds);
    if (meters.length !== new Set(meterIds).size) throw notFound('表具');
    const byId = new Map(meters.map((m) => [m.id, m]));
    for (const m of meters) check(m, r);
    const views: CommandView[] = [];
    for (const id of meterIds) {
      const m = byId.get(id)!;
      views.push(await queueOne(tx, ctx, api, m, r, now));
    }
    return views;
  });
  if (out.some((v) => !v.joined)) api.bus.signal('commands');
  if (meterIds.length === 1) {
    const m = out[0];
    ctx.audit.target = `表具 ${m.meterName || m.address}`;
  } else ctx.audit.target = `表具 ${meterIds.length} 块`;
  return out;
}

/**
 * A queued opposite valve command is superseded; then the command is inserted, or the one of the same
 * kind already pending is joined (never two pending: a duplicate does not actuate twice). undefined:
 * the pending one kept finishing in between (three tries).
 */
async function queueOrJoin(tx: Tx, m: { id: number }, supersededBy: string, c: repo.NewCommand): Promise<{ row: repo.CommandRow; joined: boolean } | undefined> {
  const opposite = OPPOSITE[c.kind];
  if (opposite) await repo.supersedeQueued(tx, m.id, opposite, supersededBy);
  for (let i = 0; i < 3; i++) {
    const row = await repo.insertCommand(tx, c);
    if (row) return { row, joined: false };
    const pending = await repo.pendingCommand(tx, m.id, c.kind);
    if (pending) return { row: pending, joined: true };
    // the pending one finished in between: try again
  }
  return undefined;
}

async function queueOne(tx: Tx, ctx: Ctx, api: ControlApi, m: repo.ControlMeter, r: Request, now: Date): Promise<CommandView> {
  const got = await queueOrJoin(tx, m, `已被之后的「${VALVE_WORD(m.kind, r.kind)}」指令取代`, {
    companyId: m.companyId,
    meterId: m.id,
    collectorId: m.collectorId,
    kind: r.kind,
    payload: r.payload ?? {},
    expiresAt: new Date(now.getTime() + api.commandTtlMinutes * 60_000),
    maxAttempts: api.maxAttempts,
    requestedBy: ctx.user.id,
    requesterName: ctx.user.realName || ctx.user.username,
    origin: r.origin ?? ORIGIN.manual,
    memo: r.memo ?? '',
    overrideReason: r.overrideReason ?? '',
    readTaskId: r.readTaskId ?? null,
  });
  if (got) return { ...commandView(got.row, m), ...(got.joined ? { joined: true } : {}) };
  throw refuse('BUSY', '表具指令正忙，请稍后再试');
}

/** Waits until every command is final (or the wait ends); returns them as they are then. */
export async function waitFor(ctx: Ctx, api: ControlApi, views: CommandView[]): Promise<CommandView[]> {
  const ids = views.map((v) => v.id);
  const pending = new Set(views.filter((v) => !FINAL.includes(v.status)).map((v) => v.id));
  if (pending.size && api.waitMs > 0) {
    await new Promise<void>((resolve) => {
      // one read at a time; a signal during a read makes one more read right after it (the signal may be for
      // a command the read in progress saw before it finished)
      const check = coalesced(async () => {
        try {
          const rows = await ctx.tx((tx) => repo.getCommands(tx, [...pending]));
          for (const c of rows) if (FINAL.includes(c.status)) pending.delete(c.id);
          if (!pending.size) done();
        } catch {
          /* keep waiting until the deadline */
        }
      });
      // the worker's signal names the commands that finished together (`ids`)
      const off = api.bus.onSignal('command-done', (d) => {
        if (Array.isArray(d.ids) && d.ids.some((id) => pending.has(Number(id)))) void check();
      });
      const poll = setInterval(() => void check(), 1000);
      const timer = setTimeout(() => done(), api.waitMs);
      function done() {
        off();
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }
    });
  }
  const rows = await ctx.tx((tx) => repo.getCommands(tx, ids));
  const byId = new Map(rows.map((c) => [c.id, c]));
  return views.map((v) => {
    const c = byId.get(v.id);
    return c ? { ...v, ...commandView(c), meterName: v.meterName, address: v.address, kindText: v.kindText, joined: v.joined } : v;
  });
}

/** One command asked from a page: answered with its result, or refused with the device's reason. */
async function single(ctx: Ctx, api: ControlApi, meterId: number, r: Request) {
  const [queued] = await requestCommands(ctx, api, [meterId], r);
  const [v] = await waitFor(ctx, api, [queued]);
  const what = `${v.kindText}`;
  if (v.status === 'succeeded') {
    const text = typeof v.reply?.text === 'string' ? v.reply.text : '';
    return { ...v, message: `${what}成功${text ? `：${text}` : ''}` };
  }
  if (v.status === 'failed' || v.status === 'timed_out' || v.status === 'expired') {
    throw refuse(v.status === 'failed' ? 'COMMAND_FAILED' : v.status === 'timed_out' ? 'COMMAND_TIMEOUT' : 'COMMAND_EXPIRED', `${what}${COMMAND_STATUS[v.status]}：${v.error || '设备无响应'}（指令编号 ${v.id}）`);
  }
  return { ...v, message: v.joined ? `该表具已有相同指令正在执行（指令编号 ${v.id}），未重复下发` : `${what}指令已下发，正在等待设备响应（指令编号 ${v.id}）` };
}

// ---------------------------------------------------------------------------------------------
// Endpoints
// ---------------------------------------------------------------------------------------------

export async function valve(ctx: Ctx, api: ControlApi, b: Input<typeof S.OpenBody>) {
  ctx.audit.action = b.open ? '合闸/开阀' : '拉闸/关阀';
  // SPEC §4: switching a phaseId-1 meter off asks the valve password; the server compares it
  if (!b.open && (await ctx.tx((tx) => repo.asksValvePassword(tx, b.id)))) await valvePwd.verify(ctx, b.password);
  return single(ctx, api, b.id, {
    kind: b.open ? 'open' : 'close',
    memo: b.memo,
    overrideReason: b.open ? '' : b.overrideReason,
  });
}

export function limit(ctx: Ctx, api: ControlApi, b: Input<typeof S.LimitBody>) {
  return single(ctx, api, b.id, { kind: 'limit', payload: { limitPrice: b.limitPrice }, memo: b.memo });
}

export async function updateNo(ctx: Ctx, api: ControlApi, b: Input<typeof S.UpdateNoBody>) {
  const [m] = await ctx.tx((tx) => repo.controlMeters(tx, [b.id]));
  if (!m) throw notFound('表具');
  if (protocolOf(m) !== 'dlt645') throw refuse('NOT_SUPPORTED', '水表不支持修改表号');
  return single(ctx, api, b.id, { kind: 'config_set', payload: { params: { meterNumber: b.no } }, memo: b.memo || `修改表号为 ${b.no}` });
}

export function configRead(ctx: Ctx, api: ControlApi, id: number) {
  return single(ctx, api, id, { kind: 'config_read' });
}

export async function configReadMany(ctx: Ctx, api: ControlApi, b: Input<typeof S.IdOrIdsBody>) {
  const ids = b.ids?.length ? [...new Set(b.ids)] : [b.id!];
  if (ids.length === 1) return single(ctx, api, ids[0], { kind: 'config_read' });
  return waitFor(ctx, api, await requestCommands(ctx, api, ids, { kind: 'config_read' }));
}

export async function configSet(ctx: Ctx, api: ControlApi, b: Input<typeof S.ConfigSetBody>, channel?: 'lora' | 'nb') {
  if (channel) {
    const [m] = await ctx.tx((tx) => repo.controlMeters(tx, [b.id]));
    if (!m) throw notFound('表具');
    const plans = m.kind === 2 ? WATER_PLAN_KINDS : ELECTRIC_PLAN_KINDS;
    if (!plans[channel]?.includes(m.plan)) {
      throw refuse('WRONG_PLAN', channel === 'lora' ? '该表具不是 LoRa 表，请在对应页面设置' : '该表具不是 NB-IoT 表，请在对应页面设置');
    }
  }
  return single(ctx, api, b.id, { kind: 'config_set', payload: { params: b.params }, memo: b.memo });
}

export function timeSync(ctx: Ctx, api: ControlApi, id: number) {
  return single(ctx, api, id, { kind: 'time_sync', memo: '手动校时' });
}

/** On-demand reading (/casualCopy): a few meters are waited for; a large selection becomes a read task. */
export async function read(ctx: Ctx, api: ControlApi, b: Input<typeof S.ReadBody>) {
  const ids = [...new Set(b.ids)];
  if (ids.length <= 20) {
    const views = await waitFor(ctx, api, await requestCommands(ctx, api, ids, { kind: 'read', payload: { source: SOURCE.onDemand, full: b.full } }));
    return { taskId: null, queued: views.length, commands: views };
  }
  const companyId = companyOf(ctx);
  const queued = await ctx.tx(async (tx) => {
    const visible = await repo.controlMeters(tx, ids);
    if (!visible.length) throw notFound('表具');
    const taskId = await repo.createReadTask(tx, companyId, 2, ctx.user.id);
    const n = await repo.queueReads(tx, {
      taskId,
      companyId,
      meterIds: visible.filter((m) => m.companyId === companyId && m.status !== 2).map((m) => m.id),
      origin: ORIGIN.manual,
      source: SOURCE.onDemand,
      expiresAt: new Date(Date.now() + api.commandTtlMinutes * 60_000),
      maxAttempts: api.maxAttempts,
      requestedBy: ctx.user.id,
      requesterName: ctx.user.realName || ctx.user.username,
      clockEveryHours: b.full ? 0 : 24,
    });
    return { taskId, n };
  });
  api.bus.signal('commands');
  ctx.audit.target = `批量抄表 ${queued.n} 块`;
  return { taskId: queued.taskId, queued: queued.n, commands: [] };
}

export async function getCommand(ctx: Ctx, id: number) {
  const c = await ctx.tx(async (tx) => {
    const row = await repo.getCommand(tx, id);
    if (!row) return undefined;
    const [m] = row.meterId ? await repo.controlMeters(tx, [row.meterId]) : [];
    return m ? commandView(row, m) : undefined;
  });
  if (!c) throw notFound('指令');
  return c;
}

export async function listCommands(ctx: Ctx, q: Input<typeof S.CommandListQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listCommands(tx, { kind: q.type, status: q.status, meterId: q.meterId, keyword: q.keyword, origin: q.origin, searchArea: q.searchArea, start: q.start, end: q.end }, q.size, offsetOf(q)),
  );
  return new Page(
    r.rows.map((c) => ({ ...commandView(c, { name: c.meterName, address: c.address, kind: c.meterKind ?? 1 }), roomName: c.roomName, areaName: c.areaName })),
    r.count,
  );
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

const meterFilter = (q: { keyword?: string; kind?: number; searchArea?: number }) => ({ keyword: q.keyword, meterKind: q.kind, searchArea: q.searchArea });

const TASK_ORIGINS: Record<number, string> = { 1: '定时抄表', 2: '批量抄表', 3: '批量拉闸/关阀' };

export async function readTasks(ctx: Ctx, q: Input<typeof S.ReadTaskQuery>) {
  const r = await ctx.tx((tx) => repo.listReadTasks(tx, q, q.size, offsetOf(q)));
  return new Page(
    r.rows.map((t) => ({ ...t, originText: TASK_ORIGINS[t.origin] ?? '批量抄表', statusText: t.status === 'done' ? '已完成' : '进行中', pending: Math.max(0, t.total - t.succeeded - t.failed) })),
    r.count,
  );
}

export async function readFails(ctx: Ctx, q: Input<typeof S.FailListQuery>) {
  const r = await ctx.tx((tx) => repo.readFailList(tx, q.num, meterFilter(q), q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

/** Start of today in China. */
export function chinaMidnight(now = new Date()) {
  return startOfBeijingDay(now);
}

export async function unread(ctx: Ctx, q: Input<typeof S.UnreadQuery>) {
  const since = q.date ?? chinaMidnight();
  const r = await ctx.tx((tx) => repo.unreadList(tx, since, meterFilter(q), q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

export async function noPower(ctx: Ctx, q: Input<typeof S.MeterListQuery>) {
  const r = await ctx.tx((tx) => repo.noPowerList(tx, meterFilter(q), q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

const warningView = (w: repo.WarningView) => ({ ...w, kindText: warningKindText(w.kind), statusText: w.status === 0 ? '未处理' : '已处理' });

export async function unusual(ctx: Ctx, q: Input<typeof S.UnusualQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listWarnings(tx, { kind: q.type, status: q.status, meterKind: q.kind, keyword: q.keyword, searchArea: q.searchArea, start: q.start, end: q.end }, q.size, offsetOf(q)),
  );
  return new Page(r.rows.map(warningView), r.count);
}

/** Open valve/relay exceptions: not in the commanded state, or consuming while off. */
export async function unusualOpen(ctx: Ctx, q: Input<typeof S.UnusualQuery>) {
  const kinds = q.type?.length ? q.type : ['valve_mismatch', 'consumption_closed', 'valve_fault'];
  const r = await ctx.tx((tx) =>
    repo.listWarnings(tx, { kind: kinds, status: 0, meterKind: q.kind, keyword: q.keyword, searchArea: q.searchArea, start: q.start, end: q.end }, q.size, offsetOf(q)),
  );
  return new Page(r.rows.map(warningView), r.count);
}

export async function deal(ctx: Ctx, api: ControlApi, b: Input<typeof S.DealBody>) {
  const ids = b.ids?.length ? [...new Set(b.ids)] : [b.id!];
  const done = await ctx.tx(async (tx) => {
    const visible = await repo.warningIdsVisible(tx, ids);
    if (visible.length !== ids.length) throw notFound('异常记录');
    // a held reading is answered by accepting or rejecting it, never by closing its warning
    if ((await openOfKind(tx, ids, 'implausible')).length) {
      throw refuse('REVIEW_REQUIRED', '读数异常跳变预警须逐条选择「接受读数」或「驳回读数」，不能直接标记为已处理');
    }
    const handled = await repo.dealWarnings(tx, ids, ctx.user.id, b.memo);
    await warningsHandled(tx, handled, ctx.user.realName || ctx.user.username, b.memo);
    return handled;
  });
  ctx.audit.target = `设备异常 ${ids.join(',')}`.slice(0, 200);
  for (const w of done) api.bus.emit({ companyId: w.companyId, kind: 'warning', body: { id: w.id, meterId: w.meterId, kind: w.kind, status: 1 } });
  return { handled: done.length, skipped: ids.length - done.length };
}

export async function powerReport(ctx: Ctx, q: Input<typeof S.PowerReportQuery>) {
  const end = q.end ?? new Date();
  const start = q.start ?? new Date(end.getTime() - 7 * 86400_000);
  const r = await ctx.tx((tx) => repo.powerReport(tx, { ...meterFilter(q), meterId: q.meterId, start, end }, q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

export async function readings(ctx: Ctx, q: Input<typeof S.ReadingListQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listReadings(tx, { ...meterFilter(q), meterId: q.meterId, source: q.source, exception: q.exception, start: q.start, end: q.end }, q.size, offsetOf(q)),
  );
  return new Page(r.rows.map((x) => ({ ...x, sourceText: SOURCE_TEXT[x.source] ?? '' })), r.count);
}

export async function reports(ctx: Ctx, q: Input<typeof S.ReportListQuery>) {
  const r = await ctx.tx((tx) => repo.listReports(tx, q, q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}

export async function loraList(ctx: Ctx, q: Input<typeof S.LoraListBody>) {
  const plans = [...new Set([...ELECTRIC_PLAN_KINDS.lora, ...WATER_PLAN_KINDS.lora])];
  return ctx.tx(async (tx) => {
    const r = await repo.metersByPlans(tx, plans, meterFilter(q), q.size, offsetOf(q));
    const configs = await repo.latestConfigs(tx, r.rows.map((m) => m.id));
    return new Page(r.rows.map((m) => ({ ...m, config: configs.get(m.id)?.params ?? null, configAt: configs.get(m.id)?.at ?? null })), r.count);
  });
}

/** The device side of a room's (or owner's) bill: each meter's recent readings and usage between them. */
export async function billByDevice(ctx: Ctx, q: Input<typeof S.BillByDeviceQuery>) {
  return ctx.tx(async (tx) => {
    const meters = await repo.metersOfRoom(tx, { roomId: q.roomId, ownerId: q.userId });
    const since = new Date(Date.now() - q.days * 86400_000);
    const rows = await repo.recentReadings(tx, meters.map((m) => m.id), since, 500);
    return meters.map((m) => {
      const mine = rows.filter((r) => r.meterId === m.id); // newest first
      const usage = mine.length > 1 ? new Decimal(mine[0].total).minus(mine[mine.length - 1].total).toFixed(2) : '0.00';
      return {
        meterId: m.id,
        meterName: m.name,
        address: m.address,
        kind: m.kind,
        unit: m.kind === 2 ? 'm³' : 'kWh',
        roomName: m.roomName,
        valveState: m.valveState,
        online: m.online,
        lastReadAt: m.lastReadAt,
        lastTotal: m.lastTotal,
        periodStart: mine.length ? mine[mine.length - 1].readAt : null,
        periodEnd: mine.length ? mine[0].readAt : null,
        usage,
        readings: mine.slice(0, 50).map((r, i) => ({
          readAt: r.readAt,
          total: r.total,
          source: r.source,
          sourceText: SOURCE_TEXT[r.source] ?? '',
          usage: i + 1 < mine.length ? new Decimal(r.total).minus(mine[i + 1].total).toFixed(2) : null,
        })),
      };
    });
  });
}

export async function getThird(ctx: Ctx) {
  const companyId = companyOf(ctx);
  const t = await ctx.tx((tx) => repo.getThird(tx, companyId));
  return { companyId, config: t?.config ?? {}, updatedAt: t?.updatedAt ?? null };
}

export async function saveThird(ctx: Ctx, body: Record<string, unknown>) {
  const companyId = companyOf(ctx);
  const config = (body.config && typeof body.config === 'object' && !Array.isArray(body.config) ? body.config : body) as Record<string, unknown>;
  if (JSON.stringify(config).length > 20_000) throw badRequest('第三方配置内容过长');
  await ctx.tx((tx) => repo.saveThird(tx, companyId, config));
  ctx.audit.target = '第三方配置';
  return { companyId, config };
}
