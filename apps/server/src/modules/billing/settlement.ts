import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import { afterBalanceChange } from './alarms.ts';
import { preparePostings, type Posting, type Wallet } from './ledger.ts';
import { EMPTY_STATE, apportion, type PeriodState, type PriceVersion } from './pricing.ts';
import { periodKey } from './period.ts';
import * as repo from './repo/index.ts';
import { periodsTouched, settleMeter, type Settled } from './settle.ts';

// Settlement (issue 5): every new good reading is priced and deducted exactly once.
//
// One batch of meters = one transaction: the meters' settle cursors are locked (a concurrent
// settlement of the same meter skips it, or waits for it), the good readings after each cursor are
// priced against the period states (settle.ts), and then — set-based, a handful of statements for
// the whole batch — the deductions are posted to the owners' wallets (ledger.postBatch, keys
// settle:<meterId>:<readAt ISO>), one settlement row per reading that consumed or cost something is
// written (unique per meter and read_at; a zero reading only moves the cursor), the period states and
// cursors move, and the alarm rules run on the changed balances.
// A crash anywhere rolls the whole batch back; the next run starts from the same cursors.
//
// Who pays: the current owner of the meter's room, from the wallet of the meter's kind. A vacant
// room's consumption is recorded (note 'vacant') and charged to nobody. A 公摊 meter's charge is
// apportioned over the occupied rooms below its area (by floor area or equally).

export const walletOf = (kind: number): Wallet => (kind === 2 ? 'water' : 'electric');

export interface SettleOptions {
  /** true: leave out meters another settlement holds (the sweep); false: wait for them */
  skipLocked: boolean;
  /** readings per meter in one batch (the rest stays pending for the next batch) */
  perMeter?: number;
}

export interface SettleResult {
  meters: number;
  readings: number;
  deductions: number;
  amountFen: number;
  /** valve commands requested by the alarm rules (closes and opens) */
  valves: number;
}

const EMPTY_RESULT: SettleResult = { meters: 0, readings: 0, deductions: 0, amountFen: 0, valves: 0 };

function toPriceVersions(rows: repo.VersionRow[]): Map<number, PriceVersion[]> {
  const out = new Map<number, PriceVersion[]>();
  for (const v of rows) {
    const list = out.get(v.schemeId) ?? [];
    list.push({
      effectiveFrom: v.effectiveFrom,
      mode: v.mode as PriceVersion['mode'],
      unitPrice: v.unitPrice,
      tiers: v.tiers,
      tou: v.tou,
      monthlyFeeFen: v.monthlyFeeFen,
      minimumChargeFen: v.minimumChargeFen,
    });
    out.set(v.schemeId, list);
  }
  return out;
}

const stateOf = (p: repo.PeriodRow): PeriodState => ({ quantity: p.quantity, exact: p.exact, chargedFen: p.chargedFen });

/** A floor area as an apportionment weight ('' or nonsense counts 0). */
const areaWeight = (s: string) => (/^\d+(\.\d+)?$/.test(s.trim()) ? s.trim() : '0');

/**
 * Settles the pending readings of these meters in the caller's transaction. Round trips per batch:
 * one statement locks the cursors and loads terms, readings, period states and the alarm ceiling
 * (repo.lockAndLoad); one loads the price versions; one locks the accounts (ledger.preparePostings);
 * one writes everything (repo.writeSettlementBatch); the alarm rules query only for accounts whose
 * balance could have crossed a threshold.
 */
