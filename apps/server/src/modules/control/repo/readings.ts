// Readings: the ingest lock, inserting (COPY or INSERT) readings, meter_latest and what follows a batch.
import { sql, type SQL } from 'drizzle-orm';
import { clientOf, queryMany, type Tx } from '../../../db/client.ts';
import { intArr, textArr } from '../../../db/array-literal.ts';
import { BinaryCopyWriter, flatJson } from '../../../db/copy-binary.ts';
import { copyIn } from '../../../db/copy.ts';
import type { PlausibilityTerms } from '../plausible.ts';
import { arr, d, num } from './sql.ts';

// ---------------------------------------------------------------------------------------------
// Readings
// ---------------------------------------------------------------------------------------------

export interface LatestRow {
  meterId: number;
  readAt: Date;
  total: string;
  registers: Record<string, number | string | boolean>;
}

/** Meter buckets of the ingest lock: batches touching the same meters take turns. */
const INGEST_BUCKETS = 64;
/** The lock buckets of these meters, ascending (the order every holder takes them in). */
const bucketsOf = (meterIds: number[]) => [...new Set(meterIds.map((m) => m % INGEST_BUCKETS))].sort((a, b) => a - b);

/**
 * The latest good reading of each meter, with the ingest lock of those meters held until the
 * transaction ends: transaction-scoped advisory locks per bucket of meter ids, taken in bucket
 * order (no deadlock), so concurrent ingests of one meter are serialised — including its very first
 * reading, which has no meter_latest row to lock — without writing a row lock per meter.
 */
export async function lockLatest(tx: Tx, meterIds: number[]): Promise<Map<number, LatestRow>> {
  if (!meterIds.length) return new Map();
  const buckets = bucketsOf(meterIds);
  // one round trip; the locks are taken one row at a time in bucket order
  await tx.execute(sql`
    SELECT count(pg_advisory_xact_lock(724300, b)) FROM (SELECT unnest(${arr(buckets)}::int[]) AS b ORDER BY 1) AS x`);
  const r = await tx.execute(sql`
    SELECT meter_id, read_at, total, registers FROM meter_latest WHERE meter_id = ANY(${arr(meterIds)}::bigint[])`);
  return new Map(
    r.rows.map((x) => [
      Number(x.meter_id),
      { meterId: Number(x.meter_id), readAt: d(x.read_at), total: String(x.total), registers: (x.registers ?? {}) as LatestRow['registers'] },
    ]),
  );
}

/**
 * {@link lockLatest} for ingest: the same locks, and with each meter's latest good reading (of its
 * registers only the relay/valve state) the company of its `meters` row as the caller's row-level
 * security shows it (absent: not visible).
 */
export async function lockIngest(
  tx: Tx,
  meterIds: number[],
): Promise<{ latest: Map<number, LatestRow>; companyOf: Map<number, number>; terms: Map<number, PlausibilityTerms> }> {
  const latest = new Map<number, LatestRow>();
  const companyOf = new Map<number, number>();
  const terms = new Map<number, PlausibilityTerms>();
  if (!meterIds.length) return { latest, companyOf, terms };
  if (!meterIds.every(Number.isSafeInteger)) throw new TypeError('meter ids must be integers');
  const buckets = bucketsOf(meterIds);
  // One round trip, two statements (simple protocol; the ids are integers, inlined): the locks first,
  // then the read, whose own snapshot (READ COMMITTED) sees what the previous holder committed.
  const res = await queryMany(clientOf(tx), `
    SELECT count(pg_advisory_xact_lock(724300, b)) FROM (SELECT unnest('{${buckets.join(',')}}'::int[]) AS b ORDER BY 1) AS x;
    SELECT x.id AS meter_id, m.company_id, m.kind, m.phase_id, m.caliber_id, (extract(epoch FROM l.read_at) * 1000)::float8 AS read_ms, l.total, l.registers->'valve' AS valve
    FROM unnest('{${meterIds.join(',')}}'::bigint[]) AS x(id)
    LEFT JOIN meters m ON m.id = x.id
    LEFT JOIN meter_latest l ON l.meter_id = x.id`);
  // of the registers only the relay/valve state is read by ingest: only it is fetched (no jsonb parse per meter)
  for (const x of res[1].rows) {
    const id = Number(x.meter_id);
    if (x.company_id != null) {
      companyOf.set(id, Number(x.company_id));
      terms.set(id, { kind: Number(x.kind), phaseId: num(x.phase_id), caliberId: num(x.caliber_id) });
    }
    if (x.read_ms != null) {
      const valve = x.valve as number | string | boolean | null;
      latest.set(id, { meterId: id, readAt: new Date(Number(x.read_ms)), total: String(x.total), registers: valve == null ? {} : { valve } });
    }
  }
  return { latest, companyOf, terms };
}

