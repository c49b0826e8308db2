// Settlement SQL: pending meters, settle cursors, price versions, and one settlement batch in few round trips.
import { sql, type SQL } from 'drizzle-orm';
import type { PriceVersion } from '@meter/contracts';
import { executePrepared, type Reader, type Tx } from '../../../db/client.ts';
import { intArr, textArr } from '../../../db/array-literal.ts';
import type { JournalEntry, LockedAccount } from './ledger.ts';
import { arr, isoOf, orNull } from './sql.ts';

// ---- settlement ------------------------------------------------------------------------------------

/**
 * Meters with good readings not yet settled: meter_latest (the newest good reading, kept by ingest)
 * is after the meter's settle cursor, or the meter has none yet. Only meters in use with a charging
 * scheme (a meter without one waits: its consumption is charged once a scheme is set). Ascending ids
 * after `afterId`, so a sweep pages through them.
 */
export async function pendingMeters(tx: Reader, afterId: number, limit: number): Promise<number[]> {
  // walks meter_latest in id order from afterId (scalar subqueries, so the planner cannot turn them
  // into joins over every meter) with two index probes per row, stopping after `limit` pending
  // meters: a whole sweep costs one pass over the meters, however many pages it takes (the app's
  // sessions run without JIT, db/client.ts: compiling this one took longer than running it)
  const r = await tx.execute(sql`
    SELECT ml.meter_id FROM meter_latest ml
    WHERE ml.meter_id > ${afterId}
      AND ml.read_at > coalesce((SELECT c.read_at FROM settle_cursors c WHERE c.meter_id = ml.meter_id), '-infinity')
      AND coalesce((SELECT m.status = 1 AND m.charging_scheme_id IS NOT NULL FROM meters m WHERE m.id = ml.meter_id), false)
    ORDER BY ml.meter_id LIMIT ${limit}`);
  return r.rows.map((x) => Number(x.meter_id));
}

/** Gives meters that have none a cursor at their initial reading (before any reading). */
export async function ensureCursors(tx: Tx, meterIds: number[]) {
  await tx.execute(sql`
    INSERT INTO settle_cursors (meter_id, company_id, read_at, total)
    SELECT m.id, m.company_id, '-infinity', m.initial_reading FROM meters m
    WHERE m.id = ANY(${arr(meterIds)}::bigint[]) AND NOT EXISTS (SELECT 1 FROM settle_cursors c WHERE c.meter_id = m.id)
    ORDER BY m.id
    ON CONFLICT (meter_id) DO NOTHING`);
}

export interface CursorRow {
  meterId: number;
  at: string | null;
  readAt: Date | null;
  total: string;
  registers: Record<string, string>;
  /** the state of the period the cursor is in (null: none yet) */
  period: { key: string; quantity: string; exact: string; chargedFen: number } | null;
}

export interface MeterTermsRow {
  id: number;
  companyId: number;
  kind: number;
  multiplier: string;
  status: number;
  roomId: number | null;
  schemeId: number | null;
  monthType: number | null;
  /** the room's current owner */
  ownerId: number | null;
  /** 公摊: the area whose occupied rooms share this meter, and how */
  sharedAreaId: number | null;
  sharedMethod: number | null;
}

/** A stored price version (tiers and periods as the engine reads them; the mode as stored, unchecked). */
export interface VersionRow extends Omit<PriceVersion, 'effectiveFrom' | 'mode'> {
  schemeId: number;
  effectiveFrom: Date;
  mode: string;
}

