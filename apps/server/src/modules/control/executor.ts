import { Decimal } from 'decimal.js';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import { DeviceError } from '../../gateway/channel.ts';
import {
  DLT645_COMMANDS,
  DLT645_PARAMS,
  DLT645_PARAM_KEYS,
  DLT645_READS,
  cjt,
  cjtFacts,
  dlt,
  dltClock,
  dltFacts,
  refusal,
  type Decoded,
  type DeviceRequest,
  type Dlt645Auth,
  type Dlt645Param,
  type Facts,
} from '../../gateway/frames.ts';
import type { GatewayClient } from '../../gateway/gateway.ts';
import type { DeviceEvent } from '../realtime/index.ts';
import { ingestReadings, raiseWarnings, SOURCE } from './ingest.ts';
import { clearWarnings } from './work-orders.ts';
import * as repo from './repo/index.ts';
import { noCloseReason, routeOf, type Route } from './rules.ts';
import { now as clock } from '../../clock.ts';

// Carries out one command against its meter (DESIGN §5): the device dialogue for each kind. A valve
// or relay command succeeds only when the meter answered normally AND a read-back of its status
// shows the commanded state. Actuating frames are never resent blindly: after a lost reply the
// state is read back first, so a retry cannot switch a meter twice.

export interface ControlSettings {
  auth: Dlt645Auth;
  /** a meter clock further off than this opens a warning and is synchronised */
  clockDriftSeconds: number;
  /** base delay before another attempt (doubles per attempt) */
  retryDelayMs: number;
  commandTtlMinutes: number;
  maxAttempts: number;
  /** scheduled reads include the clock when it was last checked longer ago than this */
  clockEveryHours: number;
}

/**
 * What an attempt came to. `valve`: the relay/valve state read back from the meter, which the worker
 * records on the meter in the transaction that records the outcome (the events are published after it).
 */
export type Outcome = { events: DeviceEvent[]; valve?: number } & (
  | { ok: true; reply: Record<string, unknown> }
  | { ok: false; transient: boolean; error: string; reply?: Record<string, unknown> }
);

export interface ExecDeps {
  db: Db;
  gateway: GatewayClient;
  settings: ControlSettings;
}

class Refused extends Error {}

/** Sends one request; an abnormal reply becomes a Refused error. */
async function ask(d: ExecDeps, route: Route, req: DeviceRequest, ref: number): Promise<Decoded> {
  const reply = await d.gateway.transact(route, { ...req, ref });
  if (!reply) throw new DeviceError('invalid', '设备未应答');
  const why = refusal(reply);
  if (why) throw new Refused(why);
  return reply;
}

/** Like ask, but a refusal or silence yields undefined (optional registers). */
async function tryAsk(d: ExecDeps, route: Route, req: DeviceRequest, ref: number): Promise<Decoded | undefined> {
  try {
    return await ask(d, route, { ...req, retries: 0 }, ref);
  } catch (e) {
    if (e instanceof Refused || (e instanceof DeviceError && e.code === 'timeout')) return undefined;
    throw e;
  }
}

/** Relay/valve state (and power hold) read from the meter now. */
async function readState(d: ExecDeps, route: Route, ref: number): Promise<Facts> {
  if (route.protocol === 'dlt645') {
    const r = await ask(d, route, dlt.read(route.address, DLT645_READS.status.dataId, DLT645_READS.status.label), ref);
    return r.protocol === 'dlt645' ? dltFacts(r.frame) : {};
  }
  const r = await ask(d, route, cjt.read(route.address), ref);
  return r.protocol === 'cjt188' ? cjtFacts(r.frame) : {};
}

function merge(a: Facts, b: Facts | undefined): Facts {
  if (!b) return a;
  return { ...a, ...b, registers: { ...a.registers, ...b.registers } };
}

const VALVE_TEXT = (kind: number, v: number | undefined) =>
  v === undefined ? '未知' : kind === 2 ? (v === 1 ? '开阀' : '关阀') : v === 1 ? '合闸（通电）' : '拉闸（断电）';

