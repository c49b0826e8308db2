import {
  COLLECTOR_PLAN_OPTIONS, ELECTRIC_PLAN_OPTIONS, LOOKUP_FIELDS, LOOKUP_KINDS, METER_CLOSED,
  METER_KINDS, PHASE_SINGLE, WATER_PLAN_OPTIONS, addressDigits, meterPlanLabel,
  type AllowedPlans, type CollectorInput, type CollectorListInput, type FocusInput, type FocusListInput, type LookupKind,
  type MeterInput, type MeterListInput,
} from '@meter/contracts';
import { SYSTEM_SCOPE, type Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { AppError, badRequest, conflict, found, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { collectorPlanRefusal, meterPlanInvalid, meterPlanRefusal } from './plans.ts';
import * as repo from './repo.ts';

// Collectors, meters, focus devices and device dictionaries (issue 3 §5–6). Rules:
// - a meter lives in a room of its company (its area follows the room, kept by the database);
//   its collector, schemes and dictionary rows must exist and fit (same company, same kind);
// - the plan must be one of SPEC §3's values for the meter's kind; when the company's deviceCheck
//   is on, only the company's allowed plans may be used, and lists show only those (SPEC §5/§6);
// - addresses (DL/T 645: 12 digits, CJ/T 188: 14) and IMEIs are unique across the platform;
// - a meter with readings keeps its kind, address and initial reading, and cannot be deleted;
//   a closed meter (已销表) is history: neither edited nor deleted;
// - a collector with meters behind it cannot be deleted.
// online / valveState / lastSeenAt are the device gateway's: never written here.

export const inUse = (message: string) => new AppError('IN_USE', message, 409);
export const planNotAllowed = (message: string) => new AppError('PLAN_NOT_ALLOWED', message, 403);
const field = (key: string, message: string) => badRequest(`参数「${key}」${message}`);

/** The constraint a statement broke, when it is a unique violation (drizzle wraps the pg error). */
function uniqueViolation(e: unknown): string | undefined {
  const err = (e as { cause?: { code?: string; constraint?: string }; code?: string; constraint?: string }) ?? {};
  const pg = err.code ? err : err.cause;
  return pg?.code === '23505' ? (pg.constraint ?? '') : undefined;
}

function foreignKeyViolation(e: unknown): boolean {
  const err = (e as { cause?: { code?: string }; code?: string }) ?? {};
  return (err.code ?? err.cause?.code) === '23503';
}

/** Adds `areaPath` (阳光园区/1号楼/1层) to rows that carry an areaId. */
async function withAreaPaths<T extends { areaId: number | null }>(tx: Tx, rows: T[]): Promise<(T & { areaPath: string | null })[]> {
  const paths = await repo.areaPaths(tx, rows.map((r) => r.areaId).filter((x): x is number => x != null));
  return rows.map((r) => ({ ...r, areaPath: r.areaId != null ? (paths.get(r.areaId) ?? null) : null }));
}

/** A page of `list` (collectors, meters, focus rows) with each row's area path. */
async function pageWithAreaPaths<T extends { areaId: number | null }>(
  ctx: Ctx,
  q: { index: number; size: number },
  list: (tx: Tx, limit: number, offset: number) => Promise<{ rows: T[]; count: number }>,
) {
  const r = await ctx.tx(async (tx) => {
    const page = await list(tx, q.size, offsetOf(q));
    return { rows: await withAreaPaths(tx, page.rows), count: page.count };
  });
  return new Page(r.rows, r.count);
}

// ---- device-plan permissions --------------------------------------------------------------------

async function plansOf(tx: Tx, companyId: number) {
  const p = await repo.companyPlans(tx, companyId);
  if (!p) throw notFound('单位');
  return p;
}

async function assertCollectorPlan(tx: Tx, companyId: number, plan: number) {
  const refusal = collectorPlanRefusal(await plansOf(tx, companyId), plan);
  if (refusal) throw planNotAllowed(refusal);
}

async function assertMeterPlan(tx: Tx, companyId: number, kind: number, plan: number) {
  const refusal = meterPlanRefusal(await plansOf(tx, companyId), kind, plan);
  if (refusal) throw planNotAllowed(refusal);
}

/** The plans the company may use (all of them when deviceCheck is off or no company is picked). */
export async function allowedPlans(ctx: Ctx): Promise<AllowedPlans> {
  const companyId = ctx.scope.companyId ?? ctx.user.companyId;
  const all = { deviceCheck: false, collector: COLLECTOR_PLAN_OPTIONS, electric: ELECTRIC_PLAN_OPTIONS, water: WATER_PLAN_OPTIONS };
  if (companyId == null) return all;
  const p = await ctx.tx((tx) => plansOf(tx, companyId));
  if (!p.deviceCheck) return all;
  return {
    deviceCheck: true,
    collector: COLLECTOR_PLAN_OPTIONS.filter((o) => p.collectorPlans.includes(o.value)),
    electric: ELECTRIC_PLAN_OPTIONS.filter((o) => p.electricPlans.includes(o.value)),
    water: WATER_PLAN_OPTIONS.filter((o) => p.waterPlans.includes(o.value)),
  };
}

// ---- IMEI ---------------------------------------------------------------------------------------

async function assertImeiFree(ctx: Ctx, imei: string, except: { collectorId?: number; meterId?: number }) {
  if (!imei) return;
  const holder = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.imeiHolder(tx, imei, except));
  if (holder) throw conflict(`IMEI「${imei}」已被${holder === 'collector' ? '其他采集器' : '其他表具'}使用`);
}

// ---- collectors ---------------------------------------------------------------------------------

export function listCollectors(ctx: Ctx, q: CollectorListInput) {
  return pageWithAreaPaths(ctx, q, (tx, limit, offset) => repo.listCollectors(tx, q, limit, offset));
}

async function collectorOr404(tx: Tx, id: number) {
  return found(await repo.getCollector(tx, id), '采集器');
}

export function getCollector(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => (await withAreaPaths(tx, [await collectorOr404(tx, id)]))[0]);
}

