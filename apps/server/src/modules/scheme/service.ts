import {
  SCHEME_ENUM, alarmIssues, amountToFen, dateToLocal, fenToYuan, versionAt,
  type ChargingScheme, type ChargingSchemeInput, type ChargingSchemeOption, type ChargingSchemeRow, type ChargingSchemeVersion, type Issue,
} from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import * as repo from './repo.ts';

// Charging schemes (收费方案) with their price versions, and the domain hooks of the declared charge
// code and alarm scheme resources. Money: 分 in the database, 元 strings on the wire (contracts).

/** A 400 naming the field, in the same words as the request validator. */
const invalid = (i: Issue) => badRequest(`参数「${i.path.join('.')}」${i.message}`);

/** The company-wide scope of the caller: usage checks must see meters in every area of the company. */
const companyWide = <T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) => ctx.db.tx({ ...ctx.scope, areaIds: null }, fn);

type SchemeColumn = 'chargingSchemeId' | 'alarmSchemeId';
const WHAT: Record<SchemeColumn, string> = { chargingSchemeId: '收费方案', alarmSchemeId: '报警方案' };

/** Refuses (409) when a meter of the company still uses one of these schemes. */
async function assertUnused(ctx: Ctx, column: SchemeColumn, rows: { id: number; name: string }[]) {
  const used = await companyWide(ctx, (tx) => repo.metersUsing(tx, column, rows.map((r) => r.id)));
  if (used.length === 0) return;
  const n = used.filter((u) => u.schemeId === used[0].schemeId).reduce((a, u) => a + u.n, 0);
  const name = rows.find((r) => r.id === used[0].schemeId)?.name ?? '';
  throw conflict(`${WHAT[column]}「${name}」正被 ${n} 块表具使用，请先为这些表具更换方案后再删除`);
}

/** Refuses (409) changing the kind (电/水) of a scheme meters use. */
async function assertKindKept(ctx: Ctx, column: SchemeColumn, id: number, oldKind: number, newKind: number) {
  if (oldKind === newKind) return;
  const used = await companyWide(ctx, (tx) => repo.metersUsing(tx, column, [id]));
  const n = used.reduce((a, u) => a + u.n, 0);
  if (n > 0) throw conflict(`该${WHAT[column]}正被 ${n} 块表具使用，不能修改类型`);
}

// ---- charging schemes --------------------------------------------------------------------------

function presentVersion(v: repo.VersionRow): ChargingSchemeVersion {
  return {
    id: v.id,
    effectiveFrom: dateToLocal(v.effectiveFrom),
    mode: v.mode as ChargingSchemeVersion['mode'],
    unitPrice: v.unitPrice,
    tiers: v.tiers,
    tou: v.tou,
    monthlyFee: fenToYuan(v.monthlyFeeFen),
    minimumCharge: fenToYuan(v.minimumChargeFen),
  };
}