/**
 * Carries out the command. `known`: its meter as the claim read it (null: the claim found none); looked
 * up here when not given.
 */
export async function execute(d: ExecDeps, cmd: repo.CommandRow, known?: repo.ControlMeter | null): Promise<Outcome> {
  const events: DeviceEvent[] = [];
  const [meter] =
    known !== undefined ? (known ? [known] : []) : cmd.meterId ? await d.db.tx(SYSTEM_SCOPE, (tx) => repo.controlMeters(tx, [cmd.meterId!])) : [];
  if (!meter) return { ok: false, transient: false, error: '表具不存在', events };
  if (meter.status === 2) return { ok: false, transient: false, error: '表具已销表，不能操作', events };
  const route = routeOf(meter, meter.collectorImei);
  try {
    switch (cmd.kind) {
      case 'read':
        return await read(d, cmd, meter, route, events);
      case 'open':
      case 'close':
        return await valve(d, cmd, meter, route, events);
      case 'protect_on':
      case 'protect_off':
        return await protect(d, cmd, route, events);
      case 'limit':
        return await configSet(d, cmd, meter, route, { overdraftLimit: String(cmd.payload.limitPrice) }, events);
      case 'config_set':
        return await configSet(d, cmd, meter, route, (cmd.payload.params ?? {}) as Record<string, string>, events);
      case 'config_read':
        return await configRead(d, cmd, meter, route, events);
      case 'time_sync':
        return await timeSync(d, cmd, meter, route, events);
      default:
        return { ok: false, transient: false, error: `不支持的指令类型 ${String(cmd.kind)}`, events };
    }
  } catch (e) {
    if (e instanceof Refused) return { ok: false, transient: false, error: e.message, events };
    if (e instanceof DeviceError) return { ok: false, transient: e.transient, error: e.message, events };
    throw e;
  }
}

// ---------------------------------------------------------------------------------------------