export interface ReadingRow {
  companyId: number;
  meterId: number;
  readAt: Date;
  source: number;
  total: string;
  registers: Record<string, number | string | boolean>;
  exception: string;
  commandId: number | null;
  operatorId: number | null;
  /** readAt as epoch ms, when the row holds it so (COPY and meter_latest read it instead of readAt) */
  readonly time?: number;
  /** the total as exact hundredths, when the row holds them (COPY writes them instead of parsing total) */
  readonly cents?: number | null;
}

/** Inserts readings; a (meter, read_at) already stored is skipped. Returns the keys inserted. */
export async function insertReadings(tx: Tx, rows: ReadingRow[]): Promise<Set<string>> {
  if (!rows.length) return new Set();
  const r = await tx.execute(sql`
    INSERT INTO readings (company_id, meter_id, read_at, source, total, registers, exception, command_id, operator_id)
    SELECT * FROM unnest(
      ${arr(rows.map((x) => x.companyId))}::bigint[], ${arr(rows.map((x) => x.meterId))}::bigint[],
      ${arr(rows.map((x) => x.readAt.toISOString()))}::timestamptz[], ${arr(rows.map((x) => x.source))}::int[],
      ${arr(rows.map((x) => x.total))}::numeric[], ${arr(rows.map((x) => JSON.stringify(x.registers)))}::jsonb[],
      ${arr(rows.map((x) => x.exception))}::varchar[], ${arr(rows.map((x) => x.commandId))}::bigint[],
      ${arr(rows.map((x) => x.operatorId))}::bigint[])
    ON CONFLICT (meter_id, read_at) DO NOTHING
    RETURNING meter_id, read_at`);
  return new Set(r.rows.map((x) => `${x.meter_id}@${d(x.read_at).getTime()}`));
}

const READING_COLUMNS = 'company_id, meter_id, read_at, source, total, registers, exception, command_id, operator_id';

/** Counters of the COPY path since the process started (tests and diagnostics). */
export const copyStats = { batches: 0, rows: 0, fallbacks: 0 };

/** Whether COPY under meter_ingest works here (unknown until tried; off after a refusal). */
let copyUsable: boolean | undefined;
/** Refusals that mean "this database has no usable meter_ingest role", not "this batch is bad". */
const COPY_REFUSED = new Set(['0A000', '42501', '22023', '42704']);

/**
 * Inserts readings with COPY, as the `meter_ingest` role (migration 0020) inside a savepoint.
 * The caller must have taken each row's company from its `meters` row and ruled out duplicates
 * within the batch. Returns false — nothing inserted, the transaction as it was — when a row is
 * already stored (unique violation) or COPY is not available; the caller then uses
 * {@link insertReadings}, which skips what is already there.
 */
