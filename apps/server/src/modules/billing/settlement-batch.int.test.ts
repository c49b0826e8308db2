import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE, type Scope } from '../../db/client.ts';
import { addReadings, billingCompany, insertScheme, makeMeter, type BillingCompany } from './fixtures.ts';
import { post } from './ledger.ts';
import { settleMeters, sweep } from './settlement.ts';

// The batch write of settlement (repo.writeSettlementBatch: journal, balances, settlements, period
// states and cursors in one statement): every reading once, the journal ids of an account in the
// order of its balance, settlement and journal rows naming each other, balance == Σ journal after
// every batch, and a re-run changing nothing.

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 3 });
const scope: Scope = { companyId: c.companyId, allCompanies: false, areaIds: null, userId: null };

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
const rows = async (q: string, p: unknown[] = []) => (await t.owner.query(q, p)).rows;
const settle = (ids: number[]) => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, ids, { skipLocked: false }));
const prepay = (ownerId: number, roomId: number, fen: number) =>
  t.db.tx(scope, (tx) => post(tx, { companyId: c.companyId, ownerId, roomId, wallet: 'electric', kind: 'prepay', amountFen: fen, idempotencyKey: `batch-test:${ownerId}:${fen}` }));

/** The state of the books for these meters, to compare before and after a re-run. */
async function books(meters: number[], owners: number[]) {
  const [s] = await rows(`SELECT count(*)::int AS n, coalesce(sum(amount_fen), 0)::int AS a FROM settlements WHERE meter_id = ANY($1)`, [meters]);
  const [j] = await rows(`SELECT count(*)::int AS n, coalesce(sum(amount_fen), 0)::int AS a FROM journal WHERE owner_id = ANY($1)`, [owners]);
  const acc = await rows(`SELECT a.id, a.balance_fen::int AS balance, (SELECT coalesce(sum(amount_fen), 0) FROM journal x WHERE x.account_id = a.id)::int AS sum
    FROM accounts a WHERE a.owner_id = ANY($1) ORDER BY a.id`, [owners]);
  const cur = await rows(`SELECT meter_id, read_at, total FROM settle_cursors WHERE meter_id = ANY($1) ORDER BY meter_id`, [meters]);
  const per = await rows(`SELECT meter_id, period_key, quantity, exact, charged_fen FROM meter_periods WHERE meter_id = ANY($1)
    UNION ALL SELECT meter_id, period_key, period_quantity, period_exact, period_charged_fen FROM settle_cursors WHERE meter_id = ANY($1) AND period_key <> ''
    ORDER BY meter_id, period_key`, [meters]);
  return { s, j, acc, cur, per };
}