async function read(d: ExecDeps, cmd: repo.CommandRow, meter: repo.ControlMeter, route: Route, events: DeviceEvent[]): Promise<Outcome> {
  const full = cmd.payload.full === true;
  let facts: Facts = {};
  // the reading is of the moment the meter answered with its total, not of the end of the dialogue:
  // a report that came in between is newer (and may be higher) than this reading, not older
  let readAt: Date;
  if (route.protocol === 'dlt645') {
    const total = await ask(d, route, dlt.read(route.address, DLT645_READS.total.dataId, DLT645_READS.total.label), cmd.id);
    readAt = new Date();
    facts = merge(facts, total.protocol === 'dlt645' ? dltFacts(total.frame) : undefined);
    facts = merge(facts, await readState(d, route, cmd.id).catch((e) => (e instanceof Refused ? undefined : Promise.reject(e))));
    if (full) {
      for (const k of ['voltage', 'current', 'power', 'balance'] as const) {
        const r = await tryAsk(d, route, dlt.read(route.address, DLT645_READS[k].dataId, DLT645_READS[k].label), cmd.id);
        if (r?.protocol === 'dlt645') facts = merge(facts, dltFacts(r.frame));
      }
      const date = await tryAsk(d, route, dlt.read(route.address, DLT645_READS.date.dataId, DLT645_READS.date.label), cmd.id);
      const time = date && (await tryAsk(d, route, dlt.read(route.address, DLT645_READS.time.dataId, DLT645_READS.time.label), cmd.id));
      if (date?.protocol === 'dlt645' && time?.protocol === 'dlt645') facts.meterTime = dltClock(date.frame, time.frame);
      // the CT ratio (倍率), checked against what the platform set: a wrong one bills the wrong energy
      const ct = await tryAsk(d, route, dlt.read(route.address, DLT645_PARAMS.ctRatio.dataId, `读${DLT645_PARAMS.ctRatio.label}`), cmd.id);
      if (ct?.protocol === 'dlt645') facts = merge(facts, { registers: dltFacts(ct.frame).registers });
    }
  } else {
    facts = await readState(d, route, cmd.id);
    readAt = new Date();
  }
  if (facts.total === undefined) return { ok: false, transient: false, error: '设备应答中没有电量/水量读数', events };
  const now = new Date();
  const registers: Record<string, number | string | boolean> = { ...facts.registers };
  if (facts.batteryLow !== undefined) registers.batteryLow = facts.batteryLow;
  if (facts.powerHold !== undefined) registers.powerHold = facts.powerHold;
  let driftSeconds: number | undefined;
  if (facts.meterTime) {
    driftSeconds = Math.round((facts.meterTime.getTime() - now.getTime()) / 1000);
    registers.clockAt = now.toISOString();
    registers.clockDriftSeconds = driftSeconds;
  }
  const source = Number(cmd.payload.source ?? (cmd.origin === 4 ? SOURCE.automatic : SOURCE.onDemand));
  const ident = { id: meter.id, companyId: meter.companyId, areaId: meter.areaId };
  const out = await d.db.tx(SYSTEM_SCOPE, async (tx) => {
    const r = await ingestReadings(tx, [{ meter: ident, readAt, total: facts.total!, registers, source, valve: facts.valve, commandId: cmd.id }]);
    const warn: repo.WarningRow[] = [];
    const base = { companyId: meter.companyId, meterId: meter.id, collectorId: null, areaId: meter.areaId };
    if (facts.batteryLow) warn.push({ ...base, kind: 'low_battery', detail: { readAt: now.toISOString() } });
    if (facts.valveFault) warn.push({ ...base, kind: 'valve_fault', detail: { readAt: now.toISOString() } });
    const drifted = driftSeconds !== undefined && Math.abs(driftSeconds) > d.settings.clockDriftSeconds;
    if (drifted) warn.push({ ...base, kind: 'clock_drift', detail: { driftSeconds, meterTime: facts.meterTime!.toISOString(), readAt: now.toISOString() } });
    await rateCheck(tx, meter, registers.ctRatio, warn);
    r.events.push(...(await raiseWarnings(tx, warn)));
    // a drifting clock is answered by a time-sync command
    if (drifted) {
      await repo.insertCommand(tx, {
        companyId: meter.companyId,
        meterId: meter.id,
        collectorId: meter.collectorId,
        kind: 'time_sync',
        payload: { reason: 'clock_drift', driftSeconds },
        expiresAt: new Date(now.getTime() + d.settings.commandTtlMinutes * 60_000),
        maxAttempts: d.settings.maxAttempts,
        requestedBy: null,
        requesterName: '系统',
        origin: 2,
        memo: `表计时钟偏差 ${driftSeconds} 秒，自动校时`,
        overrideReason: '',
      });
    }
    return r;
  });
  events.push(...out.events);
  const res = out.results[0];
  return {
    ok: true,
    reply: {
      total: facts.total,
      valve: facts.valve ?? null,
      readAt: readAt.toISOString(),
      stored: res.stored,
      exception: res.exception,
      registers,
      ...(driftSeconds !== undefined ? { driftSeconds } : {}),
    },
    events,
  };
}