export async function copyReadings(tx: Tx, rows: ReadingRow[]): Promise<boolean> {
  if (!rows.length) return true;
  if (copyUsable === false) return false;
  // binary COPY: no formatting of numbers and instants here, no parsing of them in the server
  const w = new BinaryCopyWriter(rows.length * 96);
  for (const x of rows) {
    w.row(9)
      .int8(x.companyId)
      .int8(x.meterId)
      .timestamptzMs(x.time ?? x.readAt.getTime())
      .int4(x.source);
    if (x.cents != null) w.numericCents(x.cents);
    else w.numeric(x.total);
    w
      .jsonbFlat(x.registers)
      .text(x.exception)
      .int8(x.commandId)
      .int8(x.operatorId);
  }
  try {
    await copyIn(
      clientOf(tx),
      `SAVEPOINT ingest_copy; SET LOCAL ROLE meter_ingest; COPY readings (${READING_COLUMNS}) FROM STDIN (FORMAT binary); SET LOCAL ROLE NONE; RELEASE SAVEPOINT ingest_copy`,
      w.finish(),
    );
    copyUsable = true;
    copyStats.batches++;
    copyStats.rows += rows.length;
    return true;
  } catch (e) {
    copyStats.fallbacks++;
    await tx.execute(sql`ROLLBACK TO SAVEPOINT ingest_copy`);
    await tx.execute(sql`RELEASE SAVEPOINT ingest_copy`);
    const code = (e as { code?: string }).code;
    if (code === '23505') return false;
    if (code && COPY_REFUSED.has(code) && copyUsable !== true) {
      copyUsable = false;
      return false;
    }
    // anything else: let the INSERT path judge the batch (and report its error)
    return false;
  }
}

/**
 * An instant as epoch milliseconds (a float8 array element, cheaper to write than an ISO text) and its
 * timestamptz in SQL, exact: interval × float8 multiplies whole microseconds below 2^53.
 */
const EPOCH_MS = sql.raw(`'epoch'::timestamptz + interval '1 millisecond' *`);

/** Moves meter_latest forward (never backwards); registers accumulate (clock check time survives). */
function latestUpsertSql(rows: ReadingRow[]): SQL {
  return sql`
    INSERT INTO meter_latest (meter_id, company_id, read_at, total, registers, source, updated_at)
    SELECT v.m, v.c, ${EPOCH_MS} v.t, v.total, v.reg, v.src, now() FROM unnest(
      ${intArr(rows.map((x) => x.meterId))}::bigint[], ${intArr(rows.map((x) => x.companyId))}::bigint[],
      ${intArr(rows.map((x) => x.time ?? x.readAt.getTime()))}::float8[], ${textArr(rows.map((x) => x.total))}::numeric[],
      ${textArr(rows.map((x) => flatJson(x.registers)))}::jsonb[], ${intArr(rows.map((x) => x.source))}::int[]) AS v(m, c, t, total, reg, src)
    ON CONFLICT (meter_id) DO UPDATE SET read_at = EXCLUDED.read_at, total = EXCLUDED.total,
      registers = meter_latest.registers || EXCLUDED.registers, source = EXCLUDED.source, updated_at = now()
    WHERE meter_latest.read_at < EXCLUDED.read_at`;
}

export async function upsertLatest(tx: Tx, rows: ReadingRow[]) {
  if (rows.length) await tx.execute(latestUpsertSql(rows));
}

/**
 * What follows stored readings, in one statement: meter_latest moves forward ({@link upsertLatest}),
 * the meters whose relay/valve state changed are written (online and last-seen are the gateway's, so
 * two writers never queue on one row), and the state the last successful valve command of each given
 * meter left it in (open or close) is returned.
 */
export async function afterReadings(
  tx: Tx,
  latest: ReadingRow[],
  state: { meterId: number; valve: number | null; at: number }[],
  valveMeterIds: number[],
): Promise<Map<number, { kind: string; at: Date }>> {
  const changed = state.filter((x) => x.valve !== null);
  const r = await tx.execute(sql`
    WITH latest AS (${latestUpsertSql(latest)}
    ), state AS (
      UPDATE meters m SET valve_state = v.valve, last_seen_at = greatest(m.last_seen_at, ${EPOCH_MS} v.t)
      FROM unnest(${intArr(changed.map((x) => x.meterId))}::bigint[], ${intArr(changed.map((x) => x.valve))}::int[],
        ${intArr(changed.map((x) => x.at))}::float8[]) AS v(id, valve, t)
      WHERE m.id = v.id AND m.valve_state IS DISTINCT FROM v.valve
    )
    SELECT DISTINCT ON (meter_id) meter_id, kind, finished_at FROM commands
    WHERE meter_id = ANY(${intArr(valveMeterIds)}::bigint[]) AND kind IN ('open', 'close') AND status = 'succeeded'
    ORDER BY meter_id, finished_at DESC`);
  return new Map(r.rows.map((x) => [Number(x.meter_id), { kind: String(x.kind), at: d(x.finished_at) }]));
}
