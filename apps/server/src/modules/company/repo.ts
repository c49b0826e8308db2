import { and, asc, count, eq, ilike, inArray, isNotNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { newestPage } from '../../db/crud-repo.ts';
import {
  adminUsers, areaPermissions, areas, auditLog, collectors, companies, companyClassifies, companyConfigs, exportConfigs, meters, owners, roles, rooms,
  sessions, userAreas,
} from '../../db/schema/index.ts';
import { conflict } from '../../http/errors.ts';

// The only SQL of the company domain. Row-level security shows company staff only their own company
// (the companies policy keys on `id`); platform admins run these in the all-companies scope.

/** The companies visible in the scope: one for company staff, all for a platform admin. */
export function visibleCompanies(tx: Tx) {
  return tx.select({ id: companies.id, name: companies.name }).from(companies).orderBy(asc(companies.id));
}

export function classifyOptions(tx: Tx) {
  return tx
    .select({ id: companyClassifies.id, name: companyClassifies.name })
    .from(companyClassifies)
    .orderBy(asc(companyClassifies.sort), asc(companyClassifies.id));
}

export async function assertClassifiesUnused(tx: Tx, ids: number[]) {
  // counted across all companies: a classify in use anywhere stays
  const [r] = await tx.select({ n: count() }).from(companies).where(inArray(companies.classifyId, ids));
  if (r.n > 0) throw conflict(`该分类下还有 ${r.n} 个单位，不能删除`);
}

export async function classifyExists(tx: Tx, id: number) {
  const [r] = await tx.select({ id: companyClassifies.id }).from(companyClassifies).where(eq(companyClassifies.id, id));
  return !!r;
}

const escapeLike = (s: string) => `%${s.replace(/[%_\\]/g, '\\$&')}%`;

/** The columns a company answers with (never the valve-control password itself). */
const companyColumns = {
  id: companies.id,
  name: companies.name,
  classifyId: companies.classifyId,
  classifyName: companyClassifies.name,
  contact: companies.contact,
  phone: companies.phone,
  address: companies.address,
  bankType: companies.bankType,
  edition: companies.edition,
  smsPriceFen: companies.smsPriceFen,
  phonePriceFen: companies.phonePriceFen,
  deviceCheck: companies.deviceCheck,
  hasValveControlPwd: sql<boolean>`${companies.valveControlPwd} <> ''`,
  collectorPlans: companies.collectorPlans,
  electricPlans: companies.electricPlans,
  waterPlans: companies.waterPlans,
  status: companies.status,
  createdAt: companies.createdAt,
  updatedAt: companies.updatedAt,
};


export async function listCompanies(tx: Tx, f: { name?: string; classifyId?: number }, limit: number, offset: number) {
  const w: SQL[] = [];
  if (f.name) w.push(ilike(companies.name, escapeLike(f.name)));
  if (f.classifyId) w.push(eq(companies.classifyId, f.classifyId));
  const cond = w.length ? and(...w) : undefined;
  const select = tx.select(companyColumns).from(companies).leftJoin(companyClassifies, eq(companyClassifies.id, companies.classifyId));
  return newestPage(tx, select.$dynamic(), companies, cond, limit, offset);
}

export async function getCompany(tx: Tx, id: number) {
  const [r] = await tx
    .select(companyColumns)
    .from(companies)
    .leftJoin(companyClassifies, eq(companyClassifies.id, companies.classifyId))
    .where(eq(companies.id, id));
  return r;
}

/** The company's pay gears (分, ascending); undefined when no such company is visible. */
export async function payGears(tx: Tx, id: number): Promise<number[] | undefined> {
  const [r] = await tx.select({ g: companies.payGears }).from(companies).where(eq(companies.id, id));
  return r?.g;
}

export async function updateCompany(tx: Tx, id: number, v: Partial<typeof companies.$inferInsert>) {
  const r = await tx.update(companies).set({ ...v, updatedAt: sql`now()` }).where(eq(companies.id, id)).returning({ id: companies.id });
  return r.length > 0;
}

export async function valveControlPwd(tx: Tx, id: number) {
  const [r] = await tx.select({ pwd: companies.valveControlPwd }).from(companies).where(eq(companies.id, id));
  return r?.pwd;
}

/** Stores the valve-control password's hash ('' = not set). */
export async function setValveControlPwd(tx: Tx, id: number, hash: string) {
  await tx.update(companies).set({ valveControlPwd: hash, updatedAt: sql`now()` }).where(eq(companies.id, id));
}

/** Wrong valve passwords this user typed in this company since `since` (each refused request is an audit row). */
export async function valvePwdFailures(tx: Tx, companyId: number, userId: number, since: Date) {
  const [r] = await tx
    .select({ n: count() })
    .from(auditLog)
    .where(and(eq(auditLog.companyId, companyId), eq(auditLog.userId, userId), eq(auditLog.code, 'VALVE_PWD_WRONG'), sql`${auditLog.createdAt} > ${since}`));
  return Number(r?.n ?? 0);
}

/** What still lives in a company, by kind (only kinds with rows). */
export async function companyHoldings(tx: Tx, id: number) {
  const n = async (q: Promise<{ n: number }[]>) => (await q)[0].n;
  return {
    users: await n(tx.select({ n: count() }).from(adminUsers).where(eq(adminUsers.companyId, id))),
    areas: await n(tx.select({ n: count() }).from(areas).where(eq(areas.companyId, id))),
    rooms: await n(tx.select({ n: count() }).from(rooms).where(eq(rooms.companyId, id))),
    meters: await n(tx.select({ n: count() }).from(meters).where(eq(meters.companyId, id))),
    collectors: await n(tx.select({ n: count() }).from(collectors).where(eq(collectors.companyId, id))),
    owners: await n(tx.select({ n: count() }).from(owners).where(eq(owners.companyId, id))),
  };
}

/**
 * Every other table that has a company_id column and still holds rows of the company (schemes,
 * charge codes, device data …), so deleting a company never orphans business data. Tables the app
 * role cannot read (closed partitions) are not listed by information_schema.
 */
export async function otherCompanyData(tx: Tx, id: number, skip: string[]) {
  const t = await tx.execute<{ table_name: string }>(sql`
    SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables tb ON tb.table_schema = c.table_schema AND tb.table_name = c.table_name
    WHERE c.table_schema = 'public' AND c.column_name = 'company_id' AND tb.table_type = 'BASE TABLE'
    ORDER BY c.table_name`);
  const out: { table: string; n: number }[] = [];
  for (const { table_name: table } of t.rows) {
    if (skip.includes(table)) continue;
    const r = await tx.execute<{ n: number }>(sql`SELECT count(*)::int AS n FROM ${sql.identifier(table)} WHERE company_id = ${id}`);
    if (r.rows[0].n > 0) out.push({ table, n: r.rows[0].n });
  }
  return out;
}

/** Removes a company with its own configuration (roles, area-permission sets, stale sessions). */
export async function deleteCompany(tx: Tx, id: number) {
  await tx.delete(userAreas).where(eq(userAreas.companyId, id));
  await tx.delete(sessions).where(eq(sessions.companyId, id));
  await tx.delete(areaPermissions).where(eq(areaPermissions.companyId, id));
  await tx.delete(roles).where(eq(roles.companyId, id));
  await tx.delete(companyConfigs).where(eq(companyConfigs.companyId, id));
  await tx.delete(exportConfigs).where(eq(exportConfigs.companyId, id));
  await tx.delete(companies).where(eq(companies.id, id));
}

export async function setDevicePermiss(
  tx: Tx,
  id: number,
  v: { deviceCheck: boolean; collectorPlans: number[]; electricPlans: number[]; waterPlans: number[] },
) {
  await tx.update(companies).set({ ...v, updatedAt: sql`now()` }).where(eq(companies.id, id));
}

/** Plans the company's collectors and meters use now: {kind, plan, n}. kind 1 电表, 2 水表. */
export async function plansInUse(tx: Tx, id: number) {
  const c = await tx
    .select({ plan: collectors.plan, n: count() })
    .from(collectors)
    .where(eq(collectors.companyId, id))
    .groupBy(collectors.plan);
  const m = await tx
    .select({ kind: meters.kind, plan: meters.plan, n: count() })
    .from(meters)
    .where(and(eq(meters.companyId, id), isNotNull(meters.plan), ne(meters.status, 2)))
    .groupBy(meters.kind, meters.plan);
  return { collectors: c, meters: m };
}

// ---- 系统配置 (sys_config) -------------------------------------------------------------------------

/** The company's set values, with who set them last. */
export async function configValues(tx: Tx, companyId: number) {
  return tx
    .select({ key: companyConfigs.key, value: companyConfigs.value, updatedAt: companyConfigs.updatedAt, updatedBy: adminUsers.username })
    .from(companyConfigs)
    .leftJoin(adminUsers, eq(adminUsers.id, companyConfigs.updatedBy))
    .where(eq(companyConfigs.companyId, companyId));
}

export async function saveConfigValues(tx: Tx, companyId: number, userId: number, values: { key: string; value: string }[]) {
  if (!values.length) return;
  await tx
    .insert(companyConfigs)
    .values(values.map((v) => ({ companyId, key: v.key, value: v.value, updatedBy: userId })))
    .onConflictDoUpdate({
      target: [companyConfigs.companyId, companyConfigs.key],
      set: { value: sql`excluded.value`, updatedBy: sql`excluded.updated_by`, updatedAt: sql`now()` },
    });
}

export async function companyExists(tx: Tx, id: number) {
  const [r] = await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, id));
  return !!r;
}