async function valve(d: ExecDeps, cmd: repo.CommandRow, meter: repo.ControlMeter, route: Route, events: DeviceEvent[]): Promise<Outcome> {
  const want = cmd.kind === 'open' ? 1 : 0;
  const now = new Date();
  // the situation may have changed since the command was queued: re-check before cutting supply
  if (want === 0 && !cmd.overrideReason) {
    if (meter.protection) return { ok: false, transient: false, error: `表具处于${meter.protection.kind === 2 ? '保水' : '保电'}状态，已取消${meter.kind === 2 ? '关阀' : '拉闸'}`, events };
    const why = noCloseReason(meter.noClose, clock());
    if (why) return { ok: false, transient: false, error: `当前处于${why}，已取消${meter.kind === 2 ? '关阀' : '拉闸'}`, events };
  }
  const before = await readState(d, route, cmd.id);
  if (before.valve === want) {
    return { ok: true, reply: { valve: want, already: true, text: `表具已是${VALVE_TEXT(meter.kind, want)}状态，无需操作` }, events, valve: seen(meter, want, events) };
  }
  if (cmd.payload.verifyOnly === true) {
    // an interrupted attempt with no attempt left: what the device says is the outcome, nothing is sent again
    const valve = before.valve !== undefined ? seen(meter, before.valve, events) : undefined;
    return { ok: false, transient: false, error: `执行中断，回读状态为${VALVE_TEXT(meter.kind, before.valve)}，未再下发`, reply: { valve: before.valve ?? null }, events, valve };
  }
  const actuate =
    route.protocol === 'dlt645'
      ? dlt.remote(route.address, want ? DLT645_COMMANDS.close.command : DLT645_COMMANDS.trip.command, d.settings.auth, now, want ? DLT645_COMMANDS.close.label : DLT645_COMMANDS.trip.label)
      : cjt.valve(route.address, want === 1);
  let answered = true;
  try {
    await ask(d, route, actuate, cmd.id);
  } catch (e) {
    if (!(e instanceof DeviceError && e.code === 'timeout')) throw e;
    answered = false; // the meter may have switched and the reply got lost: the read-back decides
  }
  const after = await readState(d, route, cmd.id);
  if (after.valve === want) {
    return { ok: true, reply: { valve: want, answered, text: `已确认${VALVE_TEXT(meter.kind, want)}` }, events, valve: seen(meter, want, events) };
  }
  const valve = after.valve !== undefined ? seen(meter, after.valve, events) : undefined;
  if (!answered) return { ok: false, transient: true, error: '设备未应答，回读状态未改变', reply: { valve: after.valve ?? null }, events, valve };
  const warn = await d.db.tx(SYSTEM_SCOPE, (tx) =>
    raiseWarnings(tx, [{
      companyId: meter.companyId,
      meterId: meter.id,
      collectorId: null,
      areaId: meter.areaId,
      kind: after.valveFault ? 'valve_fault' : 'valve_mismatch',
      detail: { commandId: cmd.id, expected: want, actual: after.valve ?? null, at: new Date().toISOString() },
    }]),
  );
  events.push(...warn);
  return {
    ok: false,
    transient: false,
    error: `设备已应答，但回读状态为${after.valveFault ? '阀门故障' : VALVE_TEXT(meter.kind, after.valve)}，与指令不符`,
    reply: { valve: after.valve ?? null },
    events,
    valve,
  };
}

/** A relay/valve state read back (Outcome.valve): its event when it changed; returns the state. */
function seen(meter: repo.ControlMeter, v: number, events: DeviceEvent[]): number {
  if (meter.valveState !== v) events.push({ companyId: meter.companyId, kind: 'online', body: { meterId: meter.id, areaId: meter.areaId, online: true, valve: v } });
  return v;
}

async function protect(d: ExecDeps, cmd: repo.CommandRow, route: Route, events: DeviceEvent[]): Promise<Outcome> {
  const on = cmd.kind === 'protect_on';
  if (route.protocol !== 'dlt645') return { ok: true, reply: { text: '水表的保水在平台侧生效，无需下发设备' }, events };
  const c = on ? DLT645_COMMANDS.hold : DLT645_COMMANDS.release;
  if (cmd.payload.verifyOnly === true) {
    const now = await readState(d, route, cmd.id);
    if (now.powerHold === on) return { ok: true, reply: { powerHold: on, verified: true }, events };
    return { ok: false, transient: false, error: `执行中断，回读保电状态为${now.powerHold ? '保电' : '未保电'}，未再下发`, events };
  }
  let answered = true;
  try {
    await ask(d, route, dlt.remote(route.address, c.command, d.settings.auth, new Date(), c.label), cmd.id);
  } catch (e) {
    if (!(e instanceof DeviceError && e.code === 'timeout')) throw e;
    answered = false;
  }
  const after = await readState(d, route, cmd.id);
  if (after.powerHold === on) return { ok: true, reply: { powerHold: on, answered }, events };
  if (!answered) return { ok: false, transient: true, error: '设备未应答，回读保电状态未改变', events };
  return { ok: false, transient: false, error: `设备已应答，但回读保电状态为${after.powerHold ? '保电' : '未保电'}，与指令不符`, events };
}

