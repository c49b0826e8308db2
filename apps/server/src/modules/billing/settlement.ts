import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import { afterBalanceChange } from './alarms.ts';
import { postBatch, type Posting, type Wallet } from './ledger.ts';
import { apportion, type PeriodState, type PriceVersion } from './pricing.ts';
import * as repo from './repo.ts';
import { periodsTouched, settleMeter, type Settled } from './settle.ts';

// Settlement (issue 5): every new good reading is priced and deducted exactly once.
//
// One batch of meters = one transaction: the meters' settle cursors are locked (a concurrent
// settlement of the same meter skips it, or waits for it), the good readings after each cursor are
// priced against the period states (settle.ts), and then — set-based, a handful of statements for
// the whole batch — the deductions are posted to the owners' wallets (ledger.postBatch, keys
// settle:<meterId>:<readAt ISO>), one settlement row per reading is written (unique per meter and
// read_at), the period states and cursors move, and the alarm rules run on the changed balances.
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

/** Settles the pending readings of these meters in the caller's transaction. */
export async function settleMeters(tx: Tx, meterIds: number[], o: SettleOptions): Promise<SettleResult> {
  const ids = [...new Set(meterIds)].sort((a, b) => a - b);
  if (!ids.length) return EMPTY_RESULT;
  await repo.ensureCursors(tx, ids);
  const cursors = await repo.lockCursors(tx, ids, o.skipLocked);
  if (!cursors.length) return EMPTY_RESULT;
  const terms = new Map((await repo.meterTerms(tx, cursors.map((c) => c.meterId))).map((t) => [t.id, t]));
  const versions = toPriceVersions(await repo.schemeVersions(tx, [...new Set([...terms.values()].map((t) => t.schemeId).filter((x): x is number => x != null))]));
  // a meter out of use, or without a priced scheme, waits
  const active = cursors.filter((c) => {
    const t = terms.get(c.meterId);
    return t && t.status === 1 && t.schemeId != null && (versions.get(t.schemeId)?.length ?? 0) > 0;
  });
  const readings = await repo.pendingReadings(tx, active.map((c) => ({ meterId: c.meterId, after: c.at })), o.perMeter ?? 500);
  if (!readings.length) return EMPTY_RESULT;
  const byMeter = new Map<number, repo.PendingReading[]>();
  for (const r of readings) {
    const list = byMeter.get(r.meterId) ?? [];
    list.push(r);
    byMeter.set(r.meterId, list);
  }

  const cursorOf = new Map(active.map((c) => [c.meterId, c]));
  const wanted: { meterId: number; periodKey: string }[] = [];
  for (const [meterId, rs] of byMeter) {
    const t = terms.get(meterId)!;
    for (const k of periodsTouched(t, cursorOf.get(meterId)!, rs)) wanted.push({ meterId, periodKey: k });
  }
  const states = new Map<number, Map<string, PeriodState>>();
  for (const p of await repo.periodStates(tx, wanted)) {
    const m = states.get(p.meterId) ?? new Map<string, PeriodState>();
    m.set(p.periodKey, stateOf(p));
    states.set(p.meterId, m);
  }

  // price every meter's readings
  interface Done { t: repo.MeterTermsRow; settled: Settled[] }
  const done: Done[] = [];
  const periodRows: repo.PeriodRow[] = [];
  const cursorRows: Parameters<typeof repo.updateCursors>[1] = [];
  for (const [meterId, rs] of byMeter) {
    const t = terms.get(meterId)!;
    const c = cursorOf.get(meterId)!;
    const r = settleMeter(
      { id: meterId, kind: t.kind, multiplier: t.multiplier, monthType: t.monthType, versions: versions.get(t.schemeId!)! },
      { at: c.at, readAt: c.readAt, total: c.total, registers: c.registers },
      rs.map((x) => ({ at: x.at, readAt: x.readAt, total: x.total, registers: x.registers })),
      states.get(meterId) ?? new Map(),
    );
    done.push({ t, settled: r.settled });
    for (const [periodKey, s] of r.states) {
      periodRows.push({ meterId, periodKey, companyId: t.companyId, quantity: s.quantity, exact: s.exact, chargedFen: s.chargedFen });
    }
    cursorRows.push({ meterId, at: r.cursor.at!, total: r.cursor.total, registers: r.cursor.registers });
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
  const total = done.reduce((n, d) => n + d.settled.length, 0);
  const settlementIds = await repo.nextSettlementIds(tx, total);
  const rows: repo.SettlementRow[] = [];
  const postings: Posting[] = [];
  /** posting index → settlement row index (for the journal id and a refusal) */
  const postingRow: number[] = [];
  let i = 0;
  for (const { t, settled } of done) {
    const wallet = walletOf(t.kind);
    for (const s of settled) {
      const id = settlementIds[i++];
      const at = s.at;
      const row: repo.SettlementRow = {
        id,
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
        journalId: null,
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
            idempotencyKey: `share:${t.id}:${at}:${sh.id}`, refType: 'share', refId: id, memo: `公摊${wallet === 'water' ? '水' : '电'}费分摊（表具用量 ${s.quantity}）`,
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
        idempotencyKey: `settle:${t.id}:${at}`, refType: 'settlement', refId: id, memo,
      });
      postingRow.push(rows.length - 1);
    }
  }

  const outcome = await postBatch(tx, postings, { skipClosed: true, freshKeys: true });
  let deductions = 0;
  let amountFen = 0;
  outcome.posted.forEach((p, k) => {
    const row = rows[postingRow[k]];
    if (p) {
      if (row.note !== 'shared') row.journalId = p.journalId;
      if (!p.duplicate) {
        deductions++;
        amountFen += -p.amountFen;
      }
    } else if (outcome.refused.has(k) && row.note === '') row.note = 'closed';
  });
  const inserted = await repo.insertSettlements(tx, rows);
  // the cursor lock makes this impossible; should it ever happen, nothing of this batch may stand
  if (inserted !== rows.length) throw new Error(`settlement: ${rows.length - inserted} reading(s) were already settled`);
  await repo.upsertPeriods(tx, periodRows);
  await repo.updateCursors(tx, cursorRows);
  const alarms = await afterBalanceChange(tx, outcome.moves);
  return { meters: done.length, readings: rows.length, deductions, amountFen, valves: alarms.closes + alarms.opens };
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
 * One sweep over every meter with pending readings, in batches; batches run `concurrency` at a time,
 * each in its own transaction (SKIP LOCKED: several workers share the work). A batch that fails is
 * retried meter by meter, so one bad meter holds up only itself.
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
  let after = 0;
  for (;;) {
    const ids = await db.tx(SYSTEM_SCOPE, (tx) => repo.pendingMeters(tx, after, batchSize * concurrency));
    if (!ids.length) return sum;
    const chunks: number[][] = [];
    for (let k = 0; k < ids.length; k += batchSize) chunks.push(ids.slice(k, k + batchSize));
    await Promise.all(chunks.map(run));
    after = ids[ids.length - 1];
  }
}