export async function settleMeters(tx: Tx, meterIds: number[], o: SettleOptions): Promise<SettleResult> {
  const ids = [...new Set(meterIds)].sort((a, b) => a - b);
  if (!ids.length) return EMPTY_RESULT;
  const perMeter = o.perMeter ?? 500;
  let batch = await repo.lockAndLoad(tx, ids, o.skipLocked, perMeter);
  if (batch.meters.length < ids.length) {
    // meters settled for the first time get a cursor at their initial reading
    const have = new Set(batch.meters.map((l) => l.cursor.meterId));
    const missing = await repo.metersWithoutCursor(tx, ids.filter((id) => !have.has(id)));
    if (missing.length) {
      await repo.ensureCursors(tx, missing);
      // no accounts were locked (a cursor was missing): preparePostings locks them all, in id order
      const more = await repo.lockAndLoad(tx, missing, o.skipLocked, perMeter, false);
      batch = {
        meters: [...batch.meters, ...more.meters].sort((a, b) => a.cursor.meterId - b.cursor.meterId),
        versions: [...new Map([...batch.versions, ...more.versions].map((v) => [`${v.schemeId}:${v.effectiveFrom.getTime()}`, v])).values()],
        accounts: null,
      };
    }
  }
  const locked = batch.meters;
  if (!locked.length) return EMPTY_RESULT;
  const versions = toPriceVersions(batch.versions);
  // a meter out of use, or without a priced scheme, waits
  const active = locked.filter((l) => l.readings.length && l.terms.status === 1 && l.terms.schemeId != null && (versions.get(l.terms.schemeId)?.length ?? 0) > 0);
  if (!active.length) return EMPTY_RESULT;
  const ceiling = new Map(active.map((l) => [l.terms.companyId, l.alarmCeilingFen]));

  // price every meter's readings
  interface Done { t: repo.MeterTermsRow; settled: Settled[] }
  const done: Done[] = [];
  const periodRows: repo.BatchPeriodRow[] = [];
  const cursorRows: repo.BatchCursorRow[] = [];
  for (const { cursor: c, terms: t, readings: rs, periods } of active) {
    const meterId = t.id;
    const wanted = new Set(periodsTouched(t, c, rs));
    const states = new Map<string, PeriodState>();
    for (const p of periods) if (wanted.has(p.periodKey)) states.set(p.periodKey, stateOf(p));
    // the cursor's own period: its state is on the cursor row (newer than any meter_periods row)
    if (c.period && wanted.has(c.period.key)) states.set(c.period.key, { quantity: c.period.quantity, exact: c.period.exact, chargedFen: c.period.chargedFen });
    const r = settleMeter(
      { id: meterId, kind: t.kind, multiplier: t.multiplier, monthType: t.monthType, versions: versions.get(t.schemeId!)! },
      // the loaded rows as they are (settleMeter reads them, never changes them)
      c,
      rs,
      states,
    );
    done.push({ t, settled: r.settled });
    // the cursor keeps the state of the period its new reading is in; every other period touched (and
    // the one the cursor leaves) is kept in meter_periods
    const key = periodKey(r.cursor.readAt!, t.monthType);
    const keep = (periodKey: string, s: PeriodState) =>
      periodRows.push({ meterId, periodKey, companyId: t.companyId, quantity: s.quantity, exact: s.exact, chargedFen: s.chargedFen });
    for (const [k, s] of r.states) if (k !== key) keep(k, s);
    if (c.period && c.period.key !== key && !r.states.has(c.period.key)) keep(c.period.key, c.period);
    const now = r.states.get(key) ?? states.get(key) ?? EMPTY_STATE;
    cursorRows.push({ meterId, at: r.cursor.at!, total: r.cursor.total, registers: r.cursor.registers, periodKey: key, quantity: now.quantity, exact: now.exact, chargedFen: now.chargedFen });
  }

  // 公摊 targets of the shared meters in this batch
  const sharedAreas = [...new Set(done.map((d) => d.t.sharedAreaId).filter((x): x is number => x != null))];
  const targets = new Map<number, { roomId: number; ownerId: number; sizeM2: string }[]>();
  for (const x of await repo.shareTargets(tx, sharedAreas)) {
    const list = targets.get(x.areaId) ?? [];
    list.push(x);
    targets.set(x.areaId, list);
  }

  // the rows to write, and the postings that charge them
  const rows: repo.BatchSettlementRow[] = [];
  const postings: Posting[] = [];
  /** posting index → settlement row index (for the journal id and a refusal) */
  const postingRow: number[] = [];
  let readings = 0;
  for (const { t, settled } of done) {
    const wallet = walletOf(t.kind);
    for (const s of settled) {
      readings++;
      // a reading that consumed nothing and costs nothing only moves the cursor: no settlement row.
      // Meters report every few minutes, and /copyread filled with thousands of 0.0000 rows a
      // property manager has no use for; the next row that consumed something starts from the same
      // register value. A register that went back ('backwards') is always recorded.
      if (s.note === '' && s.amountFen === 0 && Number(s.quantity) === 0) continue;
      const at = s.at;
      const row: repo.BatchSettlementRow = {
        companyId: t.companyId,
        meterId: t.id,
        ownerId: t.sharedAreaId == null ? t.ownerId : null,
        roomId: t.roomId,
        at: s.at,
        prevAt: s.prevAt,
        prevTotal: s.prevTotal,
        total: s.total,
        quantity: s.quantity,
        amountFen: s.amountFen,
        lines: s.lines,
        periodKey: s.periodKey,
        journalIndex: null,
        meterKind: t.kind,
        note: s.note,
      };
      rows.push(row);
      const memo = `抄表扣费（读数 ${s.prevTotal} → ${s.total}，用量 ${s.quantity}）`;
      if (t.sharedAreaId != null) {
        if (s.note === '') row.note = 'shared';
        if (s.amountFen <= 0) continue;
        const rooms = targets.get(t.sharedAreaId) ?? [];
        const shares = apportion(s.amountFen, rooms.map((x) => ({ id: x.ownerId, weight: t.sharedMethod === 2 ? '1' : areaWeight(x.sizeM2) })));
        for (const sh of shares) {
          if (sh.fen <= 0) continue;
          const room = rooms.find((x) => x.ownerId === sh.id)!;
          postings.push({
            companyId: t.companyId, ownerId: sh.id, roomId: room.roomId, wallet, kind: 'deduction', amountFen: sh.fen,
            idempotencyKey: `share:${t.id}:${at}:${sh.id}`, refType: 'share', memo: `公摊${wallet === 'water' ? '水' : '电'}费分摊（表具用量 ${s.quantity}）`,
          });
          postingRow.push(rows.length - 1);
        }
        continue;
      }
      if (t.ownerId == null) {
        if (s.note === '') row.note = 'vacant';
        continue;
      }
      if (s.amountFen <= 0) continue;
      postings.push({
        companyId: t.companyId, ownerId: t.ownerId, roomId: t.roomId, wallet, kind: 'deduction', amountFen: s.amountFen,
        idempotencyKey: `settle:${t.id}:${at}`, refType: 'settlement', memo,
      });
      postingRow.push(rows.length - 1);
    }
  }

  const prepared = await preparePostings(tx, postings, { skipClosed: true, freshKeys: true, locked: batch.accounts ?? undefined });
  // every journal row names its settlement (ref_id); a reading's own deduction is its journal_id
  const journal: repo.BatchJournalRow[] = prepared.rows.map((r) => ({
    settlementIndex: -1, companyId: r.companyId, accountId: r.accountId, ownerId: r.ownerId, roomId: r.roomId ?? null, wallet: r.wallet,
    kind: r.kind, amountFen: r.amountFen, balanceAfterFen: r.balanceAfterFen, idempotencyKey: r.idempotencyKey,
    payMethod: r.payMethod ?? 'system', refType: r.refType ?? '', memo: r.memo ?? '',
  }));
  prepared.rowOf.forEach((j, k) => {
    const row = rows[postingRow[k]];
    if (j == null) {
      if (prepared.refused.has(k) && row.note === '') row.note = 'closed';
      return;
    }
    const index = j < 0 ? -1 - j : j;
    journal[index].settlementIndex = postingRow[k];
    if (row.note !== 'shared') row.journalIndex = index;
  });
  const written = await repo.writeSettlementBatch(tx, { journal, balances: prepared.balances, settlements: rows, periods: periodRows, cursors: cursorRows });
  // the cursor lock makes this impossible; should it ever happen, nothing of this batch may stand
  if (written.inserted !== rows.length) throw new Error(`settlement: ${rows.length - written.inserted} reading(s) were already settled`);
  const outcome = prepared.resolve(written.journalIds);
  let deductions = 0;
  let amountFen = 0;
  for (const p of outcome.posted) {
    if (p && !p.duplicate) {
      deductions++;
      amountFen += -p.amountFen;
    }
  }
  // from level 0, a balance still above every alarm threshold of its company changes nothing
  const moves = outcome.moves.filter((m) => {
    const top = ceiling.get(m.companyId);
    return !(m.alarmLevel === 0 && (top == null || m.afterFen > top));
  });
  const alarms = await afterBalanceChange(tx, moves);
  return { meters: done.length, readings, deductions, amountFen, valves: alarms.closes + alarms.opens };
}