async function checkCollector(tx: Tx, companyId: number, v: CollectorInput) {
  const area = await repo.areaById(tx, v.areaId);
  if (!area || area.companyId !== companyId) throw field('areaId', '安装区域不存在或无权使用');
  await assertCollectorPlan(tx, companyId, v.plan);
}

const collectorValues = (v: CollectorInput): repo.CollectorValues => ({
  name: v.name, imei: v.imei, plan: v.plan, areaId: v.areaId, simNo: v.simNo, installAddress: v.installAddress, memo: v.memo,
});

function mapCollectorUnique(e: unknown, v: CollectorInput): never {
  if (uniqueViolation(e) === 'collectors_imei') throw conflict(`IMEI「${v.imei}」已被其他采集器使用`);
  throw e;
}

export async function createCollector(ctx: Ctx, v: CollectorInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `采集器 ${v.name}（${v.imei}）`;
  await ctx.tx((tx) => checkCollector(tx, companyId, v));
  await assertImeiFree(ctx, v.imei, {});
  const id = await ctx.tx((tx) => repo.insertCollector(tx, companyId, collectorValues(v))).catch((e) => mapCollectorUnique(e, v));
  return { id };
}

export async function updateCollector(ctx: Ctx, id: number, v: CollectorInput) {
  ctx.audit.target = `采集器 ${v.name}（${v.imei}）`;
  await ctx.tx(async (tx) => {
    const c = await collectorOr404(tx, id);
    await checkCollector(tx, c.companyId, v);
  });
  await assertImeiFree(ctx, v.imei, { collectorId: id });
  await ctx.tx((tx) => repo.updateCollector(tx, id, collectorValues(v))).catch((e) => mapCollectorUnique(e, v));
  return null;
}