async function configSet(
  d: ExecDeps,
  cmd: repo.CommandRow,
  meter: repo.ControlMeter,
  route: Route,
  params: Record<string, string>,
  events: DeviceEvent[],
): Promise<Outcome> {
  const set: Record<string, unknown> = {};
  if (route.protocol === 'dlt645') {
    for (const [key, value] of Object.entries(params)) {
      if (!(DLT645_PARAM_KEYS as string[]).includes(key)) return { ok: false, transient: false, error: `电表不支持参数 ${key}`, events };
      const p = DLT645_PARAMS[key as Dlt645Param];
      try {
        await ask(d, route, dlt.write(route.address, key as Dlt645Param, value, d.settings.auth), cmd.id);
      } catch (e) {
        if (!(e instanceof DeviceError && e.code === 'timeout')) throw e;
      }
      const back = await ask(d, route, dlt.read(route.address, p.dataId, `回读${p.label}`), cmd.id);
      const got = back.protocol === 'dlt645' ? dltFacts(back.frame).registers?.[key] : undefined;
      const same = got !== undefined && (p.decimals < 0 ? String(got) === value : new Decimal(String(got)).eq(new Decimal(value)));
      if (!same) {
        return { ok: false, transient: false, error: `${p.label}回读为 ${String(got ?? '无')}，与设置值 ${value} 不符`, reply: { set }, events };
      }
      set[key] = value;
    }
  } else {
    for (const [key, value] of Object.entries(params)) {
      if (key === 'settleDay') await ask(d, route, cjt.writeSettleDay(route.address, Number(value)), cmd.id);
      else if (key === 'syncTime') await ask(d, route, cjt.writeTime(route.address, new Date()), cmd.id);
      else return { ok: false, transient: false, error: `水表不支持参数 ${key}`, events };
      set[key] = value;
    }
  }
  await d.db.tx(SYSTEM_SCOPE, (tx) =>
    repo.insertMeterConfig(tx, { companyId: meter.companyId, meterId: meter.id, op: 'set', params: set, commandId: cmd.id, createdBy: cmd.requestedBy }),
  );
  return { ok: true, reply: { set }, events };
}

async function configRead(d: ExecDeps, cmd: repo.CommandRow, meter: repo.ControlMeter, route: Route, events: DeviceEvent[]): Promise<Outcome> {
  const params: Record<string, unknown> = {};
  if (route.protocol === 'dlt645') {
    const wanted = (Array.isArray(cmd.payload.keys) ? cmd.payload.keys : DLT645_PARAM_KEYS) as Dlt645Param[];
    for (const key of wanted) {
      const p = DLT645_PARAMS[key];
      if (!p) continue;
      const r = await tryAsk(d, route, dlt.read(route.address, p.dataId, `读${p.label}`), cmd.id);
      params[key] = r?.protocol === 'dlt645' ? (dltFacts(r.frame).registers?.[key] ?? null) : null;
    }
    for (const k of ['address'] as const) {
      const r = await tryAsk(d, route, dlt.read(route.address, DLT645_READS[k].dataId, DLT645_READS[k].label), cmd.id);
      if (r?.protocol === 'dlt645' && r.frame.kind === 'read' && r.frame.direction === 'response' && r.frame.values) params[k] = r.frame.values.address ?? null;
    }
    const state: Facts = await readState(d, route, cmd.id).catch((e) => (e instanceof Refused ? {} : Promise.reject(e)));
    if (state.valve !== undefined) params.valve = state.valve;
    if (state.powerHold !== undefined) params.powerHold = state.powerHold;
    const date = await tryAsk(d, route, dlt.read(route.address, DLT645_READS.date.dataId, DLT645_READS.date.label), cmd.id);
    const time = date && (await tryAsk(d, route, dlt.read(route.address, DLT645_READS.time.dataId, DLT645_READS.time.label), cmd.id));
    if (date?.protocol === 'dlt645' && time?.protocol === 'dlt645') params.meterTime = dltClock(date.frame, time.frame)?.toISOString() ?? null;
    if (Object.values(params).every((v) => v === null || v === undefined)) return { ok: false, transient: false, error: '设备未返回任何参数', events };
  } else {
    const f = await readState(d, route, cmd.id);
    Object.assign(params, { total: f.total ?? null, valve: f.valve ?? null, batteryLow: f.batteryLow ?? null, meterTime: f.meterTime?.toISOString() ?? null });
  }
  await d.db.tx(SYSTEM_SCOPE, async (tx) => {
    const warn: repo.WarningRow[] = [];
    await rateCheck(tx, meter, params.ctRatio, warn);
    events.push(...(await raiseWarnings(tx, warn)));
    await repo.insertMeterConfig(tx, { companyId: meter.companyId, meterId: meter.id, op: 'read', params, commandId: cmd.id, createdBy: cmd.requestedBy });
  });
  return { ok: true, reply: { params }, events };
}

