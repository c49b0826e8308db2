import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OWNER_URL, testApp, type TestApp } from '../../../test/helpers.ts';
import { appUrlFrom } from '../../db/client.ts';
import { billingCompany, type BillingCompany } from './fixtures.ts';

// kill -9 in the middle of a settlement run, then a restart: nothing lost, nothing doubled. The
// settlement runs in a child process (the real code, holding each batch's transaction open a moment
// so the kill lands inside one); the parent kills it with SIGKILL and checks the books.

const METERS = 120;
const READINGS = 30;
const PRICE_FEN = 68; // 1 kWh per reading at 0.6800

let t: TestApp;
let c: BillingCompany;
let meterIds: number[];

const child = (slow: boolean): { proc: ChildProcess; output: string[]; exited: Promise<number | null> } => {
  const script = fileURLToPath(new URL('./testing/settle-child.ts', import.meta.url));
  const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
  const proc = fork(script, [appUrlFrom(OWNER_URL(), 'meter_app_test'), String(c.companyId)], {
    execArgv: ['--import', tsx],
    env: { ...process.env, SLOW: slow ? '1' : '0' },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const output: string[] = [];
  proc.stdout!.on('data', (b: Buffer) => output.push(...b.toString().trim().split('\n')));
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  return { proc, output, exited };
};

const q = async (text: string, p: unknown[] = []) => (await t.owner.query(text, p)).rows;

/** The books of the company: every invariant that must hold at any moment. */
async function checkBooks() {
  const [bal] = await q(`SELECT count(*)::int AS bad FROM accounts a WHERE a.company_id = $1
    AND a.balance_fen <> (SELECT coalesce(sum(j.amount_fen), 0) FROM journal j WHERE j.account_id = a.id)`, [c.companyId]);
  expect(bal.bad).toBe(0);
  // every deduction belongs to exactly one settlement and the other way round
  const [orphans] = await q(`SELECT
      (SELECT count(*) FROM journal j WHERE j.company_id = $1 AND j.kind = 'deduction'
        AND NOT EXISTS (SELECT 1 FROM settlements s WHERE s.journal_id = j.id))::int AS journal_without,
      (SELECT count(*) FROM settlements s WHERE s.company_id = $1 AND s.amount_fen > 0 AND s.journal_id IS NULL)::int AS settlement_without,
      (SELECT count(*) FROM (SELECT ref_id FROM journal WHERE company_id = $1 AND kind = 'deduction' GROUP BY ref_id HAVING count(*) > 1) d)::int AS doubled`, [c.companyId]);
  expect(orphans).toEqual({ journal_without: 0, settlement_without: 0, doubled: 0 });
  // each cursor stands at its meter's last settlement
  const [cur] = await q(`SELECT count(*)::int AS bad FROM settle_cursors sc WHERE sc.company_id = $1 AND sc.read_at <> '-infinity'
    AND sc.read_at <> (SELECT max(s.read_at) FROM settlements s WHERE s.meter_id = sc.meter_id)`, [c.companyId]);
  expect(cur.bad).toBe(0);
}

beforeAll(async () => {
  t = await testApp();
  c = await billingCompany(t, { rooms: 6 });
  // 120 meters over 6 rooms, 30 hourly readings each (+1 kWh per reading)
  const { rows } = await t.owner.query(
    `INSERT INTO meters (company_id, room_id, name, kind, plan, address, charging_scheme_id, initial_reading)
     SELECT $1, ($2::bigint[])[1 + (g % 6)], '崩溃测试表' || g, 1, 0, '95' || lpad((extract(epoch FROM now())::bigint % 100000)::text, 5, '0') || lpad(g::text, 5, '0'), $3, 0
     FROM generate_series(1, ${METERS}) g RETURNING id`,
    [c.companyId, c.rooms, c.schemes.flat],
  );
  meterIds = rows.map((r) => Number(r.id));
  await t.owner.query(
    `INSERT INTO readings (company_id, meter_id, read_at, source, total)
     SELECT $1, m, date_trunc('hour', now()) - (${READINGS} - i) * interval '1 hour', 1, i FROM unnest($2::bigint[]) m, generate_series(1, ${READINGS}) i`,
    [c.companyId, meterIds],
  );
  await t.owner.query(
    `INSERT INTO meter_latest (meter_id, company_id, read_at, total, source)
     SELECT m, $1, date_trunc('hour', now()), ${READINGS}, 1 FROM unnest($2::bigint[]) m`,
    [c.companyId, meterIds],
  );
}, 120_000);
afterAll(() => t.close());

describe('settlement survives kill -9', () => {
  it('killed mid-run and restarted: every reading settled once, the books balance at every step', async () => {
    const first = child(true);
    // let it get well into the run (its start alone may take a minute on a busy machine), then kill it without warning
    for (;;) {
      const [{ n }] = await q(`SELECT count(*)::int AS n FROM settlements WHERE company_id = $1`, [c.companyId]);
      if (n >= (METERS * READINGS) / 4 || first.proc.exitCode !== null) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    first.proc.kill('SIGKILL');
    await first.exited;
    expect(first.output.some((l) => l.startsWith('done'))).toBe(false);
    // the transaction it was in rolled back with the connection
    await new Promise((r) => setTimeout(r, 300));
    const [{ n: partial }] = await q(`SELECT count(*)::int AS n FROM settlements WHERE company_id = $1`, [c.companyId]);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(METERS * READINGS);
    await checkBooks();

    // restart: it resumes from the cursors
    const second = child(false);
    expect(await second.exited).toBe(0);
    expect(second.output.at(-1)).toBe(`done ${METERS * READINGS - partial}`);
    await checkBooks();
    const [s] = await q(`SELECT count(*)::int AS n, sum(amount_fen)::int AS a FROM settlements WHERE company_id = $1`, [c.companyId]);
    expect(s).toEqual({ n: METERS * READINGS, a: METERS * READINGS * PRICE_FEN });
    const [j] = await q(`SELECT count(*)::int AS n, sum(amount_fen)::int AS a FROM journal WHERE company_id = $1 AND kind = 'deduction'`, [c.companyId]);
    expect(j).toEqual({ n: METERS * READINGS, a: -METERS * READINGS * PRICE_FEN });
    const [bal] = await q(`SELECT sum(balance_fen)::int AS b FROM accounts WHERE company_id = $1 AND wallet = 'electric'`, [c.companyId]);
    expect(bal.b).toBe(-METERS * READINGS * PRICE_FEN);
  }, 360_000); // two child processes start under tsx and settle the run: over a minute at load 10–15, 110 s at load 15
});
