import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE, type Scope } from '../../db/client.ts';
import { addReadings, balances, billingCompany, insertScheme, makeMeter, makeOwner, type BillingCompany } from './fixtures.ts';
import { post } from './ledger.ts';
import { settleMeters, sweep } from './settlement.ts';
import { monthRange, monthKey, previousMonth } from './period.ts';

// Settlement against a real PostgreSQL: each good reading priced and deducted exactly once.

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 6 });
const scope: Scope = { companyId: c.companyId, allCompanies: false, areaIds: null, userId: null };

const prepay = (ownerId: number, roomId: number, fen: number, wallet: 'electric' | 'water' = 'electric') =>
  t.db.tx(scope, (tx) => post(tx, { companyId: c.companyId, ownerId, roomId, wallet, kind: 'prepay', amountFen: fen, idempotencyKey: `test:${Math.random()}` }));
/** A tiered electric meter from 0 in the third room, whose owner prepaid ¥1000; and this month's key. */
async function tieredMeter() {
  const [room, owner] = [c.rooms[2], c.owners[2]];
  await prepay(owner, room, 100000);
  const meter = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.tiered, initial: '0' });
  return { room, owner, meter, thisMonth: monthKey(new Date()) };
}
const settle = (ids: number[], skipLocked = true) => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, ids, { skipLocked }));
const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
const rows = async (q: string, p: unknown[]) => (await t.owner.query(q, p)).rows;