export async function schemeVersions(tx: Tx, schemeIds: number[]): Promise<VersionRow[]> {
  if (!schemeIds.length) return [];
  const r = await tx.execute(sql`
    SELECT scheme_id, ${isoOf(sql`effective_from`)} AS effective_from, mode, unit_price, tiers, tou, monthly_fee_fen, minimum_charge_fen
    FROM charging_scheme_versions WHERE scheme_id = ANY(${arr(schemeIds)}::bigint[]) ORDER BY scheme_id, effective_from`);
  return r.rows.map((x) => ({
    schemeId: Number(x.scheme_id),
    effectiveFrom: new Date(String(x.effective_from)),
    mode: String(x.mode),
    unitPrice: String(x.unit_price),
    tiers: (x.tiers ?? []) as VersionRow['tiers'],
    tou: (x.tou ?? { periods: [] }) as VersionRow['tou'],
    monthlyFeeFen: Number(x.monthly_fee_fen),
    minimumChargeFen: Number(x.minimum_charge_fen),
  }));
}

export interface PendingReading {
  meterId: number;
  at: string;
  readAt: Date;
  total: string;
  registers: Record<string, unknown>;
}

export interface PeriodRow {
  meterId: number;
  periodKey: string;
  companyId: number;
  quantity: string;
  exact: string;
  chargedFen: number;
}

export interface SettlementRow {
  id: number;
  companyId: number;
  meterId: number;
  ownerId: number | null;
  roomId: number | null;
  /** exact ISO text of the reading's instant */
  at: string;
  prevAt: string | null;
  prevTotal: string;
  total: string;
  quantity: string;
  amountFen: number;
  lines: unknown[];
  periodKey: string;
  journalId: number | null;
  meterKind: number;
  note: string;
}

// ---- settlement, one batch in few round trips --------------------------------------------------------

export interface LockedMeter {
  cursor: CursorRow;
  terms: MeterTermsRow;
  readings: PendingReading[];
  /**
   * the period states stored in meter_periods between the cursor's period and the last reading's (a
   * superset), read only when the readings reach past the cursor's own period (whose state is on it)
   */
  periods: PeriodRow[];
  /**
   * the highest balance at which any active alarm scheme of the company raises something (alarm 1,
   * alarm 2, close − overdraft); null: the company has none. Above it, from level 0, nothing happens.
   */
  alarmCeilingFen: number | null;
}

/** The China-time period key of a timestamp (SQL), as period.ts computes it. */
const periodKeySql = (at: SQL, monthType: SQL) =>
  sql`to_char(${at} AT TIME ZONE 'Asia/Shanghai', CASE WHEN ${monthType} = 2 THEN 'YYYY' ELSE 'YYYY-MM' END)`;

/**
 * Locks the settle cursors of these meters (ascending ids; skipLocked: leave out the ones another
 * settlement holds) and reads, in the same statement, what pricing needs for each: the meter's terms,
 * its pending good readings (oldest first, at most `perMeter`), the period states those readings touch
 * and the company's alarm ceiling. Meters without a cursor are left out (ensureCursors first).
 */
export interface LockedBatch {
  meters: LockedMeter[];
  /** the price versions of the meters' schemes */
  versions: VersionRow[];
  /**
   * the accounts the readings of a batch without 公摊 meters charge (the current owners' wallets of
   * the meters' kinds), locked in id order after the cursors; null when the batch has a 公摊 meter
   * or a meter without a cursor yet (ledger.preparePostings then locks every account, in id order)
   */
  accounts: LockedAccount[] | null;
}

