import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, businessDate, startOfBeijingDay, startOfBeijingMonth } from '@meter/contracts';
import { fileApp } from '../../../test/helpers.ts';
import { makeArea, makeRoom } from '../../../test/factories.ts';
import { SYSTEM_SCOPE, type Scope } from '../../db/client.ts';
import { areaAndBelow } from '../../db/crud-repo.ts';
import { addReadings, billingCompany, makeMeter } from '../billing/fixtures.ts';
import { post } from '../billing/ledger.ts';
import { compactJournalDeltas, compactUsageDeltas } from '../billing/repo/rollups.ts';
import { homeFigures } from '../billing/repo/views.ts';
import { settleMeters } from '../billing/settlement.ts';
import { deductFromCompanyRollup, deductFromMeterRollup, deductFromSettlements, type ReportFilter } from './repo.ts';

// Growth (issue 16 item 9, migrations 0061–0062): the 扣费报表 of a whole company reads a row a company,
// day and kind (usage_company_daily + its deltas), with "meters read that day" counted by the settlements'
// trigger when a meter's row of that day gets its first settlement; /home by area, or for a user bound to
// areas, reads a row an area and day (journal_area_daily + its deltas), rooms carrying their sums when
// they move or go. Both equal the raw computation before and after the deltas are moved in, with
// settlements, postings, moves and compactions racing.

const t = await fileApp();
const rows = async (q: string, p: unknown[] = []) => (await t.owner.query(q, p)).rows;
const midnight = startOfBeijingDay(Date.now());
const hold = (ms: number) => sql`SELECT pg_sleep(${ms / 1000})`;
const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

const c = await billingCompany(t, { rooms: 3 });
const c2 = await billingCompany(t, { rooms: 4 });
const floor2 = await makeArea(t.owner, c2.companyId, '2层', c2.parkId, 1);
const unit = await makeArea(t.owner, c2.companyId, 'A单元', floor2, 2);

describe('扣费报表 per company (0061)', () => {
  const scope: Scope = { companyId: c.companyId, allCompanies: false, areaIds: null, userId: null };
  const period: ReportFilter = { companyId: c.companyId, areaRestricted: false, from: addDays(midnight, -3), to: addDays(midnight, 1) };
  const all = async () => ({
    company: await t.db.tx(scope, (tx) => deductFromCompanyRollup(tx, period)),
    meter: await t.db.tx(scope, (tx) => deductFromMeterRollup(tx, period)),
    raw: await t.db.tx(scope, (tx) => deductFromSettlements(tx, period)),
  });
  const expectSame = async () => {
    const d = await all();
    expect(d.raw.length).toBeGreaterThan(0);
    expect(d.company).toEqual(d.raw);
    expect(d.meter).toEqual(d.raw);
    return d.raw;
  };
  const compact = () => t.db.tx(SYSTEM_SCOPE, (tx) => compactUsageDeltas(tx));
  /** a settlement written straight, held `ms` before commit (or rollback) */
  const settleOne = (meterId: number, kind: number, at: Date, fen: number, o: { ms?: number; rollback?: boolean } = {}) =>
    t.db.tx(SYSTEM_SCOPE, async (tx) => {
      await tx.execute(sql`INSERT INTO settlements (company_id, meter_id, read_at, prev_total, total, quantity, amount_fen, period_key, meter_kind, note)
        VALUES (${c.companyId}, ${meterId}, ${at.toISOString()}, 0, 1, 1.25, ${fen}, 'x', ${kind}, ${fen % 2 ? 'vacant' : ''})`);
      if (o.ms) await tx.execute(hold(o.ms));
      if (o.rollback) throw new Error('rolled back');
    });

  it('settlement batches, racing first settlements of a meter and day, deletions and moves equal the raw settlements', async () => {
    const [r1, r2, r3] = c.rooms;
    const e1 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r1, schemeId: c.schemes.flat });
    const e2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r2, schemeId: c.schemes.tiered });
    const w2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r2, kind: 2, schemeId: c.schemes.water });
    const e3 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r3, schemeId: c.schemes.flat });
    const at = (h: number) => new Date(midnight.getTime() - h * 3600_000);
    await addReadings(t, c.companyId, e1, [{ at: at(50), total: '1' }, { at: at(49), total: '2.5' }, { at: at(26), total: '4' }, { at: at(1), total: '9' }]);
    await addReadings(t, c.companyId, e2, [{ at: at(48), total: '10' }, { at: at(25), total: '30' }, { at: at(2), total: '31' }]);
    await addReadings(t, c.companyId, w2, [{ at: at(47), total: '1.5' }, { at: at(3), total: '2' }]);
    await addReadings(t, c.companyId, e3, [{ at: at(30), total: '8' }, { at: at(20), total: '9' }]);
    // two settlement batches at once, and compactions between them
    const settle = (ids: number[]) => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, ids, { skipLocked: false }));
    await Promise.all([settle([e1, w2]), settle([e2, e3]), compact()]);
    await expectSame();
    expect(await compact()).toBeGreaterThan(0);
    await expectSame();

    // a meter's first settlement of a day, written by two transactions at once: the first rolls back, the
    // second (waiting on the usage_daily row) then makes the row and counts the meter; a third adds to it
    const e4 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r3, schemeId: c.schemes.flat });
    const day = addDays(midnight, -2);
    const first = settleOne(e4, 1, new Date(day.getTime() + 1000), 100, { ms: 400, rollback: true });
    await wait(100);
    const second = settleOne(e4, 1, new Date(day.getTime() + 2000), 201, { ms: 100 });
    const third = settleOne(e4, 1, new Date(day.getTime() + 3000), 300);
    await expect(first).rejects.toThrow('rolled back');
    await Promise.all([second, third, compact()]);
    // and for another meter both commit: counted once
    const e5 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r1, schemeId: c.schemes.flat });
    await Promise.all([settleOne(e5, 1, new Date(day.getTime() + 1000), 50, { ms: 300 }),
      wait(50).then(() => settleOne(e5, 1, new Date(day.getTime() + 2000), 60)), wait(80).then(compact)]);
    const raw = await expectSame();
    const dayRow = raw.find((x) => x.day === businessDate(day) && Number(x.meter_kind) === 1)!;
    expect(dayRow.meters).toBeGreaterThanOrEqual(2);

    // rows taken away by the owner (a data migration): a meter's day going back to none is counted out,
    // a settlement moved to another day moves its meter there
    await t.owner.query(`DELETE FROM settlements WHERE meter_id = $1`, [e5]);
    await expectSame();
    await t.owner.query(`UPDATE settlements SET read_at = read_at + interval '1 day' WHERE meter_id = $1 AND read_at = $2`, [e4, new Date(day.getTime() + 3000).toISOString()]);
    await expectSame();
    await t.owner.query(`DELETE FROM settlements WHERE meter_id = $1`, [e4]);
    await expectSame();
    await compact();
    await expectSame();
    const [left] = await rows(`SELECT count(*)::int AS n FROM usage_company_delta WHERE company_id = $1`, [c.companyId]);
    expect(left.n).toBe(0);

    // the report through HTTP (whole China days, the whole company: answered from the company rows)
    const q = `startTime=${raw[0].day}&endTime=${raw[raw.length - 1].day}`;
    const http = await t.call(c.token, { method: 'GET', url: `/yewu/api/Report/Deduct?${q}` });
    expect(http.status).toBe(200);
    const body = http.body as { data: { rows: { day: string; readings: number; meters: number; quantity: string }[] } };
    const now = (await all()).raw;
    expect(body.data.rows.map((x) => [x.day, x.readings, x.meters, x.quantity])).toEqual(now.map((x) => [x.day, x.n, x.meters, x.quantity]));
  });
});

