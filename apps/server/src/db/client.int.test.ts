import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { appUrlFrom, executePrepared, openDb, scopeSql, SYSTEM_SCOPE, type Db } from './client.ts';
import { OWNER_URL } from '../../test/helpers.ts';
import { makeCompany } from '../../test/factories.ts';
import { companies } from './schema/index.ts';

// db.tx: BEGIN and the tenant settings in one round trip, a drizzle transaction on the same client,
// COMMIT or ROLLBACK, and a client that goes back to the pool clean.

let db: Db;
let owner: pg.Pool;
let a: number;
let b: number;

beforeAll(async () => {
  // one connection: every transaction reuses the client the previous one released
  db = openDb(appUrlFrom(OWNER_URL(), 'meter_app_test'), 1);
  owner = new pg.Pool({ connectionString: OWNER_URL(), max: 1 });
  a = await makeCompany(owner, `事务甲${Date.now()}`);
  b = await makeCompany(owner, `事务乙${Date.now()}`);
});
afterAll(async () => {
  await db.close();
  await owner.end();
});

const scopeOf = (companyId: number) => ({ companyId, allCompanies: false, areaIds: null, userId: 7 });
const settings = (tx: Parameters<Parameters<Db['tx']>[1]>[0]) =>
  tx.execute(sql`SELECT current_setting('app.company_id', true) AS c, current_setting('app.all_companies', true) AS al,
    current_setting('app.area_ids', true) AS ar, current_setting('app.user_id', true) AS u`).then((r) => r.rows[0]);