export async function lockAndLoad(tx: Tx, meterIds: number[], skipLocked: boolean, perMeter: number, lockAccounts = true): Promise<LockedBatch> {
  if (!meterIds.length) return { meters: [], versions: [], accounts: [] };
  // prepared: planning this statement (the readings' partitions, every policy) cost up to a third of running it.
  // Planned without sequential scans: each meter's pending readings are read from every partition
  // after its cursor, and the months ahead (made in advance, empty) would be sequential scans, which
  // PostgreSQL restarts per meter — 13 of them a meter, 2–4× the cost of index scans of the same empty
  // partitions (measured, bench/README.md «Settlement»). Nothing else in the statement wants a
  // sequential scan (small tables are read by key either way). The setting is made and undone in the
  // statement's own round trip (executePrepared's frame), not in two more.
  const r = await executePrepared(tx, sql`
    WITH c AS MATERIALIZED (
      SELECT meter_id, company_id, read_at, total, registers, period_key, period_quantity, period_exact, period_charged_fen FROM settle_cursors
      WHERE meter_id = ANY(${arr(meterIds)}::bigint[])
      ORDER BY meter_id FOR UPDATE ${skipLocked ? sql`SKIP LOCKED` : sql``}
    ), bm AS MATERIALIZED (
      -- the locked meters with their terms, read once (by primary key) for every use below
      SELECT c.meter_id, c.read_at, c.total, c.registers, c.period_key, c.period_quantity, c.period_exact, c.period_charged_fen, m.company_id, m.kind, m.multiplier, m.status, m.room_id, m.charging_scheme_id,
        s.charging_month_type, o.id AS owner_id, sm.area_id AS shared_area_id, sm.method AS shared_method
      FROM c
      JOIN meters m ON m.id = c.meter_id
      LEFT JOIN charging_schemes s ON s.id = m.charging_scheme_id
      LEFT JOIN owners o ON o.room_id = m.room_id AND o.status = 1
      LEFT JOIN shared_meters sm ON sm.meter_id = m.id
    ), fl AS MATERIALIZED (
      -- the accounts are locked here unless the batch has a 公摊 meter or a meter without a cursor yet
      -- (the caller creates the cursor, and preparePostings locks every account later, in id order)
      -- (every meter locked: each has a cursor; only a short batch looks for a missing one)
      SELECT NOT ${lockAccounts}::boolean OR EXISTS (SELECT 1 FROM bm WHERE bm.shared_area_id IS NOT NULL)
        OR ((SELECT count(*) FROM c) < ${meterIds.length}::int
          AND EXISTS (SELECT 1 FROM unnest(${arr(meterIds)}::bigint[]) AS k(id) WHERE NOT EXISTS (SELECT 1 FROM settle_cursors x WHERE x.meter_id = k.id))) AS shared
    ), ac AS MATERIALIZED (
      SELECT a.company_id, max(greatest(a.alarm1_fen, a.alarm2_fen, a.close_fen - a.overdraft_fen)) AS ceiling
      FROM alarm_schemes a WHERE a.company_id IN (SELECT DISTINCT company_id FROM bm) AND a.status = 1 GROUP BY a.company_id
    ), vs AS MATERIALIZED (
      SELECT json_agg(json_build_array(v.scheme_id, ${isoOf(sql`v.effective_from`)}, v.mode, v.unit_price::text, v.tiers, v.tou, v.monthly_fee_fen, v.minimum_charge_fen)
        ORDER BY v.scheme_id, v.effective_from) AS versions
      FROM charging_scheme_versions v
      WHERE v.scheme_id = ANY(ARRAY(SELECT DISTINCT charging_scheme_id FROM bm WHERE charging_scheme_id IS NOT NULL))
    ), acc AS MATERIALIZED (
      SELECT a.id, a.company_id, a.owner_id, a.room_id, a.wallet, a.balance_fen, a.status, a.alarm_level
      FROM (SELECT DISTINCT bm.owner_id, CASE bm.kind WHEN 2 THEN 'water' ELSE 'electric' END AS wallet FROM bm
            WHERE bm.owner_id IS NOT NULL AND NOT (SELECT shared FROM fl)) k
      JOIN accounts a ON a.owner_id = k.owner_id AND a.wallet = k.wallet
      ORDER BY a.id FOR UPDATE OF a
    ), accj AS MATERIALIZED (
      -- reading acc here, once, takes the account locks after every cursor lock
      SELECT coalesce(json_agg(json_build_array(id, company_id, owner_id, room_id, wallet, balance_fen::text, status, alarm_level) ORDER BY id), '[]') AS accounts
      FROM acc
    )
    -- one JSON document for the batch (one value to parse, not a row of many fields per meter)
    SELECT (SELECT versions FROM vs) AS versions, (SELECT CASE WHEN fl.shared THEN NULL ELSE accj.accounts END FROM accj, fl) AS accounts,
      coalesce(json_agg(json_build_array(c.meter_id, CASE WHEN c.read_at = '-infinity' THEN NULL ELSE ${isoOf(sql`c.read_at`)} END, c.total::text, c.registers,
        c.company_id, c.kind, c.multiplier::text, c.status, c.room_id, c.charging_scheme_id, c.charging_month_type,
        c.owner_id, c.shared_area_id, c.shared_method, ac.ceiling, x.readings, pp.periods,
        c.period_key, c.period_quantity::text, c.period_exact::text, c.period_charged_fen::text) ORDER BY c.meter_id), '[]') AS meters
    FROM bm c
    LEFT JOIN ac ON ac.company_id = c.company_id
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_array(${isoOf(sql`r.read_at`)}, r.total::text, r.registers) ORDER BY r.read_at) AS readings,
        min(r.read_at) AS first_at, max(r.read_at) AS last_at
      FROM (SELECT r.read_at, r.total, r.registers FROM readings r
            WHERE r.meter_id = c.meter_id AND r.read_at > c.read_at AND r.exception = ''
            ORDER BY r.read_at LIMIT ${perMeter}) r
    ) x ON c.status = 1 AND c.charging_scheme_id IS NOT NULL
    -- the periods the pending readings touch; the stored ones are read from meter_periods only when
    -- they are not just the cursor's own period (a new month, a first settlement)
    LEFT JOIN LATERAL (
      SELECT ${periodKeySql(sql`CASE WHEN c.read_at = '-infinity' THEN x.first_at ELSE c.read_at END`, sql`c.charging_month_type`)} AS first_key,
        ${periodKeySql(sql`x.last_at`, sql`c.charging_month_type`)} AS last_key
      WHERE x.last_at IS NOT NULL
    ) pk ON true
    LEFT JOIN LATERAL (
      SELECT json_agg(json_build_array(p.period_key, p.company_id, p.quantity::text, p.exact::text, p.charged_fen::text)) AS periods
      FROM meter_periods p
      WHERE p.meter_id = c.meter_id AND p.period_key BETWEEN pk.first_key AND pk.last_key
    ) pp ON pk.first_key IS NOT NULL AND NOT (c.period_key = pk.first_key AND c.period_key = pk.last_key)`,
  { before: 'SET LOCAL enable_seqscan = off', after: 'SET LOCAL enable_seqscan TO DEFAULT' });
  const first = r.rows[0];
  if (!first || !(first.meters as unknown[]).length) return { meters: [], versions: [], accounts: [] };
  type V = [number, string, string, string, VersionRow['tiers'] | null, VersionRow['tou'] | null, number, number];
  const versions: VersionRow[] = ((first.versions ?? []) as V[]).map(([schemeId, from, mode, unitPrice, tiers, tou, fee, minimum]) => ({
    schemeId: Number(schemeId), effectiveFrom: new Date(from), mode, unitPrice, tiers: tiers ?? [], tou: tou ?? { periods: [] },
    monthlyFeeFen: Number(fee), minimumChargeFen: Number(minimum),
  }));
  type A = [number, number, number, number | null, string, string, number, number];
  const accounts = first.accounts == null ? null : (first.accounts as A[]).map(([id, companyId, ownerId, roomId, wallet, balance, status, alarm]) => ({
    id: Number(id), companyId: Number(companyId), ownerId: Number(ownerId), roomId: orNull(roomId), wallet, balanceFen: Number(balance), status: Number(status), alarmLevel: Number(alarm),
  }));
  type M = [number, string | null, string, Record<string, string> | null, number, number, string, number, number | null, number | null, number | null,
    number | null, number | null, number | null, number | string | null, [string, string, Record<string, unknown> | null][] | null, [string, number, string, string, string][] | null,
    string, string, string, string];
  const meters = (first.meters as M[]).map(([meterId, at, total, registers, companyId, kind, multiplier, status, roomId, schemeId, monthType, ownerId, sharedAreaId, sharedMethod, ceiling, readings, periods,
    periodKey, periodQuantity, periodExact, periodCharged]): LockedMeter => ({
    cursor: {
      meterId, at, readAt: at == null ? null : new Date(at), total, registers: registers ?? {},
      period: periodKey === '' ? null : { key: periodKey, quantity: periodQuantity, exact: periodExact, chargedFen: Number(periodCharged) },
    },
    terms: { id: meterId, companyId, kind, multiplier, status, roomId, schemeId, monthType, ownerId, sharedAreaId, sharedMethod },
    readings: (readings ?? []).map(([ra, t, regs]) => ({ meterId, at: ra, readAt: new Date(ra), total: t, registers: regs ?? {} })),
    periods: (periods ?? []).map(([periodKey, cid, quantity, exact, charged]) => ({ meterId, periodKey, companyId: cid, quantity, exact, chargedFen: Number(charged) })),
    alarmCeilingFen: orNull(ceiling),
  }));
  return { meters, versions, accounts };
}