/** Settles everything pending for these meters now (waiting for a concurrent settlement of them). */
export async function settleAllPending(tx: Tx, meterIds: number[]): Promise<SettleResult> {
  const sum = { ...EMPTY_RESULT };
  for (;;) {
    const r = await settleMeters(tx, meterIds, { skipLocked: false, perMeter: 5000 });
    sum.meters = Math.max(sum.meters, r.meters);
    sum.readings += r.readings;
    sum.deductions += r.deductions;
    sum.amountFen += r.amountFen;
    sum.valves += r.valves;
    if (r.readings === 0) return sum;
  }
}

export interface SweepOptions {
  /** meters per transaction */
  batchSize?: number;
  /** transactions at the same time */
  concurrency?: number;
  perMeter?: number;
  log?: (msg: string, err?: unknown) => void;
}

/**
 * One sweep over every meter with pending readings, in batches; `concurrency` workers each take the
 * next batch as soon as their last one commits, each batch in its own transaction (SKIP LOCKED:
 * several processes share the work), while the next page of pending meters is fetched ahead. A batch
 * that fails is retried meter by meter, so one bad meter holds up only itself.
 */
export async function sweep(db: Db, o: SweepOptions = {}): Promise<SettleResult> {
  const batchSize = o.batchSize ?? 500;
  const concurrency = o.concurrency ?? 2;
  const sum = { ...EMPTY_RESULT };
  const add = (r: SettleResult) => {
    sum.meters += r.meters;
    sum.readings += r.readings;
    sum.deductions += r.deductions;
    sum.amountFen += r.amountFen;
    sum.valves += r.valves;
  };
  const run = async (ids: number[]) => {
    try {
      add(await db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, ids, { skipLocked: true, perMeter: o.perMeter })));
    } catch (e) {
      if (ids.length === 1) {
        o.log?.(`表具 ${ids[0]} 结算失败`, e);
        return;
      }
      for (const id of ids) await run([id]);
    }
  };
  const pageSize = batchSize * concurrency;
  // one round trip a page (scope and statement together, db.read): a page only reads
  const page = (after: number) => db.read(SYSTEM_SCOPE, (r) => repo.pendingMeters(r, after, pageSize));
  // batches waiting for a worker; the next page is fetched while they run
  const queue: number[][] = [];
  let after = 0;
  let done = false;
  let failure: unknown = null;
  let fetching: Promise<void> | null = null;
  const fill = () =>
    (fetching ??= (async () => {
      try {
        const ids = await page(after);
        for (let k = 0; k < ids.length; k += batchSize) queue.push(ids.slice(k, k + batchSize));
        if (ids.length < pageSize) done = true;
        else after = ids[ids.length - 1];
      } catch (e) {
        failure = e;
        done = true;
      } finally {
        fetching = null;
      }
    })());
  const take = async (): Promise<number[] | undefined> => {
    for (;;) {
      if (failure) throw failure;
      const ids = queue.shift();
      if (ids) {
        if (queue.length < concurrency && !done) void fill();
        return ids;
      }
      if (done && !fetching) return undefined;
      await fill();
    }
  };
  const worker = async () => {
    for (let ids = await take(); ids; ids = await take()) await run(ids);
  };
  try {
    await Promise.all(Array.from({ length: concurrency }, worker));
  } finally {
    await fetching;
  }
  if (failure) throw failure;
  return sum;
}