/** The registration secret a collector sends (`REG <imei> <secret>`), for whoever may edit collectors. */
export async function getCollectorSecret(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const c = await collectorOr404(tx, id);
    return { id: c.id, imei: c.imei, secret: await repo.collectorSecret(tx, id) };
  });
}

/** A new registration secret: the collector is refused until it is configured with it. */
export async function resetCollectorSecret(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const c = await collectorOr404(tx, id);
    ctx.audit.target = `采集器 ${c.name}（${c.imei}）注册密钥`;
    return { id: c.id, imei: c.imei, secret: await repo.resetCollectorSecret(tx, id) };
  });
}

export async function deleteCollector(ctx: Ctx, id: number) {
  const c = await getCollector(ctx, id);
  ctx.audit.target = `采集器 ${c.name}（${c.imei}）`;
  const n = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.metersBehind(tx, id));
  if (n > 0) throw inUse(`该采集器下还有 ${n} 块表具，请先解除表具与采集器的绑定再删除`);
  await ctx.tx((tx) => repo.deleteCollector(tx, id)).catch((e) => {
    if (foreignKeyViolation(e)) throw inUse('该采集器仍被其他数据引用，不能删除');
    throw e;
  });
  return null;
}

// ---- meters -------------------------------------------------------------------------------------

const LOOKUP_ENTRIES = Object.entries(LOOKUP_FIELDS) as [LookupKind, keyof MeterInput][];

type MeterRowOut = Awaited<ReturnType<typeof repo.getMeter>>;
const present = (m: NonNullable<MeterRowOut>) => ({ ...m, planName: meterPlanLabel(m.kind, m.plan) });

export function listMeters(ctx: Ctx, q: MeterListInput) {
  return pageWithAreaPaths(ctx, q, async (tx, limit, offset) => {
    const page = await repo.listMeters(tx, q, limit, offset);
    return { rows: page.rows.map(present), count: page.count };
  });
}

async function meterOr404(tx: Tx, id: number) {
  return found(await repo.getMeter(tx, id), '表具');
}

export function getMeter(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => (await withAreaPaths(tx, [present(await meterOr404(tx, id))]))[0]);
}

/** Input rules that need the database: references, address by protocol, plan permission. */
async function checkMeter(tx: Tx, companyId: number, v: MeterInput) {
  if (v.status === METER_CLOSED) throw field('status', '已销表只能通过销表操作设置');
  const invalid = meterPlanInvalid(v.kind, v.plan);
  if (invalid) throw field('plan', invalid);
  const kindName = METER_KINDS[v.kind];

  const room = await repo.roomById(tx, v.roomId);
  if (!room || room.companyId !== companyId) throw field('roomId', '房间不存在或无权使用');

  if (v.collectorId != null) {
    const c = await repo.getCollector(tx, v.collectorId);
    if (!c || c.companyId !== companyId) throw field('collectorId', '采集器不存在或不属于本单位');
  }

  const ids = LOOKUP_ENTRIES.map(([, key]) => v[key] as number | null).filter((x): x is number => x != null);
  const found = new Map((await repo.lookupsByIds(tx, ids)).map((l) => [l.id, l]));
  let protocolCode: string | undefined;
  for (const [kind, key] of LOOKUP_ENTRIES) {
    const lid = v[key] as number | null;
    if (lid == null) continue;
    const l = found.get(lid);
    if (!l || l.kind !== kind) throw field(key, `${LOOKUP_KINDS[kind]}不存在`);
    if (kind === 'protocol') protocolCode = l.code;
  }
  const digits = addressDigits(v.kind, protocolCode);
  if (v.address.length !== digits) {
    throw field('address', `${kindName}地址须为 ${digits} 位数字（${digits === 12 ? 'DL/T 645' : 'CJ/T 188'}）`);
  }

  if (v.chargingSchemeId != null) {
    const s = await repo.chargingSchemeById(tx, v.chargingSchemeId);
    if (!s || s.companyId !== companyId) throw field('chargingSchemeId', '收费方案不存在或不属于本单位');
    if (s.kind !== v.kind) throw field('chargingSchemeId', `收费方案不是${kindName}方案`);
  }
  if (v.alarmSchemeId != null) {
    const s = await repo.alarmSchemeById(tx, v.alarmSchemeId);
    if (!s || s.companyId !== companyId) throw field('alarmSchemeId', '报警方案不存在或不属于本单位');
    if (s.kind !== v.kind) throw field('alarmSchemeId', `报警方案不是${kindName}方案`);
  }

  await assertMeterPlan(tx, companyId, v.kind, v.plan);
}