/** Meters of these ids that have no settle cursor yet. */
export async function metersWithoutCursor(tx: Tx, meterIds: number[]): Promise<number[]> {
  if (!meterIds.length) return [];
  const r = await tx.execute(sql`
    SELECT k.id FROM unnest(${arr(meterIds)}::bigint[]) AS k(id)
    WHERE NOT EXISTS (SELECT 1 FROM settle_cursors c WHERE c.meter_id = k.id)`);
  return r.rows.map((x) => Number(x.id));
}

/** A journal row of a settlement batch: its settlement (ref_id) is named by index. */
export interface BatchJournalRow extends JournalEntry {
  /** index of the settlement row this posting charges (its id becomes ref_id) */
  settlementIndex: number;
  balanceAfterFen: number;
  idempotencyKey: string;
  memo: string;
}

/** A period state to keep in meter_periods: a period the meter's cursor has moved on from. */
export type BatchPeriodRow = PeriodRow;

/** A cursor's new position, with the state of the period it is now in. */
export interface BatchCursorRow {
  meterId: number;
  at: string;
  total: string;
  registers: Record<string, string>;
  periodKey: string;
  quantity: string;
  exact: string;
  chargedFen: number;
}

export interface BatchSettlementRow extends Omit<SettlementRow, 'id' | 'journalId'> {
  /** index of the journal row that charged this reading (its id becomes journal_id), or null */
  journalIndex: number | null;
}

