import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appUrlFrom, openDb, SYSTEM_SCOPE, type Db, type Scope } from '../../db/client.ts';
import { makeCompany } from '../../../test/factories.ts';
import { OWNER_URL } from '../../../test/helpers.ts';
import { copyStats } from './repo/index.ts';
import { ingestReadings, SOURCE, type IngestItem, type IngestOptions } from './ingest.ts';

// The set-based write path of readings: large batches go by COPY under the meter_ingest role
// (migration 0020), small ones and any batch meeting a row already stored by INSERT … ON CONFLICT.
// Both must store exactly the same thing, flag the same exceptions and stay idempotent.

let db: Db;
let owner: pg.Pool;
let companyA: number;
let companyB: number;
let addrSeq = 0;

const COPY: IngestOptions = { copyMinRows: 1 };
const INSERT: IngestOptions = { copyMinRows: Number.POSITIVE_INFINITY };

async function meters(companyId: number, n: number): Promise<number[]> {
  const base = `${process.pid % 1000}${Date.now() % 1_000_000}`.padStart(9, '0');
  const addrs = Array.from({ length: n }, () => `${base}${String(addrSeq++).padStart(3, '0')}`.slice(-12));
  const { rows } = await owner.query(
    `INSERT INTO meters (company_id, name, kind, plan, address, protocol_id)
     SELECT $1, a, 1, 0, a, 11 FROM unnest($2::text[]) AS a RETURNING id`,
    [companyId, addrs],
  );
  return rows.map((r) => Number(r.id)).sort((a, b) => a - b);
}

const T0 = Date.parse('2026-11-01T00:00:00Z');

/** four readings per meter, 15 minutes apart, growing; valve open; in arrival order (time-major) */
function batch(ids: number[], companyId: number, from = 0, totalBase = 100): IngestItem[] {
  const out: IngestItem[] = [];
  for (let k = from; k < from + 4; k++)
    ids.forEach((id, i) =>
      out.push({
        meter: { id, companyId, areaId: null },
        readAt: new Date(T0 + k * 900_000),
        total: (totalBase + k * 1.25 + (i % 7)).toFixed(2),
        registers: { voltageA: 220.5, note: 'tab\there "quoted" \\ back\nslash {a,b} 读数', word: 'NULL' },
        source: SOURCE.report,
        valve: 1,
      }),
    );
  return out;
}

const run = (items: IngestItem[], opts: IngestOptions, scope: Scope = SYSTEM_SCOPE) => db.tx(scope, (tx) => ingestReadings(tx, items, opts));

async function stored(ids: number[]) {
  const r = await owner.query(
    `SELECT meter_id, company_id, read_at, source, total, registers, exception FROM readings WHERE meter_id = ANY($1) ORDER BY meter_id, read_at`,
    [ids],
  );
  return r.rows;
}

async function latest(ids: number[]) {
  const r = await owner.query(`SELECT meter_id, company_id, read_at, total, registers, source FROM meter_latest WHERE meter_id = ANY($1) ORDER BY meter_id`, [ids]);
  return r.rows;
}

/** the database's reason, under drizzle's "Failed query" wrapper */
async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    const err = e as { message: string; cause?: { message?: string } };
    return err.cause?.message ?? err.message;
  }
  return 'no error';
}

/** rows of two meter sets compared position by position, without the meter id */
const strip = (rows: Record<string, unknown>[]) => rows.map(({ meter_id: _, ...rest }) => rest);

beforeAll(async () => {
  db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 4);
  owner = new pg.Pool({ connectionString: OWNER_URL(), max: 2 });
  companyA = await makeCompany(owner);
  companyB = await makeCompany(owner);
});

afterAll(async () => {
  await db?.close();
  await owner?.end();
});