async function assertAddressFree(ctx: Ctx, address: string, exceptId?: number) {
  if (await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.addressTaken(tx, address, exceptId))) throw conflict(`表地址「${address}」已存在`);
}

function mapMeterUnique(e: unknown, v: MeterInput): never {
  const c = uniqueViolation(e);
  if (c === 'meters_address') throw conflict(`表地址「${v.address}」已存在`);
  if (c === 'meters_imei') throw conflict(`IMEI「${v.imei}」已被其他表具使用`);
  throw e;
}

const meterValues = (v: MeterInput): repo.MeterValues => ({
  name: v.name,
  kind: v.kind,
  plan: v.plan,
  address: v.address,
  roomId: v.roomId,
  collectorId: v.collectorId,
  imei: v.imei,
  protocolId: v.protocolId,
  baudId: v.baudId,
  phaseId: v.phaseId,
  gatewayId: v.gatewayId,
  portId: v.portId,
  brandId: v.brandId,
  caliberId: v.caliberId,
  typeId: v.typeId,
  multiplier: v.multiplier,
  initialReading: v.initialReading,
  chargingSchemeId: v.chargingSchemeId,
  alarmSchemeId: v.alarmSchemeId,
  installDate: v.installDate ?? '',
  reportIntervalMinutes: v.reportInterval ?? 0,
  status: v.status,
  memo: v.memo,
});

const meterLabel = (v: { kind: number; address: string }) => `${METER_KINDS[v.kind] ?? '表具'} ${v.address}`;

export async function createMeter(ctx: Ctx, v: MeterInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = meterLabel(v);
  await ctx.tx((tx) => checkMeter(tx, companyId, v));
  await assertAddressFree(ctx, v.address);
  await assertImeiFree(ctx, v.imei, {});
  const id = await ctx.tx((tx) => repo.insertMeter(tx, companyId, meterValues(v))).catch((e) => mapMeterUnique(e, v));
  return { id };
}

export async function updateMeter(ctx: Ctx, id: number, v: MeterInput) {
  ctx.audit.target = meterLabel(v);
  await ctx.tx(async (tx) => {
    const m = await meterOr404(tx, id);
    if (m.status === METER_CLOSED) throw refuse('METER_CLOSED', '该表具已销表，不能编辑');
    await checkMeter(tx, m.companyId, v);
    const locked = m.kind !== v.kind || m.address !== v.address || Number(m.initialReading) !== Number(v.initialReading);
    if (locked && (await repo.meterHasReadings(tx, id))) {
      throw refuse('METER_HAS_READINGS', '该表具已有抄表记录，不能修改表具类别、表地址或初始读数；换表请销表后新增');
    }
  });
  await assertAddressFree(ctx, v.address, id);
  await assertImeiFree(ctx, v.imei, { meterId: id });
  await ctx.tx((tx) => repo.updateMeter(tx, id, meterValues(v))).catch((e) => mapMeterUnique(e, v));
  return null;
}

export async function deleteMeter(ctx: Ctx, id: number) {
  await ctx.tx(async (tx) => {
    const m = await meterOr404(tx, id);
    ctx.audit.target = meterLabel(m);
    if (m.status === METER_CLOSED) throw inUse('该表具已销表，档案需保留，不能删除');
    if (await repo.meterHasReadings(tx, id)) throw inUse('该表具已有抄表记录，不能删除；停用请编辑状态，拆除请销表');
    await repo.deleteMeter(tx, id);
  }).catch((e) => {
    if (foreignKeyViolation(e)) throw inUse('该表具仍被其他数据引用，不能删除');
    throw e;
  });
  return null;
}

