import { and, count, desc, eq, getTableColumns, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { PgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { FieldDef } from '@meter/contracts';
import type { Tx } from './client.ts';

// The generic repository behind declared CRUD resources: the only SQL they need. Row-level security
// (set by the transaction's scope) limits every statement to the caller's company and areas.

export type AnyTable = PgTable & { id: PgColumn };

const col = (table: AnyTable, key: string): PgColumn => {
  const c = getTableColumns(table)[key];
  if (!c) throw new Error(`column ${key} missing on table`);
  return c;
};

/** The area and every area below it (for searchArea). */
export const areaAndBelow = (areaId: number) => sql`(
  WITH RECURSIVE t AS (SELECT id FROM areas WHERE id = ${areaId}
    UNION SELECT a.id FROM areas a JOIN t ON a.parent_id = t.id) SELECT id FROM t)`;

export interface ListFilter {
  fields: FieldDef[];
  query: Record<string, unknown>;
  /** the table's area column, when the resource follows the area tree */
  areaKey?: string;
  extra?: SQL[];
  /** the list's order (default: newest first) */
  order?: SQL[];
}

export function whereOf(table: AnyTable, f: ListFilter): SQL | undefined {
  const w: SQL[] = [...(f.extra ?? [])];
  for (const field of f.fields) {
    const v = f.query[field.key];
    if (!field.search || v === undefined || v === null || v === '') continue;
    w.push(field.search === 'like' ? ilike(col(table, field.key), `%${String(v).replace(/[%_\\]/g, '\\$&')}%`) : eq(col(table, field.key), v));
  }
  const area = f.query.searchArea;
  if (f.areaKey && typeof area === 'number') w.push(sql`${col(table, f.areaKey)} IN ${areaAndBelow(area)}`);
  return w.length ? and(...w) : undefined;
}

/**
 * One page of a list, newest first (or in `order`), and the number of rows its filter finds: `select` is the list's
 * select with its joins (`.$dynamic()`), `table` the table it lists and counts.
 */
export async function newestPage<Q extends PgSelect>(tx: Tx, select: Q, table: AnyTable, cond: SQL | undefined, limit: number, offset: number, order?: SQL[]) {
  const rows: Awaited<Q> = await select.where(cond).orderBy(...(order ?? [desc(table.id)])).limit(limit).offset(offset);
  const [c] = await tx.select({ n: count() }).from(table).where(cond);
  return { rows, count: c.n };
}

export async function list(tx: Tx, table: AnyTable, f: ListFilter, limit: number, offset: number) {
  const r = await newestPage(tx, tx.select().from(table).$dynamic(), table, whereOf(table, f), limit, offset, f.order);
  return { rows: r.rows as Record<string, unknown>[], count: r.count };
}

export async function get(tx: Tx, table: AnyTable, id: number) {
  const [r] = await tx.select().from(table).where(eq(table.id, id));
  return r as Record<string, unknown> | undefined;
}

export async function insert(tx: Tx, table: AnyTable, values: Record<string, unknown>) {
  const [r] = await tx.insert(table).values(values as never).returning({ id: table.id });
  return r.id as number;
}

export async function update(tx: Tx, table: AnyTable, id: number, values: Record<string, unknown>) {
  const set = 'updatedAt' in getTableColumns(table) ? { ...values, updatedAt: sql`now()` } : values;
  const r = await tx.update(table).set(set as never).where(eq(table.id, id)).returning({ id: table.id });
  return r.length > 0;
}

export async function remove(tx: Tx, table: AnyTable, ids: number[]) {
  const r = await tx.delete(table).where(inArray(table.id, ids)).returning({ id: table.id });
  return r.map((x) => x.id as number);
}

/** Whether another row (visible in scope) already has this value. */
export async function taken(tx: Tx, table: AnyTable, key: string, value: unknown, exceptId?: number) {
  const w = [eq(col(table, key), value)];
  if (exceptId) w.push(sql`${table.id} <> ${exceptId}`);
  const [r] = await tx.select({ id: table.id }).from(table).where(and(...w)).limit(1);
  return !!r;
}