describe('/home by area (0062)', () => {
  const c = c2;
  const [, r2, r3, r4] = c.rooms;
  const scope: Scope = { companyId: c.companyId, allCompanies: false, areaIds: null, userId: null };
  const bound: Scope = { ...scope, areaIds: [floor2, unit] };
  let k = 0;
  const pay = (i: number, fen: number, payMethod = 'cash', kind: 'prepay' | 'fee' = 'prepay', roomId = c.rooms[i]) => t.db.tx(scope, (tx) => post(tx, {
    companyId: c.companyId, ownerId: c.owners[i], roomId, wallet: 'electric', kind, amountFen: fen, idempotencyKey: `area:${k++}`, payMethod,
  }));
  const compact = () => t.db.tx(SYSTEM_SCOPE, (tx) => compactJournalDeltas(tx));

  /** /home's money as the journal rows of the rooms (now) in the areas give it: the query before 0062 */
  async function raw(s: Scope, searchArea?: number) {
    const day0 = midnight.toISOString();
    const month0 = startOfBeijingMonth(Date.now()).toISOString();
    const rooms = searchArea != null ? sql`SELECT ra.id FROM rooms ra WHERE ra.area_id IN ${areaAndBelow(searchArea)}` : sql`SELECT ra.id FROM rooms ra`;
    const cat = sql`CASE WHEN j.kind = 'prepay' AND j.pay_method NOT IN ('cash', 'wechat', 'alipay', 'bank') THEN 'system' ELSE j.kind END`;
    return t.db.tx(s, async (tx) => {
      const money = await tx.execute(sql`SELECT ${cat} AS kind, coalesce(sum(j.amount_fen) FILTER (WHERE j.created_at >= ${day0}::timestamptz), 0)::bigint AS today,
          coalesce(sum(j.amount_fen), 0)::bigint AS month, count(*) FILTER (WHERE j.created_at >= ${day0}::timestamptz)::bigint AS today_n
        FROM journal j WHERE j.created_at >= ${month0}::timestamptz AND j.company_id = ${c.companyId} AND j.room_id IN (${rooms}) GROUP BY 1`);
      const trend = await tx.execute(sql`SELECT to_char(j.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day,
          coalesce(sum(j.amount_fen) FILTER (WHERE j.kind = 'prepay' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')), 0)::bigint AS prepay,
          coalesce(-sum(j.amount_fen) FILTER (WHERE j.kind IN ('deduction', 'fee')), 0)::bigint AS deduction
        FROM journal j WHERE j.created_at >= ${day0}::timestamptz - interval '6 days' AND j.company_id = ${c.companyId} AND j.room_id IN (${rooms}) GROUP BY 1 ORDER BY 1`);
      return {
        money: money.rows.map((x) => ({ kind: String(x.kind), todayFen: Number(x.today), todayCount: Number(x.today_n), monthFen: Number(x.month) }))
          .sort((a, b) => a.kind.localeCompare(b.kind)),
        trend: trend.rows.map((x) => ({ day: String(x.day), prepayFen: Number(x.prepay), deductionFen: Number(x.deduction) })),
      };
    });
  }
  async function rollup(s: Scope, searchArea?: number) {
    const f = await t.db.tx(s, (tx) => homeFigures(tx, { companyId: c.companyId, areaRestricted: s.areaIds != null, searchArea }));
    return { money: [...f.money].sort((a, b) => a.kind.localeCompare(b.kind)), trend: f.trend };
  }
  /** every area searched, and the user bound to 2层 and its unit: rollup = raw */
  async function expectSame() {
    for (const area of [c.parkId, c.floorId, floor2, unit]) expect(await rollup(scope, area)).toEqual(await raw(scope, area));
    expect(await rollup(bound)).toEqual(await raw(bound));
    expect(await rollup(bound, c.parkId)).toEqual(await raw(bound, c.parkId));
  }
  const move = (roomId: number, areaId: number, ms = 0) => t.db.tx(scope, async (tx) => {
    await tx.execute(sql`UPDATE rooms SET area_id = ${areaId} WHERE id = ${roomId}`);
    if (ms) await tx.execute(hold(ms));
  });

  it('postings, room moves and deletions, and compactions at once give the journal rows of the rooms in the areas', async () => {
    await move(r3, floor2);
    await move(r4, unit);
    await Promise.all([pay(0, 1000), pay(1, 2000, 'wechat'), pay(2, 300, 'system'), pay(3, 400), pay(3, 50, 'cash', 'fee')]);
    await expectSame();
    expect((await raw(scope, unit)).money.length).toBeGreaterThan(0);
    expect(await compact()).toBeGreaterThan(0);
    await expectSame();

    // a room moves while postings to it run (some before the move, some held across it) and compactions run
    const posts = Array.from({ length: 12 }, (_, i) => pay(1 + (i % 3), 100 + i, i % 2 ? 'cash' : 'alipay'));
    const heldPosting = t.db.tx(scope, async (tx) => {
      await post(tx, { companyId: c.companyId, ownerId: c.owners[1], roomId: r2, wallet: 'electric', kind: 'prepay', amountFen: 777, idempotencyKey: 'area:held', payMethod: 'cash' });
      await tx.execute(hold(300));
    });
    await wait(50);
    await Promise.all([...posts, heldPosting, move(r2, unit, 200), compact(), wait(100).then(() => pay(1, 5, 'cash')), wait(120).then(compact)]);
    await expectSame();
    // and back, twice over, then to the other floor
    await Promise.all([move(r2, c.floorId), pay(1, 6)]);
    await Promise.all([move(r3, c.floorId), move(r4, floor2), pay(2, 7), pay(3, 8), compact()]);
    await expectSame();

    // a room deleted (no owner, no meters) takes its journal rows out of every area, as they left the rooms /home picked
    const spare = await makeRoom(t.owner, c.companyId, unit, '备用');
    await pay(0, 900, 'cash', 'prepay', spare);
    await expectSame();
    expect((await rollup(scope, unit)).money.find((m) => m.kind === 'prepay')!.monthFen).toBeGreaterThanOrEqual(900);
    await t.db.tx(scope, (tx) => tx.execute(sql`DELETE FROM rooms WHERE id = ${spare}`));
    await expectSame();
    await compact();
    await expectSame();
    const [left] = await rows(`SELECT count(*)::int AS n FROM journal_area_delta WHERE company_id = $1`, [c.companyId]);
    expect(left.n).toBe(0);
    // balance = Σ journal
    const [bad] = await rows(`SELECT count(*)::int AS n FROM accounts a WHERE a.company_id = $1
      AND a.balance_fen <> (SELECT coalesce(sum(j.amount_fen), 0) FROM journal j WHERE j.account_id = a.id)`, [c.companyId]);
    expect(bad.n).toBe(0);
  });
});