// Timestamps as JSON writes a Date (ISO 8601, UTC), so the answer's type says what the client gets.
const presentScheme = (row: repo.SchemeRow) => ({
  ...row,
  chargingMonthType: (row.chargingMonthType ?? null) as 1 | 2 | null,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listSchemes(ctx: Ctx, q: Record<string, unknown> & { index: number; size: number }): Promise<Page<ChargingSchemeRow>> {
  return ctx.tx(async (tx) => {
    const r = await repo.listSchemes(tx, q, q.size, (q.index - 1) * q.size);
    const versions = (await repo.versionsOf(tx, r.rows.map((s) => s.id))).map((v) => ({ schemeId: v.schemeId, ...presentVersion(v) }));
    const now = dateToLocal(new Date());
    const rows = r.rows.map((s) => {
      const mine = versions.filter((v) => v.schemeId === s.id).map(({ schemeId: _s, ...v }) => v);
      const current = versionAt(mine, now) ?? null;
      const next = mine.find((v) => v.effectiveFrom > now);
      return { ...presentScheme(s), versionCount: mine.length, current, nextChangeAt: next?.effectiveFrom ?? null };
    });
    return new Page(rows, r.count);
  });
}

export async function getScheme(ctx: Ctx, id: number): Promise<ChargingScheme> {
  return ctx.tx(async (tx) => {
    const row = await repo.getScheme(tx, id);
    if (!row) throw notFound('收费方案');
    const versions = (await repo.versionsOf(tx, [id])).map(presentVersion);
    return { ...presentScheme(row), versions };
  });
}

export function usingSchemes(ctx: Ctx, kind?: number): Promise<ChargingSchemeOption[]> {
  return ctx.tx((tx) => repo.usingSchemes(tx, kind)) as Promise<ChargingSchemeOption[]>;
}

const schemeValues = (b: ChargingSchemeInput): repo.SchemeValues => ({
  name: b.name,
  kind: b.kind,
  chargingMonthType: b.chargingMonthType,
  status: b.status,
  memo: b.memo,
});

export async function createScheme(ctx: Ctx, b: ChargingSchemeInput) {
  const companyId = companyOf(ctx);
  ctx.audit.target = `收费方案 ${b.name}`;
  return ctx.tx(async (tx) => {
    if (await repo.schemeNameTaken(tx, b.name)) throw conflict(`方案名称「${b.name}」已存在`);
    b.versions.forEach((v, i) => {
      if (v.id) throw invalid({ path: ['versions', i, 'id'], message: '新增方案的价格版本不能指定 id' });
    });
    const id = await repo.insertScheme(tx, companyId, schemeValues(b));
    await repo.syncVersions(tx, companyId, id, b.versions);
    return { id };
  });
}

export async function updateScheme(ctx: Ctx, b: ChargingSchemeInput & { id: number }) {
  ctx.audit.target = `收费方案 ${b.name}`;
  await ctx.tx(async (tx) => {
    const row = await repo.getScheme(tx, b.id);
    if (!row) throw notFound('收费方案');
    if (await repo.schemeNameTaken(tx, b.name, b.id)) throw conflict(`方案名称「${b.name}」已存在`);
    const own = new Set((await repo.versionsOf(tx, [b.id])).map((v) => v.id));
    const seen = new Set<number>();
    b.versions.forEach((v, i) => {
      if (!v.id) return;
      if (!own.has(v.id) || seen.has(v.id)) throw invalid({ path: ['versions', i, 'id'], message: '价格版本不属于该收费方案或重复' });
      seen.add(v.id);
    });
    await assertKindKept(ctx, 'chargingSchemeId', b.id, row.kind, b.kind);
    await repo.updateScheme(tx, b.id, schemeValues(b));
    await repo.syncVersions(tx, row.companyId, b.id, b.versions);
  });
  return null;
}

export async function deleteSchemes(ctx: Ctx, ids: number[]) {
  const unique = [...new Set(ids)];
  await ctx.tx(async (tx) => {
    const rows = await repo.getSchemes(tx, unique);
    if (rows.length !== unique.length) throw notFound('收费方案');
    ctx.audit.target = rows.map((r) => `收费方案 ${r.name}`).join('、').slice(0, 400);
    await assertUnused(ctx, 'chargingSchemeId', rows);
    await repo.deleteSchemes(tx, unique);
  });
  return null;
}

// ---- charge codes (declared resource hooks) ----------------------------------------------------

export const schemeEnum = () => Object.entries(SCHEME_ENUM).map(([id, name]) => ({ id: Number(id), name }));

/** The form's 元 amount becomes the stored 分 (registerCrud writes `values` as they leave this hook). */
export async function chargeCodeBeforeWrite(_tx: Tx, _ctx: Ctx, values: Record<string, unknown>) {
  values.amountFen = amountToFen(values.amount);
  delete values.amount;
}

export async function presentChargeCodes(_tx: Tx, rows: Record<string, unknown>[]) {
  return rows.map(({ amountFen, ...r }) => ({ ...r, amount: fenToYuan(amountFen as number) }));
}

// ---- alarm schemes (declared resource hooks) ---------------------------------------------------

const ALARM_AMOUNTS = { alarmAmount1: 'alarm1Fen', alarmAmount2: 'alarm2Fen', closeAmount: 'closeFen', overdraftAmount: 'overdraftFen' } as const;

/** Checks alarm1 ≥ alarm2 ≥ close and the no-disconnect window, then stores the amounts in 分. */
export async function alarmBeforeWrite(tx: Tx, ctx: Ctx, values: Record<string, unknown>, id?: number) {
  const fen = Object.fromEntries(Object.entries(ALARM_AMOUNTS).map(([wire, col]) => [col, amountToFen(values[wire])])) as Record<string, number>;
  const issues = alarmIssues({
    alarm1Fen: fen.alarm1Fen,
    alarm2Fen: fen.alarm2Fen,
    closeFen: fen.closeFen,
    noCloseStart: String(values.noCloseStart ?? ''),
    noCloseEnd: String(values.noCloseEnd ?? ''),
  });
  if (issues.length) throw invalid(issues[0]);
  if (id !== undefined) {
    const old = await repo.getAlarmScheme(tx, id);
    if (old) await assertKindKept(ctx, 'alarmSchemeId', id, old.kind, Number(values.kind));
  }
  for (const wire of Object.keys(ALARM_AMOUNTS)) delete values[wire];
  Object.assign(values, fen);
}

export async function alarmBeforeDelete(tx: Tx, ctx: Ctx, ids: number[]) {
  await assertUnused(ctx, 'alarmSchemeId', await repo.getAlarmSchemes(tx, ids));
}

export async function presentAlarmSchemes(_tx: Tx, rows: Record<string, unknown>[]) {
  return rows.map(({ alarm1Fen, alarm2Fen, closeFen, overdraftFen, ...r }) => ({
    ...r,
    alarmAmount1: fenToYuan(alarm1Fen as number),
    alarmAmount2: fenToYuan(alarm2Fen as number),
    closeAmount: fenToYuan(closeFen as number),
    overdraftAmount: fenToYuan(overdraftFen as number),
  }));
}