describe('settlement', () => {
  it('prices each new reading once and deducts it from the owner\'s wallet', async () => {
    const [room, owner] = [c.rooms[0], c.owners[0]];
    await prepay(owner, room, 10000);
    const meter = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, initial: '100' });
    await addReadings(t, c.companyId, meter, [{ at: hoursAgo(3), total: '110' }, { at: hoursAgo(2), total: '125.5' }]);
    const r = await settle([meter]);
    expect(r).toMatchObject({ readings: 2, deductions: 2, amountFen: 680 + 1054 });
    const s = await rows(`SELECT quantity, amount_fen, journal_id, note, prev_total, total FROM settlements WHERE meter_id = $1 ORDER BY read_at`, [meter]);
    expect(s.map((x) => [x.quantity, Number(x.amount_fen), x.note])).toEqual([['10.0000', 680, ''], ['15.5000', 1054, '']]);
    expect(s[0].prev_total).toBe('100.00');
    const j = await rows(`SELECT kind, amount_fen, idempotency_key FROM journal WHERE id = ANY($1) ORDER BY id`, [s.map((x) => x.journal_id)]);
    expect(j.map((x) => [x.kind, Number(x.amount_fen)])).toEqual([['deduction', -680], ['deduction', -1054]]);
    expect(j[0].idempotency_key).toMatch(new RegExp(`^settle:${meter}:`));
    const b = await balances(t.owner, owner);
    expect(b.electric).toMatchObject({ balance: 10000 - 1734, sum: 10000 - 1734 });
    // settling again finds nothing new
    expect(await settle([meter])).toMatchObject({ readings: 0 });
    // a later reading continues from the cursor
    await addReadings(t, c.companyId, meter, [{ at: hoursAgo(1), total: '126.5' }]);
    expect(await settle([meter])).toMatchObject({ readings: 1, amountFen: 68 });
  });

  it('a reading that consumed nothing writes no settlement row (no 0.0000 rows on /copyread)', async () => {
    const [room, owner] = [c.rooms[2], c.owners[2]];
    await prepay(owner, room, 10000);
    const meter = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, initial: '50' });
    await addReadings(t, c.companyId, meter, [
      { at: hoursAgo(6), total: '50' }, { at: hoursAgo(5), total: '50' }, { at: hoursAgo(4), total: '52' }, { at: hoursAgo(3), total: '52' },
    ]);
    // all four readings are settled (the cursor moves past them), only the one that consumed is a row
    expect(await settle([meter])).toMatchObject({ readings: 4, deductions: 1, amountFen: 136 });
    const s = await rows(`SELECT prev_total, total, quantity FROM settlements WHERE meter_id = $1 ORDER BY read_at`, [meter]);
    expect(s).toEqual([{ prev_total: '50.00', total: '52.00', quantity: '2.0000' }]);
    expect(await settle([meter])).toMatchObject({ readings: 0 });
    // the next reading that consumes counts from the register the zero reading left
    await addReadings(t, c.companyId, meter, [{ at: hoursAgo(2), total: '53' }]);
    expect(await settle([meter])).toMatchObject({ readings: 1, amountFen: 68 });
    expect((await rows(`SELECT count(*)::int AS n FROM settlements WHERE meter_id = $1`, [meter]))[0].n).toBe(2);
  });

  it('the same reading settled twice concurrently gives one deduction', async () => {
    const [room, owner] = [c.rooms[1], c.owners[1]];
    await prepay(owner, room, 50000);
    const meters = await Promise.all([1, 2, 3].map(() => makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat })));
    for (const m of meters) await addReadings(t, c.companyId, m, [{ at: hoursAgo(5), total: '10' }, { at: hoursAgo(4), total: '20' }]);
    // eight settlements of the same meters at once: waiting ones and skipping ones
    const results = await Promise.all([...Array(8)].map((_, i) => settle(meters, i % 2 === 0)));
    expect(results.reduce((n, r) => n + r.readings, 0)).toBe(6);
    expect(results.reduce((n, r) => n + r.deductions, 0)).toBe(6);
    const j = await rows(`SELECT count(*)::int AS n, sum(amount_fen)::int AS s FROM journal WHERE owner_id = $1 AND kind = 'deduction'`, [owner]);
    expect(j[0]).toEqual({ n: 6, s: -3 * (680 + 680) });
    const st = await rows(`SELECT count(*)::int AS n FROM settlements WHERE meter_id = ANY($1)`, [meters]);
    expect(st[0].n).toBe(6);
    const b = await balances(t.owner, owner);
    expect(b.electric.balance).toBe(b.electric.sum);
  });

  it('tiers accumulate per month; consumption crossing the month boundary is split by time', async () => {
    const { owner, meter, thisMonth } = await tieredMeter();
    const start = monthRange(thisMonth).start;
    const prevStart = monthRange(previousMonth(thisMonth)).start;
    // 150 kWh on the 2nd of last month; then 300 kWh over 30 days ending 10 days into this month
    const a = new Date(prevStart.getTime() + 86400_000);
    const b = new Date(start.getTime() + 10 * 86400_000);
    await addReadings(t, c.companyId, meter, [{ at: a, total: '150' }, { at: b, total: '450' }]);
    await settle([meter]);
    // the periods moved on from are in meter_periods, the current one on the cursor
    const periods = await rows(`SELECT period_key, quantity, charged_fen FROM meter_periods WHERE meter_id = $1
      UNION ALL SELECT period_key, period_quantity, period_charged_fen FROM settle_cursors WHERE meter_id = $1 AND period_key <> ''
      ORDER BY period_key`, [meter]);
    const span = b.getTime() - a.getTime();
    const before = (300 * (start.getTime() - a.getTime())) / span; // share of the 300 in last month
    expect(periods.map((p) => p.period_key)).toEqual([previousMonth(thisMonth), thisMonth]);
    expect(Number(periods[0].quantity)).toBeCloseTo(150 + before, 3);
    expect(Number(periods[1].quantity)).toBeCloseTo(300 - before, 3);
    // this month starts again at the first tier
    const s = await rows(`SELECT lines FROM settlements WHERE meter_id = $1 ORDER BY read_at DESC LIMIT 1`, [meter]);
    const lines = s[0].lines as { period: string; item: string }[];
    expect(lines.filter((l) => l.period === thisMonth).map((l) => l.item)).toEqual(['第1阶梯', ...(300 - before > 200 ? ['第2阶梯'] : [])]);
    const b2 = await balances(t.owner, owner);
    expect(b2.electric.balance).toBe(b2.electric.sum);
  });

  it('a period\'s tiers carry over between batches on the cursor; a new month keeps the old one in meter_periods', async () => {
    const { owner, meter, thisMonth } = await tieredMeter();
    const lastMonth = previousMonth(thisMonth);
    const at = (base: Date, h: number) => new Date(base.getTime() + h * 3600_000);
    const [prevStart, start] = [monthRange(lastMonth).start, monthRange(thisMonth).start];
    const state = async () => ({
      cursor: (await rows(`SELECT period_key, period_quantity::text AS q FROM settle_cursors WHERE meter_id = $1`, [meter]))[0],
      kept: await rows(`SELECT period_key, quantity::text AS q FROM meter_periods WHERE meter_id = $1 ORDER BY period_key`, [meter]),
    });
    await addReadings(t, c.companyId, meter, [{ at: at(prevStart, 1), total: '150' }]);
    await settle([meter]);
    expect(await state()).toEqual({ cursor: { period_key: lastMonth, q: '150.0000' }, kept: [] });
    // the next batch continues the month from the state on the cursor: 50 more at tier 1, then tier 2
    await addReadings(t, c.companyId, meter, [{ at: at(prevStart, 2), total: '300' }]);
    await settle([meter]);
    const [s2] = await rows(`SELECT lines FROM settlements WHERE meter_id = $1 ORDER BY read_at DESC LIMIT 1`, [meter]);
    expect((s2.lines as { item: string; quantity: string }[]).map((l) => [l.item, l.quantity])).toEqual([['第1阶梯', '50'], ['第2阶梯', '100']]);
    expect(await state()).toEqual({ cursor: { period_key: lastMonth, q: '300.0000' }, kept: [] });
    // into this month: last month's state is kept in meter_periods, this month's is on the cursor
    await addReadings(t, c.companyId, meter, [{ at: at(start, 1), total: '310' }]);
    await settle([meter]);
    const p = await state();
    expect(p.cursor.period_key).toBe(thisMonth);
    expect(p.kept.map((x) => x.period_key)).toEqual([lastMonth]);
    expect(Number(p.kept[0].q)).toBeGreaterThan(300);
    expect(Number(p.kept[0].q) + Number(p.cursor.q)).toBeCloseTo(310, 3);
    const b = await balances(t.owner, owner);
    expect(b.electric.balance).toBe(b.electric.sum);
  });

  it('multiplies consumption by the meter\'s multiplier; water goes to the water wallet', async () => {
    const [room, owner] = [c.rooms[3], c.owners[3]];
    const e = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, multiplier: '30' });
    const w = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, kind: 2, schemeId: c.schemes.water });
    await addReadings(t, c.companyId, e, [{ at: hoursAgo(2), total: '1.5' }]);
    await addReadings(t, c.companyId, w, [{ at: hoursAgo(2), total: '2.25' }]);
    await settle([e, w]);
    const s = await rows(`SELECT meter_id, quantity, amount_fen FROM settlements WHERE meter_id = ANY($1) ORDER BY meter_id`, [[e, w]]);
    expect(s.map((x) => [x.quantity, Number(x.amount_fen)])).toEqual([['45.0000', 3060], ['2.2500', 945]]);
    const b = await balances(t.owner, owner);
    expect(b.electric.balance).toBe(-3060);
    expect(b.water.balance).toBe(-945);
  });

  it('a vacant room\'s consumption is recorded, not charged; a meter without a scheme waits', async () => {
    const vacant = (await rows(`INSERT INTO rooms (company_id, area_id, name) VALUES ($1, $2, '空置间') RETURNING id`, [c.companyId, c.floorId]))[0].id;
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: Number(vacant), schemeId: c.schemes.flat });
    const none = await makeMeter(t.owner, { companyId: c.companyId, roomId: c.rooms[4], schemeId: null });
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(2), total: '5' }]);
    await addReadings(t, c.companyId, none, [{ at: hoursAgo(2), total: '5' }]);
    await settle([m, none]);
    const s = await rows(`SELECT meter_id, note, journal_id, amount_fen FROM settlements WHERE meter_id = ANY($1)`, [[m, none]]);
    expect(s).toEqual([{ meter_id: m, note: 'vacant', journal_id: null, amount_fen: 340 }]);
    // once it has a scheme, the waiting meter is charged from its initial reading
    await t.owner.query(`UPDATE meters SET charging_scheme_id = $2 WHERE id = $1`, [none, c.schemes.flat]);
    expect(await settle([none])).toMatchObject({ readings: 1, amountFen: 340 });
  });

  it('a good reading lower than the last (a replaced meter) charges nothing; later readings count from it', async () => {
    const [room] = [c.rooms[4]];
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, initial: '100' });
    // the ingest flags a faulty backwards reading itself; a good lower reading is a 换表 entered by a person
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(3), total: '110' }]);
    await t.owner.query(`INSERT INTO readings (company_id, meter_id, read_at, source, total) VALUES ($1, $2, $3, 3, 0.5)`, [c.companyId, m, hoursAgo(2)]);
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(1), total: '2.5' }]);
    await settle([m]);
    const s = await rows(`SELECT quantity, amount_fen, note FROM settlements WHERE meter_id = $1 ORDER BY read_at`, [m]);
    expect(s.map((x) => [x.quantity, Number(x.amount_fen), x.note])).toEqual([['10.0000', 680, ''], ['0.0000', 0, 'backwards'], ['2.0000', 136, '']]);
  });

  it('公摊: a shared meter\'s charge is apportioned over the occupied rooms by floor area', async () => {
    const area = (await rows(`INSERT INTO areas (company_id, parent_id, name, deep) VALUES ($1, $2, '公摊楼层', 2) RETURNING id`, [c.companyId, c.parkId]))[0].id;
    const r1 = (await rows(`INSERT INTO rooms (company_id, area_id, name, size_m2) VALUES ($1, $2, 'S1', '60') RETURNING id`, [c.companyId, area]))[0].id;
    const r2 = (await rows(`INSERT INTO rooms (company_id, area_id, name, size_m2) VALUES ($1, $2, 'S2', '40') RETURNING id`, [c.companyId, area]))[0].id;
    await rows(`INSERT INTO rooms (company_id, area_id, name, size_m2) VALUES ($1, $2, 'S3 空置', '100') RETURNING id`, [c.companyId, area]);
    const o1 = await makeOwner(t.owner, c.companyId, Number(r1));
    const o2 = await makeOwner(t.owner, c.companyId, Number(r2));
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: null, areaId: Number(area), schemeId: c.schemes.flat, name: '走廊照明' });
    await t.owner.query(`INSERT INTO shared_meters (meter_id, company_id, area_id, method) VALUES ($1, $2, $3, 1)`, [m, c.companyId, area]);
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(2), total: '100.01' }]);
    await settle([m]);
    const s = await rows(`SELECT amount_fen, note, owner_id FROM settlements WHERE meter_id = $1`, [m]);
    expect(s).toEqual([{ amount_fen: 6801, note: 'shared', owner_id: null }]);
    const j = await rows(`SELECT owner_id, amount_fen FROM journal WHERE idempotency_key LIKE $1 ORDER BY owner_id`, [`share:${m}:%`]);
    expect(j.map((x) => [Number(x.owner_id), Number(x.amount_fen)])).toEqual([[o1, -4081], [o2, -2720]]);
  });

  it('the sweep finds and settles every pending meter', async () => {
    const company = await billingCompany(t, { rooms: 2 });
    const scheme = await insertScheme(t.owner, company.companyId, { unitPrice: '1' });
    const meters = await Promise.all([0, 1, 0, 1].map((i) => makeMeter(t.owner, { companyId: company.companyId, roomId: company.rooms[i], schemeId: scheme })));
    for (const m of meters) await addReadings(t, company.companyId, m, [{ at: hoursAgo(2), total: '1' }, { at: hoursAgo(1), total: '3' }]);
    const r = await sweep(t.db, { batchSize: 2, concurrency: 2 });
    expect(r.readings).toBeGreaterThanOrEqual(8);
    const s = await rows(`SELECT count(*)::int AS n, sum(amount_fen)::int AS a FROM settlements WHERE meter_id = ANY($1)`, [meters]);
    expect(s[0]).toEqual({ n: 8, a: 4 * 300 });
    expect((await sweep(t.db)).readings).toBe(0);
  });
});