describe('db.tx', () => {
  it("runs the app's sessions without JIT (compiling cost more than running /home's and settlement's queries)", async () => {
    const r = await db.tx(SYSTEM_SCOPE, (tx) => tx.execute(sql`SELECT current_setting('jit') AS jit`));
    expect(r.rows[0].jit).toBe('off');
  });

  it('applies the scope for the transaction only; row-level security follows it', async () => {
    const seen = await db.tx({ companyId: a, allCompanies: false, areaIds: [3, 4], userId: 9 }, async (tx) => ({
      s: await settings(tx),
      ids: (await tx.select({ id: companies.id }).from(companies)).map((r) => r.id),
    }));
    expect(seen.s).toEqual({ c: String(a), al: 'off', ar: '3,4', u: '9' });
    expect(seen.ids).toEqual([a]);
    // the next transaction on the same client starts from nothing
    const next = await db.tx(scopeOf(b), async (tx) => (await tx.select({ id: companies.id }).from(companies)).map((r) => r.id));
    expect(next).toEqual([b]);
    const outside = await db.pool.query(`SELECT current_setting('app.company_id', true) AS c`);
    expect(outside.rows[0].c ?? '').toBe('');
  });

  it('an empty area list hides everything; the system scope sees every company', async () => {
    expect(scopeSql({ companyId: a, allCompanies: false, areaIds: [], userId: null })).toContain("'app.area_ids', '0'");
    const all = await db.tx(SYSTEM_SCOPE, async (tx) => (await tx.select({ id: companies.id }).from(companies)).map((r) => r.id));
    expect(all).toEqual(expect.arrayContaining([a, b]));
  });

  it('an error rolls everything back and the client is reusable; a nested savepoint rolls back alone', async () => {
    const name = `回滚${Date.now()}`;
    for (let i = 0; i < 20; i++) {
      await expect(
        db.tx(SYSTEM_SCOPE, async (tx) => {
          await tx.insert(companies).values({ name: `${name}-${i}` });
          throw new Error('业务失败');
        }),
      ).rejects.toThrow('业务失败');
    }
    // a server error inside the callback (unique violation, missing table) too
    await expect(db.tx(SYSTEM_SCOPE, (tx) => tx.execute(sql`SELECT * FROM no_such_table`))).rejects.toThrow();
    const kept = await db.tx(SYSTEM_SCOPE, async (tx) => {
      await tx.insert(companies).values({ name: `${name}-kept` });
      await tx.transaction(async (inner) => {
        await inner.insert(companies).values({ name: `${name}-inner` });
        inner.rollback();
      }).catch(() => undefined);
      return 'ok';
    });
    expect(kept).toBe('ok');
    const rows = await owner.query(`SELECT name FROM companies WHERE name LIKE $1 ORDER BY name`, [`${name}%`]);
    expect(rows.rows.map((r) => r.name)).toEqual([`${name}-kept`]);
    const idle = await owner.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND usename = 'meter_app' AND state LIKE 'idle in transaction%'`);
    expect(idle.rows[0].n).toBe(0);
  });

  it('tx.rollback() ends the transaction without an error reaching the pool', async () => {
    const name = `显式回滚${Date.now()}`;
    await expect(
      db.tx(SYSTEM_SCOPE, async (tx) => {
        await tx.insert(companies).values({ name });
        tx.rollback();
      }),
    ).rejects.toThrow();
    expect((await owner.query(`SELECT 1 FROM companies WHERE name = $1`, [name])).rowCount).toBe(0);
    expect(await db.tx(scopeOf(a), async (tx) => (await settings(tx)).c)).toBe(String(a));
  });

  describe('db.read', () => {
    it('each statement runs under the scope, in one round trip, and leaves nothing on the connection', async () => {
      const ids = await db.read(scopeOf(a), async (r) => (await r.execute<{ id: number }>(sql`SELECT id FROM companies ORDER BY id`)).rows.map((x) => x.id));
      expect(ids).toEqual([a]);
      const both = await db.read(scopeOf(b), async (r) => [
        (await r.execute<{ c: string }>(sql`SELECT current_setting('app.company_id', true) AS c`)).rows[0].c,
        (await r.execute<{ id: number }>(sql`SELECT id FROM companies WHERE id = ${a}`)).rows.length,
      ]);
      expect(both).toEqual([String(b), 0]);
      // the one pooled client: no setting and no transaction left behind
      const after = await db.pool.query(`SELECT current_setting('app.company_id', true) AS c, current_setting('app.all_companies', true) AS al,
        (SELECT count(*)::int FROM pg_stat_activity WHERE pid = pg_backend_pid() AND state LIKE 'idle in transaction%') AS open`);
      expect([after.rows[0].c ?? '', after.rows[0].al ?? '', after.rows[0].open]).toEqual(['', '', 0]);
    });

    it('answers rows exactly as a transaction would (date/time values stay text)', async () => {
      const q = sql`SELECT id, name, created_at, created_at::date AS d FROM companies WHERE id = ${a}`;
      const viaRead = await db.read(scopeOf(a), async (r) => (await r.execute(q)).rows);
      const viaTx = await db.tx(scopeOf(a), async (tx) => (await tx.execute(q)).rows);
      expect(viaRead).toEqual(viaTx);
      expect(typeof viaRead[0].created_at).toBe('string');
    });

    it('an area scope applies; an empty one hides every area', async () => {
      const area = Number((await owner.query(`INSERT INTO areas (company_id, name) VALUES ($1, '读区域') RETURNING id`, [a])).rows[0].id);
      const see = (areaIds: number[] | null) =>
        db.read({ companyId: a, allCompanies: false, areaIds, userId: null }, async (r) => (await r.execute(sql`SELECT id FROM areas WHERE id = ${area}`)).rows.length);
      expect([await see(null), await see([area]), await see([])]).toEqual([1, 1, 0]);
    });

    it('a failing statement rejects; the client stays clean and usable', async () => {
      await expect(db.read(scopeOf(a), (r) => r.execute(sql`SELECT * FROM no_such_table`))).rejects.toThrow(/no_such_table/);
      await expect(db.read(scopeOf(a), (r) => r.execute(sql`SELECT 1/0 AS x`))).rejects.toThrow(/division by zero/);
      const after = await db.pool.query(`SELECT current_setting('app.company_id', true) AS c`);
      expect(after.rows[0].c ?? '').toBe('');
      expect(await db.read(scopeOf(a), async (r) => (await r.execute<{ n: number }>(sql`SELECT 7 AS n`)).rows[0].n)).toBe(7);
    });
  });

  describe('executePrepared', () => {
    const q = (n: number) => sql`SELECT ${n}::int AS n, current_setting('enable_seqscan') AS during FROM generate_series(1, 2)`;
    const around = { before: 'SET LOCAL enable_seqscan = off', after: 'SET LOCAL enable_seqscan TO DEFAULT' };

    it("runs a frame's statements just before and after it, in the transaction: only the statement's rows come back", async () => {
      const r = await db.tx(SYSTEM_SCOPE, async (tx) => {
        const framed = await executePrepared(tx, q(1), around);
        // again on the same connection: the statement is prepared already, the frame still runs
        const again = await executePrepared(tx, q(2), around);
        const plain = await executePrepared(tx, q(3));
        const after = (await tx.execute(sql`SELECT current_setting('enable_seqscan') AS s`)).rows[0].s;
        return { framed: framed.rows, again: again.rows, plain: plain.rows, after };
      });
      expect(r.framed).toEqual([{ n: 1, during: 'off' }, { n: 1, during: 'off' }]);
      expect(r.again).toEqual([{ n: 2, during: 'off' }, { n: 2, during: 'off' }]);
      expect(r.plain).toEqual([{ n: 3, during: 'on' }, { n: 3, during: 'on' }]);
      expect(r.after).toBe('on');
    });

    it('a failing statement fails the transaction, the frame after it does not run; the client stays usable', async () => {
      await expect(db.tx(SYSTEM_SCOPE, (tx) => executePrepared(tx, sql`SELECT 1 / ${0}::int AS x`, around))).rejects.toThrow(/division by zero/);
      await expect(db.tx(SYSTEM_SCOPE, (tx) => executePrepared(tx, sql`SELECT 1 AS x`, { before: 'SET LOCAL no_such_setting = 1' }))).rejects.toThrow(/no_such_setting/);
      const r = await db.tx(SYSTEM_SCOPE, async (tx) => (await executePrepared(tx, q(4), around)).rows.length);
      expect(r).toBe(2);
      const after = await db.pool.query(`SELECT current_setting('enable_seqscan') AS s,
        (SELECT count(*)::int FROM pg_stat_activity WHERE pid = pg_backend_pid() AND state LIKE 'idle in transaction%') AS open`);
      expect([after.rows[0].s, after.rows[0].open]).toEqual(['on', 0]);
    });

    it('a frame that fails leaves the statement prepared, or not, as it is on the server', async () => {
      const bad = { before: `SET LOCAL enable_seqscan = 'maybe'` };
      // the statement's first run on the connection fails in its frame: it was never prepared
      const first = sql`SELECT 41 AS n, ${1}::int AS one`;
      await expect(db.tx(SYSTEM_SCOPE, (tx) => executePrepared(tx, first, bad))).rejects.toThrow(/enable_seqscan/);
      expect(await db.tx(SYSTEM_SCOPE, async (tx) => (await executePrepared(tx, first, around)).rows)).toEqual([{ n: 41, one: 1 }]);
      // prepared now: a failing frame does not undo that
      await expect(db.tx(SYSTEM_SCOPE, (tx) => executePrepared(tx, first, bad))).rejects.toThrow(/enable_seqscan/);
      expect(await db.tx(SYSTEM_SCOPE, async (tx) => (await executePrepared(tx, first, around)).rows)).toEqual([{ n: 41, one: 1 }]);
      expect(await db.tx(SYSTEM_SCOPE, async (tx) => (await executePrepared(tx, first)).rows)).toEqual([{ n: 41, one: 1 }]);
    });
  });
});