/**
 * 倍率异常: an electric meter's CT ratio read back against the one the platform last set on it (1 when
 * it never set one). A different one adds a `rate_error` warning to `warn` (and so a 设备工单); the
 * right one again closes an open warning and its order. No ratio read: nothing is decided.
 */
async function rateCheck(tx: Tx, meter: repo.ControlMeter, read: unknown, warn: repo.WarningRow[]): Promise<void> {
  if (meter.kind !== 1 || read === undefined || read === null || read === '') return;
  const actual = Number(read);
  const expected = (await repo.expectedCtRatio(tx, meter.id)) ?? 1;
  if (actual === expected) {
    await clearWarnings(tx, { meterId: meter.id, kinds: ['rate_error'], memo: `电流互感器变比回读为 ${actual}，与设置一致` });
    return;
  }
  warn.push({ companyId: meter.companyId, meterId: meter.id, collectorId: null, areaId: meter.areaId, kind: 'rate_error', detail: { expected, actual, readAt: new Date().toISOString() } });
}

async function timeSync(d: ExecDeps, cmd: repo.CommandRow, meter: repo.ControlMeter, route: Route, events: DeviceEvent[]): Promise<Outcome> {
  let meterTime: Date | undefined;
  if (route.protocol === 'dlt645') {
    await d.gateway.transact(route, { ...dlt.broadcastTime(new Date()), ref: cmd.id });
    const date = await ask(d, route, dlt.read(route.address, DLT645_READS.date.dataId, DLT645_READS.date.label), cmd.id);
    const time = await ask(d, route, dlt.read(route.address, DLT645_READS.time.dataId, DLT645_READS.time.label), cmd.id);
    if (date.protocol === 'dlt645' && time.protocol === 'dlt645') meterTime = dltClock(date.frame, time.frame);
  } else {
    await ask(d, route, cjt.writeTime(route.address, new Date()), cmd.id);
    meterTime = (await readState(d, route, cmd.id)).meterTime;
  }
  if (!meterTime) return { ok: false, transient: false, error: '校时后未能读回表计时钟', events };
  const drift = Math.round((meterTime.getTime() - Date.now()) / 1000);
  // the read-back happens a moment after the sync: allow a few seconds
  if (Math.abs(drift) > Math.max(10, Math.min(60, d.settings.clockDriftSeconds))) {
    return { ok: false, transient: true, error: `校时后表计时钟仍偏差 ${drift} 秒`, reply: { driftSeconds: drift }, events };
  }
  await d.db.tx(SYSTEM_SCOPE, (tx) => clearWarnings(tx, { meterId: meter.id, kinds: ['clock_drift'], memo: `已自动校时，剩余偏差 ${drift} 秒` }));
  return { ok: true, reply: { driftSeconds: drift, meterTime: meterTime.toISOString() }, events };
}
