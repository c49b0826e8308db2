import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { addDays, businessDate, startOfBeijingDay, startOfBeijingMonth } from '@meter/contracts';
import { fileApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE, type Scope } from '../../db/client.ts';
import { addReadings, billingCompany, makeMeter, type BillingCompany } from '../billing/fixtures.ts';
import { post } from '../billing/ledger.ts';
import { compactJournalDeltas } from '../billing/repo/rollups.ts';
import { homeFigures } from '../billing/repo/views.ts';
import { settleMeters } from '../billing/settlement.ts';
import { ensurePartitions } from '../control/repo/housekeeping.ts';
import { deductFromRollup, deductFromSettlements, type ReportFilter } from './repo.ts';

// Growth (issue 16 item 9, migrations 0054–0055): the 扣费报表 and /home read rollups kept by the
// settlements' and the journal's statement triggers. Here the rollup answers equal the raw
// computation over the same rows — with settlements and postings on both sides of a China midnight —
// and stay equal after a re-run, a rolled-back batch and a refused duplicate posting; the journal and
// settlements are partitioned by China month and keep their keys (a posting once, a reading settled once).
// /home's per-company rows (0058) equal them before and after the deltas are moved in.

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 3 });
const scope: Scope = { companyId: c.companyId, allCompanies: false, areaIds: null, userId: null };
const rows = async (q: string, p: unknown[] = []) => (await t.owner.query(q, p)).rows;
const settle = (ids: number[]) => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, ids, { skipLocked: false }));

// today's China midnight, and the moments just before and at it
const midnight = startOfBeijingDay(Date.now());
const justBefore = new Date(midnight.getTime() - 1000);
const period: ReportFilter = { companyId: c.companyId, areaRestricted: false, from: addDays(midnight, -2), to: addDays(midnight, 1) };

/** /home's money as the journal rows themselves give it (the query before the rollup) */
async function homeRaw() {
  const day0 = midnight.toISOString();
  const month0 = startOfBeijingMonth(Date.now()).toISOString();
  const cat = `CASE WHEN j.kind = 'prepay' AND j.pay_method NOT IN ('cash', 'wechat', 'alipay', 'bank') THEN 'system' ELSE j.kind END`;
  const money = await rows(`SELECT ${cat} AS kind, coalesce(sum(j.amount_fen) FILTER (WHERE j.created_at >= $2), 0)::bigint AS today,
      coalesce(sum(j.amount_fen), 0)::bigint AS month, count(*) FILTER (WHERE j.created_at >= $2)::bigint AS today_n
    FROM journal j WHERE j.created_at >= $3 AND j.company_id = $1 GROUP BY 1`, [c.companyId, day0, month0]);
  const trend = await rows(`SELECT to_char(j.created_at AT TIME ZONE 'Asia/Shanghai', 'YYYY-MM-DD') AS day,
      coalesce(sum(j.amount_fen) FILTER (WHERE j.kind = 'prepay' AND j.pay_method IN ('cash', 'wechat', 'alipay', 'bank')), 0)::bigint AS prepay,
      coalesce(-sum(j.amount_fen) FILTER (WHERE j.kind IN ('deduction', 'fee')), 0)::bigint AS deduction
    FROM journal j WHERE j.created_at >= $2::timestamptz - interval '6 days' AND j.company_id = $1 GROUP BY 1 ORDER BY 1`, [c.companyId, day0]);
  return {
    money: money.map((x) => ({ kind: String(x.kind), todayFen: Number(x.today), todayCount: Number(x.today_n), monthFen: Number(x.month) }))
      .sort((a, b) => a.kind.localeCompare(b.kind)),
    trend: trend.map((x) => ({ day: String(x.day), prepayFen: Number(x.prepay), deductionFen: Number(x.deduction) })),
  };
}