/**
 * Writes a priced batch in ONE statement (a data-modifying CTE, so one round trip and one snapshot):
 * the journal rows (ids drawn in order after the accounts were locked, so an account's journal ids
 * follow its balance), the balances, the settlements (unique per meter and read_at: a reading already
 * settled fails the statement, and the caller's transaction with it), the cursors with the state of the period
 * each is now in, and the periods a cursor moved on from (into meter_periods). The settlement and
 * journal rows name each other (ref_id, journal_id) by ids drawn in the statement.
 */
export async function writeSettlementBatch(tx: Tx, b: {
  journal: BatchJournalRow[];
  balances: { accountId: number; balanceFen: number }[];
  settlements: BatchSettlementRow[];
  periods: BatchPeriodRow[];
  cursors: BatchCursorRow[];
}): Promise<{ inserted: number; journalIds: number[]; settlementIds: number[] }> {
  // array literals built here (see intArr); the JSON columns travel as one JSON array each
  const jn = <K extends keyof BatchJournalRow>(k: K) => intArr(b.journal.map((r) => r[k] as number | null));
  const jt = <K extends keyof BatchJournalRow>(k: K) => textArr(b.journal.map((r) => r[k] as string | null));
  const sn = <K extends keyof BatchSettlementRow>(k: K) => intArr(b.settlements.map((r) => r[k] as number | null));
  const st = <K extends keyof BatchSettlementRow>(k: K) => textArr(b.settlements.map((r) => r[k] as string | null));
  const qn = <K extends keyof BatchPeriodRow>(k: K) => intArr(b.periods.map((r) => r[k] as number));
  const qt = <K extends keyof BatchPeriodRow>(k: K) => textArr(b.periods.map((r) => r[k] as string));
  const cn = <K extends keyof BatchCursorRow>(k: K) => intArr(b.cursors.map((r) => r[k] as number));
  const ct = <K extends keyof BatchCursorRow>(k: K) => textArr(b.cursors.map((r) => r[k] as string));
  const cursorIds = cn('meterId');
  const r = await executePrepared(tx, sql`
    WITH ids AS MATERIALIZED (
      -- ids drawn in order, after the accounts were locked: an account's journal ids follow its balance
      SELECT coalesce((SELECT array_agg(nextval('settlements_id_seq')) FROM generate_series(1, ${b.settlements.length}::int)), '{}') AS s,
        coalesce((SELECT array_agg(nextval('journal_id_seq')) FROM generate_series(1, ${b.journal.length}::int)), '{}') AS j,
        ${JSON.stringify(b.settlements.map((x) => x.lines))}::jsonb AS lines,
        ${JSON.stringify(b.cursors.map((x) => x.registers))}::jsonb AS registers
    ), j AS (
      INSERT INTO journal (id, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen,
        idempotency_key, pay_method, ref_type, ref_id, memo)
      SELECT ids.j[v.ord::int], v.company_id, v.account_id, v.owner_id, v.room_id, v.wallet, v.kind, v.amount_fen, v.balance_after_fen,
        v.idempotency_key, v.pay_method, v.ref_type, ids.s[v.s_ord + 1], v.memo
      FROM ids, unnest(${jn('settlementIndex')}::int[], ${jn('companyId')}::bigint[], ${jn('accountId')}::bigint[], ${jn('ownerId')}::bigint[],
        ${jn('roomId')}::bigint[], ${jt('wallet')}::varchar[], ${jt('kind')}::varchar[], ${jn('amountFen')}::bigint[], ${jn('balanceAfterFen')}::bigint[],
        ${jt('idempotencyKey')}::varchar[], ${jt('payMethod')}::varchar[], ${jt('refType')}::varchar[], ${jt('memo')}::text[])
        WITH ORDINALITY AS v(s_ord, company_id, account_id, owner_id, room_id, wallet, kind, amount_fen, balance_after_fen, idempotency_key, pay_method, ref_type, memo, ord)
      RETURNING 1
    ), bal AS (
      UPDATE accounts a SET balance_fen = v.b, updated_at = now()
      FROM unnest(${intArr(b.balances.map((x) => x.accountId))}::bigint[], ${intArr(b.balances.map((x) => x.balanceFen))}::bigint[]) AS v(id, b)
      -- the ANY keeps the plan on the primary key (a hash join would read the whole table)
      WHERE a.id = v.id AND a.id = ANY(${intArr(b.balances.map((x) => x.accountId))}::bigint[])
      RETURNING 1
    ), st AS (
      INSERT INTO settlements (id, company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity,
        amount_fen, lines, period_key, journal_id, meter_kind, note)
      SELECT ids.s[v.ord::int], v.company_id, v.meter_id, v.owner_id, v.room_id, v.read_at, v.prev_read_at, v.prev_total, v.total, v.quantity,
        v.amount_fen, ids.lines -> (v.ord::int - 1), v.period_key, ids.j[v.j_ord + 1], v.meter_kind, v.note
      FROM ids, unnest(${sn('companyId')}::bigint[], ${sn('meterId')}::bigint[], ${sn('ownerId')}::bigint[], ${sn('roomId')}::bigint[],
          ${st('at')}::timestamptz[], ${st('prevAt')}::timestamptz[], ${st('prevTotal')}::numeric[], ${st('total')}::numeric[], ${st('quantity')}::numeric[],
          ${sn('amountFen')}::bigint[], ${st('periodKey')}::varchar[], ${sn('journalIndex')}::int[], ${sn('meterKind')}::int[], ${st('note')}::varchar[])
        WITH ORDINALITY AS v(company_id, meter_id, owner_id, room_id, read_at, prev_read_at, prev_total, total, quantity, amount_fen, period_key, j_ord, meter_kind, note, ord)
      -- no ON CONFLICT: a reading settled twice (the cursor lock makes it impossible) fails the whole
      -- statement on settlements_reading; a speculative insertion would cost a probe and a WAL record a row
      RETURNING 1
    ), per AS (
      -- the periods the cursors moved on from (rare: a new month or year)
      INSERT INTO meter_periods AS p (meter_id, period_key, company_id, quantity, exact, charged_fen)
      SELECT * FROM unnest(${qn('meterId')}::bigint[], ${qt('periodKey')}::varchar[], ${qn('companyId')}::bigint[],
        ${qt('quantity')}::numeric[], ${qt('exact')}::numeric[], ${qn('chargedFen')}::bigint[])
      ON CONFLICT (meter_id, period_key) DO UPDATE
        SET quantity = excluded.quantity, exact = excluded.exact, charged_fen = excluded.charged_fen, updated_at = now()
      RETURNING 1
    ), cur AS (
      -- the cursor and the state of its current period: one row per meter. The registers come from ids
      -- through a scalar subquery (run once): an UPDATE … FROM ids would copy the whole ids row (every
      -- array and JSON document of the batch) for each cursor, to recheck it under concurrency
      UPDATE settle_cursors c SET read_at = v.read_at, total = v.total, registers = (SELECT registers FROM ids) -> (v.ord::int - 1),
        period_key = v.period_key, period_quantity = v.quantity, period_exact = v.exact, period_charged_fen = v.charged_fen, updated_at = now()
      FROM unnest(${cursorIds}::bigint[], ${ct('at')}::timestamptz[], ${ct('total')}::numeric[], ${ct('periodKey')}::varchar[],
        ${ct('quantity')}::numeric[], ${ct('exact')}::numeric[], ${cn('chargedFen')}::bigint[])
        WITH ORDINALITY AS v(meter_id, read_at, total, period_key, quantity, exact, charged_fen, ord)
      WHERE c.meter_id = v.meter_id AND c.meter_id = ANY(${cursorIds}::bigint[])
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM st)::int AS inserted,
      (SELECT count(*) FROM j)::int AS journaled, (SELECT count(*) FROM bal)::int AS balanced,
      (SELECT count(*) FROM per)::int AS periods, (SELECT count(*) FROM cur)::int AS cursors,
      (SELECT array_to_string(j, ',') FROM ids) AS journal_ids, (SELECT array_to_string(s, ',') FROM ids) AS settlement_ids`);
  const x = r.rows[0];
  // every row of the batch was written: anything else is a bug, and the caller's transaction must not stand
  if (Number(x.journaled) !== b.journal.length || Number(x.balanced) !== b.balances.length || Number(x.periods) !== b.periods.length || Number(x.cursors) !== b.cursors.length) {
    throw new Error(`settlement batch: wrote journal ${x.journaled}/${b.journal.length}, balances ${x.balanced}/${b.balances.length}, periods ${x.periods}/${b.periods.length}, cursors ${x.cursors}/${b.cursors.length}`);
  }
  return {
    inserted: Number(x.inserted),
    journalIds: x.journal_ids === '' ? [] : String(x.journal_ids).split(',').map(Number),
    settlementIds: x.settlement_ids === '' ? [] : String(x.settlement_ids).split(',').map(Number),
  };
}