describe('settlement batch write', () => {
  it('two meters on one account, several readings each, one batch: each reading once, ids follow the balance, rows name each other', async () => {
    const [room, owner] = [c.rooms[0], c.owners[0]];
    await prepay(owner, room, 100000);
    const m1 = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, initial: '0' });
    const m2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.tiered, initial: '0' });
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(6), total: '10' }, { at: hoursAgo(5), total: '12.5' }, { at: hoursAgo(4), total: '30' }]);
    await addReadings(t, c.companyId, m2, [{ at: hoursAgo(6), total: '100' }, { at: hoursAgo(3), total: '250' }, { at: hoursAgo(2), total: '420' }]);
    const r = await settle([m2, m1]);
    expect(r).toMatchObject({ meters: 2, readings: 6, deductions: 6 });

    const s = await rows(`SELECT id, meter_id, read_at, amount_fen, journal_id FROM settlements WHERE meter_id = ANY($1) ORDER BY id`, [[m1, m2]]);
    expect(s).toHaveLength(6);
    const j = await rows(`SELECT id, account_id, amount_fen, balance_after_fen, ref_id, ref_type, idempotency_key FROM journal
      WHERE owner_id = $1 AND kind = 'deduction' ORDER BY id`, [owner]);
    expect(j).toHaveLength(6);
    // settlement ↔ journal: each deduction names its settlement, each settlement its deduction
    const byId = new Map(s.map((x) => [Number(x.id), x]));
    for (const x of j) {
      const st = byId.get(Number(x.ref_id))!;
      expect(x.ref_type).toBe('settlement');
      expect(Number(st.journal_id)).toBe(Number(x.id));
      expect(Number(x.amount_fen)).toBe(-Number(st.amount_fen));
      expect(x.idempotency_key).toBe(`settle:${st.meter_id}:${new Date(st.read_at).toISOString().replace('Z', '000Z')}`);
    }
    // in id order, each balance_after is the previous one plus the amount: the ids follow the balance
    const all = await rows(`SELECT id, amount_fen, balance_after_fen FROM journal WHERE account_id = $1 ORDER BY id`, [Number(j[0].account_id)]);
    let balance = 0;
    for (const x of all) {
      balance += Number(x.amount_fen);
      expect(Number(x.balance_after_fen)).toBe(balance);
    }
    const b = await books([m1, m2], [owner]);
    expect(b.acc.every((a) => a.balance === a.sum)).toBe(true);
    expect(b.acc.find((a) => Number(a.id) === Number(j[0].account_id))!.balance).toBe(balance);
    // the cursors stand at the last readings
    expect(b.cur.map((x) => [Number(x.meter_id), x.total])).toEqual([[m1, '30.00'], [m2, '420.00']].sort((x, y) => Number(x[0]) - Number(y[0])));
  });

  it('a re-run (settleMeters, sweep) changes nothing; a new reading is settled once', async () => {
    const [room, owner] = [c.rooms[1], c.owners[1]];
    await prepay(owner, room, 50000);
    const scheme = await insertScheme(t.owner, c.companyId, { unitPrice: '0.5' });
    const meters = await Promise.all([0, 1, 2].map(() => makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: scheme })));
    for (const m of meters) await addReadings(t, c.companyId, m, [{ at: hoursAgo(3), total: '7' }, { at: hoursAgo(2), total: '9.99' }]);
    await settle(meters);
    const before = await books(meters, [owner]);
    expect(before.s).toEqual({ n: 6, a: 3 * 500 });
    expect(before.acc.every((a) => a.balance === a.sum)).toBe(true);
    expect(await settle(meters)).toMatchObject({ readings: 0 });
    await sweep(t.db, { batchSize: 2, concurrency: 2 });
    expect(await books(meters, [owner])).toEqual(before);
    await addReadings(t, c.companyId, meters[0], [{ at: hoursAgo(1), total: '11.99' }]);
    const r = await sweep(t.db, { batchSize: 2, concurrency: 3 });
    expect(r.readings).toBeGreaterThanOrEqual(1);
    const after = await books(meters, [owner]);
    expect(after.s).toEqual({ n: 7, a: 3 * 500 + 100 });
    expect(after.acc.every((a) => a.balance === a.sum)).toBe(true);
  });

  it('a failing write leaves nothing behind: the batch is one statement in one transaction', async () => {
    const [room, owner] = [c.rooms[2], c.owners[2]];
    await prepay(owner, room, 50000);
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat });
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(2), total: '5' }]);
    const before = await books([m], [owner]);
    await expect(
      t.db.tx(SYSTEM_SCOPE, async (tx) => {
        await settleMeters(tx, [m], { skipLocked: false });
        throw new Error('crash after the write');
      }),
    ).rejects.toThrow('crash after the write');
    expect(await books([m], [owner])).toEqual(before);
    expect(await settle([m])).toMatchObject({ readings: 1, deductions: 1, amountFen: 340 });
  });

  it('a reading already in settlements (the cursor lock prevents it) fails the batch, which writes nothing', async () => {
    const [room, owner] = [c.rooms[1], c.owners[1]];
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat });
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(1.5), total: '3' }]);
    const [{ read_at }] = await rows(`SELECT read_at FROM readings WHERE meter_id = $1`, [m]);
    await rows(`INSERT INTO settlements (company_id, meter_id, read_at, prev_total, total, quantity, amount_fen, period_key) VALUES ($1, $2, $3, 0, 3, 3, 0, '2000-01')`, [c.companyId, m, read_at]);
    const before = await books([m], [owner]);
    // the unique (meter_id, read_at) of the partitioned settlements: reported on the month partition's index
    await expect(settle([m])).rejects.toThrow(/unique constraint "settlements_\w*(reading|meter_id_read_at_idx)"/);
    expect(await books([m], [owner])).toEqual(before);
  });

  it('time of use over two batches: each cursor keeps its own meter\'s registers, and the next reading is priced from them', async () => {
    const [room, owner] = [c.rooms[0], c.owners[0]];
    await prepay(owner, room, 30000);
    const [{ id }] = await rows(`INSERT INTO charging_schemes (company_id, name, kind) VALUES ($1, '分时电价（批量）', 1) RETURNING id`, [c.companyId]);
    const tou = { periods: [{ name: '尖', price: '1.2', ranges: ['19:00-21:00'] }, { name: '峰', price: '0.9', ranges: ['08:00-11:00'] }, { name: '平', price: '0.6', ranges: ['11:00-19:00'] }, { name: '谷', price: '0.3', ranges: ['21:00-08:00'] }] };
    await rows(`INSERT INTO charging_scheme_versions (company_id, scheme_id, effective_from, mode, unit_price, tiers, tou) VALUES ($1, $2, '2020-01-01', 'tou', '0', '[]', $3)`, [c.companyId, id, JSON.stringify(tou)]);
    const m1 = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: Number(id), initial: '0' });
    const m2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: Number(id), initial: '40' });
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(3), total: '10', registers: { sharp: 1, peak: 2, flat: 3, valley: 4 } }]);
    await addReadings(t, c.companyId, m2, [{ at: hoursAgo(3), total: '50', registers: { sharp: 10, peak: 10, flat: 15, valley: 15 } }]);
    // first readings: no registers before them, so everything at 平 (10 × 0.6, 10 × 0.6)
    expect(await settle([m1, m2])).toMatchObject({ readings: 2, amountFen: 1200 });
    const cur = await rows(`SELECT meter_id, registers FROM settle_cursors WHERE meter_id = ANY($1) ORDER BY meter_id`, [[m1, m2]]);
    expect(cur.map((x) => x.registers)).toEqual([{ 尖: '1', 峰: '2', 平: '3', 谷: '4' }, { 尖: '10', 峰: '10', 平: '15', 谷: '15' }]);
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(2), total: '20', registers: { sharp: 2, peak: 5, flat: 6, valley: 7 } }]);
    await addReadings(t, c.companyId, m2, [{ at: hoursAgo(2), total: '54', registers: { sharp: 10, peak: 11, flat: 17, valley: 16 } }]);
    expect(await settle([m2, m1])).toMatchObject({ readings: 2 });
    const s = await rows(`SELECT meter_id, amount_fen, lines FROM settlements WHERE meter_id = ANY($1) AND quantity > 0 ORDER BY meter_id, read_at`, [[m1, m2]]);
    // m1: 1 × 1.2 + 3 × 0.9 + 3 × 0.6 + 3 × 0.3 = 6.60; m2: 1 × 0.9 + 2 × 0.6 + 1 × 0.3 = 2.40
    expect(s.map((x) => [Number(x.meter_id), Number(x.amount_fen)])).toEqual([[m1, 600], [m1, 660], [m2, 600], [m2, 240]]);
    expect(s[1].lines.map((l: { item: string; quantity: string }) => [l.item, l.quantity])).toEqual([['尖', '1'], ['峰', '3'], ['平', '3'], ['谷', '3']]);
    expect((await books([m1, m2], [owner])).acc.every((a) => a.balance === a.sum)).toBe(true);
  });
});