async function homeRollup(areaRestricted = false) {
  const f = await t.db.tx(scope, (tx) => homeFigures(tx, { companyId: c.companyId, areaRestricted }));
  return { money: [...f.money].sort((a, b) => a.kind.localeCompare(b.kind)), trend: f.trend };
}
const compact = () => t.db.tx(SYSTEM_SCOPE, (tx) => compactJournalDeltas(tx));

const deductBoth = async () => ({
  rollup: await t.db.tx(scope, (tx) => deductFromRollup(tx, period)),
  raw: await t.db.tx(scope, (tx) => deductFromSettlements(tx, period)),
});

async function invariants() {
  const [bad] = await rows(`SELECT count(*)::int AS n FROM accounts a WHERE a.company_id = $1
    AND a.balance_fen <> (SELECT coalesce(sum(j.amount_fen), 0) FROM journal j WHERE j.account_id = a.id)`, [c.companyId]);
  const [twice] = await rows(`SELECT count(*)::int AS n FROM (SELECT 1 FROM settlements WHERE company_id = $1 GROUP BY meter_id, read_at HAVING count(*) > 1) x`, [c.companyId]);
  return { unbalanced: bad.n, settledTwice: twice.n };
}

describe('rollups equal the raw computation', () => {
  it('settlements and postings on both sides of a China midnight', async () => {
    const [r1, r2, r3] = c.rooms;
    const [o1, o2] = c.owners;
    await t.db.tx(scope, (tx) => post(tx, { companyId: c.companyId, ownerId: o1, roomId: r1, wallet: 'electric', kind: 'prepay', amountFen: 50000, idempotencyKey: 'rollup:p1', payMethod: 'cash' }));
    await t.db.tx(scope, (tx) => post(tx, { companyId: c.companyId, ownerId: o2, roomId: r2, wallet: 'water', kind: 'prepay', amountFen: 20000, idempotencyKey: 'rollup:p2', payMethod: 'system' }));
    const e1 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r1, schemeId: c.schemes.flat });
    const e2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r1, schemeId: c.schemes.tiered, multiplier: '2' });
    const w2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r2, kind: 2, schemeId: c.schemes.water });
    // the third room's owner moves out: its meter's usage is settled vacant (not charged)
    await t.owner.query(`UPDATE owners SET status = 0, room_id = NULL WHERE room_id = $1`, [r3]);
    const e3 = await makeMeter(t.owner, { companyId: c.companyId, roomId: r3, schemeId: c.schemes.flat });
    const at = (msBefore: number) => new Date(midnight.getTime() - msBefore);
    await addReadings(t, c.companyId, e1, [{ at: at(26 * 3600_000), total: '3.5' }, { at: at(3 * 3600_000), total: '10.25' }, { at: justBefore, total: '12' }, { at: midnight, total: '12.75' }]);
    await addReadings(t, c.companyId, e2, [{ at: at(3600_000), total: '100' }, { at: justBefore, total: '150.5' }, { at: midnight, total: '151' }]);
    await addReadings(t, c.companyId, w2, [{ at: at(30 * 3600_000), total: '1.125' }, { at: midnight, total: '3.5' }]);
    await addReadings(t, c.companyId, e3, [{ at: justBefore, total: '8' }, { at: midnight, total: '9' }]);
    const r = await settle([e1, e2, w2, e3]);
    expect(r.readings).toBe(11);
    // a posting at each side of midnight (the owner connection writes created_at, as a late batch would)
    for (const [key, when, fen] of [['rollup:before', justBefore, 700], ['rollup:at', midnight, 900]] as const) {
      const [acc] = await rows(`SELECT id, balance_fen FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [o1]);
      const balance = Number(acc.balance_fen) + fen;
      await t.owner.query(`INSERT INTO journal (company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, created_at)
        VALUES ($1, $2, $3, $4, 'electric', 'prepay', $5, $6, $7, 'wechat', $8)`, [c.companyId, acc.id, o1, r1, fen, balance, key, when.toISOString()]);
      await t.owner.query(`UPDATE accounts SET balance_fen = $2 WHERE id = $1`, [acc.id, balance]);
    }

    const d = await deductBoth();
    expect(d.rollup).toEqual(d.raw);
    // both sides of midnight hold settlements, under their own China day
    const days = new Set(d.raw.map((x) => x.day));
    expect(days.has(businessDate(justBefore))).toBe(true);
    expect(days.has(businessDate(midnight))).toBe(true);
    expect(d.raw.some((x) => Number(x.vacant) > 0)).toBe(true);
    expect(await homeRollup()).toEqual(await homeRaw());
    const today = (await homeRaw()).money.find((m) => m.kind === 'prepay')!;
    // today: the cash prepay posted now and the posting at midnight, not the one a second before
    expect(today.todayFen).toBe(50000 + 900);

    // the report through HTTP (whole China days: answered from the rollup) gives the raw figures
    const q = `startTime=${businessDate(period.from)}&endTime=${businessDate(addDays(period.to, -1))}`;
    const http = await t.call(c.token, { method: 'GET', url: `/yewu/api/Report/Deduct?${q}` });
    expect(http.status).toBe(200);
    const body = http.body as { data: { rows: { day: string; readings: number; meters: number; quantity: string }[] } };
    expect(body.data.rows.map((x) => [x.day, x.readings, x.meters, x.quantity])).toEqual(d.raw.map((x) => [x.day, x.n, x.meters, x.quantity]));
    expect(await invariants()).toEqual({ unbalanced: 0, settledTwice: 0 });
  });

  it('a re-run, a rolled-back batch and a refused duplicate posting leave the rollups as the rows', async () => {
    const before = { d: await deductBoth(), home: await homeRollup() };
    // nothing new to settle: nothing changes
    await settle((await rows(`SELECT id FROM meters WHERE company_id = $1`, [c.companyId])).map((x) => Number(x.id)));
    // a settlement written and rolled back takes its rollup change with it
    const [m] = await rows(`SELECT id FROM meters WHERE company_id = $1 ORDER BY id LIMIT 1`, [c.companyId]);
    await expect(t.db.tx(SYSTEM_SCOPE, async (tx) => {
      await tx.execute(sql`INSERT INTO settlements (company_id, meter_id, read_at, prev_total, total, quantity, amount_fen, period_key)
        VALUES (${c.companyId}, ${Number(m.id)}, ${new Date(midnight.getTime() + 1000).toISOString()}, 0, 1, 1, 100, 'x')`);
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    // a second posting under a key is refused by journal_keys, as the unique index did, and adds nothing
    const [acc] = await rows(`SELECT id FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [c.owners[0]]);
    await expect(t.owner.query(`INSERT INTO journal (company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key)
      VALUES ($1, $2, $3, $4, 'electric', 'prepay', 1, 0, 'rollup:p1')`, [c.companyId, acc.id, c.owners[0], c.rooms[0]])).rejects.toMatchObject({ code: '23505' });
    // the same key through the ledger answers the first posting
    const again = await t.db.tx(scope, (tx) => post(tx, { companyId: c.companyId, ownerId: c.owners[0], roomId: c.rooms[0], wallet: 'electric', kind: 'prepay', amountFen: 50000, idempotencyKey: 'rollup:p1', payMethod: 'cash' }));
    expect(again.duplicate).toBe(true);
    // a reading settled twice is refused across the partitioned table
    const [s] = await rows(`SELECT meter_id, read_at FROM settlements WHERE company_id = $1 LIMIT 1`, [c.companyId]);
    await expect(t.owner.query(`INSERT INTO settlements (company_id, meter_id, read_at, prev_total, total, quantity, amount_fen, period_key)
      VALUES ($1, $2, $3, 0, 1, 1, 100, 'x')`, [c.companyId, s.meter_id, s.read_at])).rejects.toMatchObject({ code: '23505' });
    const after = { d: await deductBoth(), home: await homeRollup() };
    expect(after).toEqual(before);
    expect(after.d.rollup).toEqual(after.d.raw);
    expect(after.home).toEqual(await homeRaw());
    expect(await invariants()).toEqual({ unbalanced: 0, settledTwice: 0 });
  });

  it('/home per company (0058): the same before and after the deltas are moved, with postings racing the move', async () => {
    const raw = await homeRaw();
    expect(await homeRollup()).toEqual(raw);
    // the per-room rollup (read for users bound to areas) gives the same sums
    expect(await homeRollup(true)).toEqual(raw);
    expect(await compact()).toBeGreaterThan(0);
    const [left] = await rows(`SELECT count(*)::int AS n FROM journal_company_delta WHERE company_id = $1`, [c.companyId]);
    expect(left.n).toBe(0);
    expect(await homeRollup()).toEqual(raw);
    // postings while two moves run: every delta is counted once
    const posts = Array.from({ length: 20 }, (_, i) => t.db.tx(scope, (tx) => post(tx, {
      companyId: c.companyId, ownerId: c.owners[i % 2], roomId: c.rooms[i % 2], wallet: 'electric', kind: 'prepay', amountFen: 100 + i,
      idempotencyKey: `rollup:race:${i}`, payMethod: i % 3 ? 'wechat' : 'cash',
    })));
    await Promise.all([...posts, compact(), compact()]);
    expect(await homeRollup()).toEqual(await homeRaw());
    await compact();
    expect(await homeRollup()).toEqual(await homeRaw());
    const today = (await homeRaw()).money.find((m) => m.kind === 'prepay')!;
    expect(today.todayFen).toBe(50000 + 900 + Array.from({ length: 20 }, (_, i) => 100 + i).reduce((a, b) => a + b));
    expect(await invariants()).toEqual({ unbalanced: 0, settledTwice: 0 });
  });
});