/** POST device/list/group and group2: the legacy grouping is withdrawn (SPEC §8). */
export function groupSuspended(): never {
  throw refuse('FEATURE_SUSPENDED', '功能已暂停使用');
}

// ---- focus devices ------------------------------------------------------------------------------

export function listFocus(ctx: Ctx, q: FocusListInput) {
  return pageWithAreaPaths(ctx, q, (tx, limit, offset) => repo.listFocus(tx, q, limit, offset));
}

async function focusOr404(tx: Tx, id: number) {
  return found(await repo.getFocus(tx, id), '关注设备');
}

export function getFocus(ctx: Ctx, id: number) {
  return ctx.tx((tx) => focusOr404(tx, id));
}

async function focusableMeter(tx: Tx, companyId: number, meterId: number, exceptFocusId?: number) {
  const m = await repo.getMeter(tx, meterId);
  if (!m || m.companyId !== companyId) throw field('meterId', '表具不存在或无权查看');
  const existing = await repo.focusOfMeter(tx, companyId, meterId);
  if (existing && existing !== exceptFocusId) throw conflict(`表具「${m.address}」已在关注列表中`);
  return m;
}

export async function createFocus(ctx: Ctx, v: FocusInput) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const m = await focusableMeter(tx, companyId, v.meterId);
    ctx.audit.target = `关注 ${meterLabel(m)}`;
    return { id: await repo.insertFocus(tx, { companyId, meterId: v.meterId, memo: v.memo, createdBy: ctx.user.id }) };
  });
}

export async function updateFocus(ctx: Ctx, id: number, v: FocusInput) {
  return ctx.tx(async (tx) => {
    const f = await focusOr404(tx, id);
    const m = await focusableMeter(tx, f.companyId, v.meterId, id);
    ctx.audit.target = `关注 ${meterLabel(m)}`;
    await repo.updateFocus(tx, id, { meterId: v.meterId, memo: v.memo });
    return null;
  });
}

export async function deleteFocus(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const f = await focusOr404(tx, id);
    ctx.audit.target = `取消关注 ${meterLabel(f)}`;
    await repo.deleteFocus(tx, id);
    return null;
  });
}

// ---- dictionaries -------------------------------------------------------------------------------

export async function lookupList(ctx: Ctx, kind: LookupKind, page?: { index: number; size: number }) {
  const r = await ctx.tx((tx) => repo.lookupsOfKind(tx, kind, page && { limit: page.size, offset: offsetOf(page) }));
  return page ? new Page(r.rows, r.count ?? 0) : r.rows;
}

/** Hooks of the platform-admin dictionary CRUD (registerCrud). */
export const lookupHooks = {
  async beforeWrite(tx: Tx, _ctx: Ctx, values: Record<string, unknown>, id?: number) {
    const kind = String(values.kind);
    if (id !== undefined) {
      const [current] = await repo.lookupsByIds(tx, [id]);
      if (current && current.kind !== kind) throw field('kind', '字典类别不能修改');
    }
    if (await repo.lookupNameTaken(tx, kind, String(values.name), id)) {
      throw conflict(`${LOOKUP_KINDS[kind] ?? '字典'}「${String(values.name)}」已存在`);
    }
  },
  async beforeDelete(_tx: Tx, ctx: Ctx, ids: number[]) {
    if (ids.includes(PHASE_SINGLE)) throw inUse('「单相」是内置相位（阀控密码校验依赖它），不能删除');
    const n = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.lookupUsage(tx, ids));
    if (n > 0) throw inUse(`该字典项已被 ${n} 块表具使用，不能删除`);
  },
};
