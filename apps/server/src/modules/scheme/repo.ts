import { and, asc, count, eq, inArray, isNotNull, notInArray, sql } from 'drizzle-orm';
import { chargingSchemeResource, localToDate, type StoredVersion } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import * as crud from '../../db/crud-repo.ts';
import { alarmSchemes, chargingSchemes, chargingSchemeVersions, companyChargeCodes, meters } from '../../db/schema/index.ts';

// The only SQL of charging schemes, their versions, and the "in use by meters" checks of every
// scheme kind. Row-level security limits each statement to the transaction's company (and areas).

export type SchemeRow = typeof chargingSchemes.$inferSelect;
export type VersionRow = typeof chargingSchemeVersions.$inferSelect;
export type SchemeValues = Pick<SchemeRow, 'name' | 'kind' | 'chargingMonthType' | 'status' | 'memo'>;


export async function listSchemes(tx: Tx, query: Record<string, unknown>, limit: number, offset: number) {
  const r = await crud.list(tx, chargingSchemes, { fields: chargingSchemeResource.fields, query }, limit, offset);
  return { rows: r.rows as SchemeRow[], count: r.count };
}

export async function getScheme(tx: Tx, id: number): Promise<SchemeRow | undefined> {
  const [r] = await tx.select().from(chargingSchemes).where(eq(chargingSchemes.id, id));
  return r;
}

export function getSchemes(tx: Tx, ids: number[]): Promise<SchemeRow[]> {
  return tx.select().from(chargingSchemes).where(inArray(chargingSchemes.id, ids));
}

/** The versions of these schemes, oldest first. */
export function versionsOf(tx: Tx, schemeIds: number[]): Promise<VersionRow[]> {
  if (schemeIds.length === 0) return Promise.resolve([]);
  return tx
    .select()
    .from(chargingSchemeVersions)
    .where(inArray(chargingSchemeVersions.schemeId, schemeIds))
    .orderBy(asc(chargingSchemeVersions.schemeId), asc(chargingSchemeVersions.effectiveFrom));
}

/** Schemes in use (status 1), optionally of one kind, for pickers. */
export function usingSchemes(tx: Tx, kind?: number) {
  const w = [eq(chargingSchemes.status, 1), ...(kind === undefined ? [] : [eq(chargingSchemes.kind, kind)])];
  return tx
    .select({ id: chargingSchemes.id, name: chargingSchemes.name, kind: chargingSchemes.kind, chargingMonthType: chargingSchemes.chargingMonthType })
    .from(chargingSchemes)
    .where(and(...w))
    .orderBy(asc(chargingSchemes.kind), asc(chargingSchemes.name));
}

export const schemeNameTaken = (tx: Tx, name: string, exceptId?: number) => crud.taken(tx, chargingSchemes, 'name', name, exceptId);

export async function insertScheme(tx: Tx, companyId: number, v: SchemeValues): Promise<number> {
  const [r] = await tx.insert(chargingSchemes).values({ companyId, ...v }).returning({ id: chargingSchemes.id });
  return r.id;
}

export async function updateScheme(tx: Tx, id: number, v: SchemeValues) {
  await tx.update(chargingSchemes).set({ ...v, updatedAt: sql`now()` }).where(eq(chargingSchemes.id, id));
}

const versionValues = (v: StoredVersion) => ({
  effectiveFrom: localToDate(v.effectiveFrom),
  mode: v.mode,
  unitPrice: v.unitPrice,
  tiers: v.tiers,
  tou: v.tou,
  monthlyFeeFen: v.monthlyFeeFen,
  minimumChargeFen: v.minimumChargeFen,
});

/**
 * Makes the scheme's versions exactly `versions`: those with an id (already checked to belong to
 * the scheme) are updated in place, so references to them stay valid; the rest are inserted; versions
 * no longer listed are deleted. Kept versions first step aside to placeholder moments so that
 * exchanging effective dates between them never trips the unique (scheme, effective_from) index.
 */
export async function syncVersions(tx: Tx, companyId: number, schemeId: number, versions: StoredVersion[]) {
  const keep = versions.filter((v) => v.id).map((v) => v.id as number);
  await tx
    .delete(chargingSchemeVersions)
    .where(and(eq(chargingSchemeVersions.schemeId, schemeId), keep.length ? notInArray(chargingSchemeVersions.id, keep) : undefined));
  if (keep.length) {
    // distinct per id, long before any real moment (effective dates start in 1970)
    await tx
      .update(chargingSchemeVersions)
      .set({ effectiveFrom: sql`timestamptz '0001-01-01 00:00:00+00' + (${chargingSchemeVersions.id} % 1000000000) * interval '1 second'` })
      .where(and(eq(chargingSchemeVersions.schemeId, schemeId), inArray(chargingSchemeVersions.id, keep)));
  }
  const fresh = versions.filter((v) => !v.id);
  for (const v of versions) {
    if (v.id) await tx.update(chargingSchemeVersions).set(versionValues(v)).where(and(eq(chargingSchemeVersions.id, v.id), eq(chargingSchemeVersions.schemeId, schemeId)));
  }
  if (fresh.length) await tx.insert(chargingSchemeVersions).values(fresh.map((v) => ({ companyId, schemeId, ...versionValues(v) })));
}

export async function deleteSchemes(tx: Tx, ids: number[]) {
  await tx.delete(chargingSchemes).where(inArray(chargingSchemes.id, ids));
}

export async function getAlarmScheme(tx: Tx, id: number) {
  const [r] = await tx.select({ id: alarmSchemes.id, name: alarmSchemes.name, kind: alarmSchemes.kind }).from(alarmSchemes).where(eq(alarmSchemes.id, id));
  return r;
}

export function getAlarmSchemes(tx: Tx, ids: number[]) {
  return tx.select({ id: alarmSchemes.id, name: alarmSchemes.name }).from(alarmSchemes).where(inArray(alarmSchemes.id, ids));
}

/**
 * How many meters use each of these schemes. Run it in a transaction without the area restriction
 * (company-wide): a meter in an area the user cannot see still uses the scheme.
 */
export async function metersUsing(tx: Tx, column: 'chargingSchemeId' | 'alarmSchemeId', ids: number[]) {
  const c = meters[column];
  const rows = await tx
    .select({ schemeId: c, kind: meters.kind, n: count() })
    .from(meters)
    .where(and(isNotNull(c), inArray(c, ids)))
    .groupBy(c, meters.kind);
  return rows.map((r) => ({ schemeId: Number(r.schemeId), kind: r.kind, n: Number(r.n) }));
}

/** Demo seed: charge codes and alarm schemes as stored (amounts in 分). */
export async function insertChargeCodes(tx: Tx, rows: (typeof companyChargeCodes.$inferInsert)[]) {
  await tx.insert(companyChargeCodes).values(rows);
}

export async function insertAlarmSchemes(tx: Tx, rows: (typeof alarmSchemes.$inferInsert)[]) {
  await tx.insert(alarmSchemes).values(rows);
}