describe('partitions by China month', () => {
  it('the partitions job makes the coming months; rows go to their month; the keys hold', async () => {
    await t.db.tx(SYSTEM_SCOPE, (tx) => ensurePartitions(tx, 3));
    const next = startOfBeijingMonth(Date.now(), 2);
    const name = (tbl: string) => `${tbl}_${businessDate(next).slice(0, 7).replace('-', '')}`;
    const parts = await rows(`SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) AS bound FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent IN ('journal'::regclass, 'settlements'::regclass) AND c.relname = ANY($1)`, [[name('journal'), name('settlements')]]);
    expect(parts).toHaveLength(2);
    // a month starts at China midnight
    expect(String(parts[0].bound)).toContain(new Date(next).toISOString().slice(0, 10));
    // a journal row two months ahead lands in its month's partition
    const [acc] = await rows(`SELECT id, balance_fen FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [c.owners[0]]);
    await t.owner.query(`INSERT INTO journal (company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, created_at)
      VALUES ($1, $2, $3, $4, 'electric', 'fee', -1, $5, 'rollup:future', $6)`, [c.companyId, acc.id, c.owners[0], c.rooms[0], Number(acc.balance_fen) - 1, next.toISOString()]);
    await t.owner.query(`UPDATE accounts SET balance_fen = balance_fen - 1 WHERE id = $1`, [acc.id]);
    const [where] = await rows(`SELECT tableoid::regclass::text AS part FROM journal WHERE idempotency_key = 'rollup:future'`);
    expect(where.part).toBe(name('journal'));
    const [k] = await rows(`SELECT journal_id FROM journal_keys WHERE company_id = $1 AND idempotency_key = 'rollup:future'`, [c.companyId]);
    expect(k).toBeTruthy();
    expect(await invariants()).toEqual({ unbalanced: 0, settledTwice: 0 });
    // the journal stays append-only on every partition
    await expect(t.owner.query(`UPDATE journal SET memo = 'x' WHERE idempotency_key = 'rollup:future'`)).rejects.toThrow(/不可修改/);
  });
});