describe('reading ingest by COPY', () => {
  it('stores exactly what the INSERT path stores: readings, latest value and results', async () => {
    const viaCopy = await meters(companyA, 40);
    const viaInsert = await meters(companyA, 40);
    const copied = copyStats.rows;
    const a = await run(batch(viaCopy, companyA), COPY);
    expect(copyStats.rows - copied).toBe(160);
    const b = await run(batch(viaInsert, companyA), INSERT);
    expect(copyStats.rows - copied).toBe(160);
    expect(a.results.every((r) => r.stored && r.exception === '')).toBe(true);
    expect(a.results.map((r) => [r.stored, r.exception, r.readAt])).toEqual(b.results.map((r) => [r.stored, r.exception, r.readAt]));
    expect(a.events.map((e) => ({ ...e, body: { ...e.body, meterId: 0 } }))).toEqual(b.events.map((e) => ({ ...e, body: { ...e.body, meterId: 0 } })));
    const ra = await stored(viaCopy);
    const rb = await stored(viaInsert);
    expect(ra).toHaveLength(160);
    expect(strip(ra)).toEqual(strip(rb));
    expect(strip(await latest(viaCopy))).toEqual(strip(await latest(viaInsert)));
    const registers = { voltageA: 220.5, note: 'tab\there "quoted" \\ back\nslash {a,b} 读数', word: 'NULL', valve: 1 };
    expect(ra[0].registers).toEqual(registers);
    expect(ra.every((r) => Number(r.company_id) === companyA)).toBe(true);
    const la = await latest(viaCopy);
    expect(la).toHaveLength(40);
    for (const r of la) expect(r.registers).toEqual(registers);
    expect(la.every((r) => new Date(r.read_at as Date).getTime() === T0 + 3 * 900_000)).toBe(true);
  });

  it('flags a reading lower or older than the last one as an exception and never moves the latest value with it', async () => {
    const ids = await meters(companyA, 30);
    await run(batch(ids, companyA), COPY);
    const before = await latest(ids);
    const next = batch(ids, companyA, 4);
    // meter 0: a reading lower than its last one; meter 1: one older than its last one (inside the same batch)
    next.push({ ...next[0], readAt: new Date(T0 + 10 * 900_000), total: '1.00' });
    next.push({ ...next[1], readAt: new Date(T0 + 2.5 * 900_000), total: '999.00' });
    const r = await run(next, COPY);
    expect(r.results.at(-2)).toMatchObject({ stored: true, exception: 'backwards' });
    expect(r.results.at(-1)).toMatchObject({ stored: true, exception: 'older' });
    expect(r.results.slice(0, -2).every((x) => x.stored && x.exception === '')).toBe(true);
    const after = await latest(ids);
    // every meter moved to its newest good reading; the exceptions moved nothing
    expect(after.map((x) => new Date(x.read_at as Date).getTime())).toEqual(ids.map(() => T0 + 7 * 900_000));
    expect(after[0].total).not.toBe('1.00');
    expect(after.map((x) => x.total)).not.toEqual(before.map((x) => x.total));
    const exc = await owner.query(`SELECT meter_id, exception, total FROM readings WHERE meter_id = ANY($1) AND exception <> '' ORDER BY meter_id`, [ids]);
    expect(exc.rows.map((x) => [Number(x.meter_id), x.exception, x.total])).toEqual([
      [ids[0], 'backwards', '1.00'],
      [ids[1], 'older', '999.00'],
    ]);
    const w = await owner.query(`SELECT meter_id FROM device_warnings WHERE meter_id = ANY($1) AND kind = 'backwards' AND status = 0 ORDER BY meter_id`, [ids]);
    expect(w.rows.map((x) => Number(x.meter_id))).toEqual([ids[0], ids[1]]);
  });

  it('growth while the valve was already closed at the previous reading opens a warning, inside one batch as across batches', async () => {
    const ids = await meters(companyA, 3);
    const closed = (id: number, k: number, total: string, valve?: 0 | 1): IngestItem => ({
      meter: { id, companyId: companyA, areaId: null },
      readAt: new Date(T0 + k * 900_000),
      total,
      source: SOURCE.report,
      ...(valve === undefined ? {} : { valve }),
    });
    // meter 0: closed, then grows by 0.50 in the same batch; meter 1: closed, then no valve seen, grows by 0.01 only
    await run([closed(ids[0], 0, '10.00', 0), closed(ids[0], 1, '10.50', 0), closed(ids[1], 0, '10.00', 0), closed(ids[1], 1, '10.01')], COPY);
    const w = await owner.query(`SELECT meter_id, detail FROM device_warnings WHERE meter_id = ANY($1) AND kind = 'consumption_closed' ORDER BY meter_id`, [ids]);
    expect(w.rows.map((x) => [Number(x.meter_id), x.detail.from, x.detail.to])).toEqual([[ids[0], '10.00', '10.50']]);
    // across batches: the closed state comes from meter_latest
    await run([closed(ids[2], 0, '10.00', 0)], COPY);
    await run([closed(ids[2], 1, '11.00', 0)], COPY);
    const w2 = await owner.query(`SELECT detail FROM device_warnings WHERE meter_id = $1 AND kind = 'consumption_closed'`, [ids[2]]);
    expect(w2.rows.map((x) => [x.detail.from, x.detail.to])).toEqual([['10.00', '11.00']]);
  });

  it('is idempotent: a batch already stored, wholly or in part, stores only what is new', async () => {
    const ids = await meters(companyA, 25);
    const first = batch(ids, companyA);
    const withDup = [...first, first[3], first[7]];
    const r1 = await run(withDup, COPY);
    expect(r1.results.filter((x) => x.stored)).toHaveLength(100);
    expect(r1.results.slice(-2).map((x) => x.stored)).toEqual([false, false]);
    // the same batch again: COPY meets the unique key, the batch takes the INSERT path, nothing is added
    const fallbacks = copyStats.fallbacks;
    const r2 = await run(first, COPY);
    expect(copyStats.fallbacks).toBe(fallbacks + 1);
    expect(r2.results.every((x) => !x.stored)).toBe(true);
    // half old, half new
    const mixed = [...first.slice(50), ...batch(ids, companyA, 4)];
    const r3 = await run(mixed, COPY);
    expect(r3.results.slice(0, 50).every((x) => !x.stored)).toBe(true);
    expect(r3.results.slice(50).every((x) => x.stored && x.exception === '')).toBe(true);
    expect(await stored(ids)).toHaveLength(200);
    const l = await latest(ids);
    expect(l.every((x) => new Date(x.read_at as Date).getTime() === T0 + 7 * 900_000)).toBe(true);
  });

  it('a default-sized gateway batch goes by COPY; a small one by INSERT; both in one transaction that can still roll back', async () => {
    const ids = await meters(companyA, 20);
    const items = batch(ids, companyA); // 80 rows ≥ COPY_MIN_ROWS
    await expect(
      db.tx(SYSTEM_SCOPE, async (tx) => {
        await ingestReadings(tx, items);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await stored(ids)).toHaveLength(0);
    const copied = copyStats.rows;
    const r = await run(items, {});
    expect(r.results.every((x) => x.stored)).toBe(true);
    expect(await stored(ids)).toHaveLength(80);
    expect(copyStats.rows - copied).toBe(80);
    const small = await run(batch(ids.slice(0, 3), companyA, 4), {});
    expect(copyStats.rows - copied).toBe(80);
    expect(small.results.every((x) => x.stored)).toBe(true);
  });

  it('takes the company from the meters row: a tenant cannot write readings of another company, COPY or not', async () => {
    const mineIds = await meters(companyA, 10);
    const theirs = await meters(companyB, 1);
    const scopeA: Scope = { companyId: companyA, allCompanies: false, areaIds: null, userId: null };
    // a meter of company B claimed as B inside company A's scope: not visible, so not copied; the INSERT refuses it
    const claimB = [...batch(mineIds, companyA), ...batch(theirs, companyB)];
    expect(await refusal(run(claimB, COPY, scopeA))).toMatch(/row-level security/);
    expect(await stored([...mineIds, ...theirs])).toHaveLength(0);
    // an own meter claimed for company B: the meters row says A, so it is not copied either
    const wrong = batch(mineIds, companyB);
    expect(await refusal(run(wrong, COPY, scopeA))).toMatch(/row-level security/);
    expect(await stored(mineIds)).toHaveLength(0);
    // the own company's meters, in its own scope, go by COPY as that company
    const copied = copyStats.rows;
    const ok = await run(batch(mineIds, companyA), COPY, scopeA);
    expect(copyStats.rows - copied).toBe(40);
    expect(ok.results.every((x) => x.stored)).toBe(true);
    const rows = await stored(mineIds);
    expect(rows).toHaveLength(40);
    expect(rows.every((x) => Number(x.company_id) === companyA)).toBe(true);
  });

  it('meter_ingest may insert readings and nothing else; the app role stays under row-level security', async () => {
    const role = await owner.query(`SELECT rolbypassrls, rolcanlogin, rolsuper, rolinherit FROM pg_roles WHERE rolname = 'meter_ingest'`);
    expect(role.rows[0]).toEqual({ rolbypassrls: true, rolcanlogin: false, rolsuper: false, rolinherit: false });
    const app = await owner.query(`SELECT rolbypassrls, rolsuper FROM pg_roles WHERE rolname = 'meter_app'`);
    expect(app.rows[0]).toEqual({ rolbypassrls: false, rolsuper: false });
    const grants = await owner.query(`
      SELECT c.relname, p.privilege_type FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace,
        LATERAL (SELECT unnest(ARRAY['SELECT','INSERT','UPDATE','DELETE','TRUNCATE','REFERENCES','TRIGGER']) AS privilege_type) p
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND has_table_privilege('meter_ingest', c.oid, p.privilege_type)
        AND NOT has_table_privilege('public', c.oid, p.privilege_type)`);
    expect(grants.rows).toEqual([{ relname: 'readings', privilege_type: 'INSERT' }]);
    // as meter_ingest, the app can read or change nothing
    const c = await db.pool.connect();
    try {
      await c.query('BEGIN');
      await c.query('SET LOCAL ROLE meter_ingest');
      await expect(c.query('SELECT 1 FROM readings LIMIT 1')).rejects.toThrow(/permission denied/);
      await c.query('ROLLBACK');
      await c.query('BEGIN');
      await c.query('SET LOCAL ROLE meter_ingest');
      await expect(c.query('UPDATE meters SET name = name')).rejects.toThrow(/permission denied/);
      await c.query('ROLLBACK');
      // and meter_app itself still cannot COPY into a table under row-level security
      await c.query('BEGIN');
      await expect(c.query(`COPY readings (company_id, meter_id, read_at, source, total) FROM STDIN`)).rejects.toThrow(/row-level security/);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
  });
});
