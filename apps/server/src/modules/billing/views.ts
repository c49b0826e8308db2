import { fenToYuan } from '@meter/contracts';
import { now as clock } from '../../clock.ts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { KIND_LABELS, RECEIPT_METHODS, WALLET_LABELS, type Kind, type Wallet } from './ledger.ts';
import { monthKey, monthRange, rangeOf } from './period.ts';
import * as repo from './repo/index.ts';
import { supplyOf, type Supply } from './supply.ts';
import * as supplyRepo from './supply-repo.ts';
import { PAY_METHODS, TRANSACTION_TYPES } from './schema.ts';

// The read side of billing: rooms with their balances (/energy, /compre), the journal (statistics,
// payments, reconciliation, deductions), settlements (/copyread) and bills. Amounts leave as 元
// strings with 2 decimals; moments as 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai).

const yuan = (fen: unknown) => fenToYuan(Number(fen ?? 0));
const restricted = (ctx: Ctx) => ctx.scope.areaIds != null;
/** level 3 is 欠费: whether the supply is off is the meters' read-back (supply.ts), never the level alone */
export const ALARM_TEXT: Record<number, string> = { 0: '正常', 1: '低于报警1', 2: '低于报警2', 3: '欠费' };
export const NOTE_TEXT: Record<string, string> = { '': '已扣费', vacant: '空置未扣费', shared: '公摊分摊', backwards: '换表/读数回退（未计费）', closed: '已销户未扣费' };

// ---- rooms ------------------------------------------------------------------------------------------

export interface EnergyRoomQueryInput extends Omit<repo.EnergyRoomFilter, 'companyId'> {
  index: number;
  size: number;
}

const roomFilter = (ctx: Ctx, q: Omit<EnergyRoomQueryInput, 'index' | 'size'>): repo.EnergyRoomFilter => ({
  companyId: ctx.scope.companyId,
  searchArea: q.searchArea,
  roomName: q.roomName,
  ownerName: q.ownerName,
  ownerPhone: q.ownerPhone,
  arrears: q.arrears,
  alarm: q.alarm,
});

/** The supply state of the accounts in arrears among these (id → state), for the lists and details. */
async function suppliesOf(tx: Tx, accountIds: (number | null)[]) {
  const facts = await supplyRepo.supplyFacts(tx, accountIds.filter((id): id is number => id != null));
  const at = clock(); // the server's clock, as the no-disconnect rule reads it
  return new Map([...facts].map(([id, f]) => [id, supplyOf(f, at)]));
}

const alarmText = (level: unknown, supply: Supply | null | undefined) => supply?.text ?? ALARM_TEXT[Number(level)] ?? '';

function presentRoom(x: Record<string, unknown>, supplies: Map<number, Supply | null>) {
  const { electricFen, waterFen, otherFen, monthPaidFen, electricAccountId, waterAccountId, ...rest } = x;
  const es = supplies.get(Number(electricAccountId));
  const ws = supplies.get(Number(waterAccountId));
  return {
    ...rest,
    electricBalance: yuan(electricFen),
    waterBalance: yuan(waterFen),
    electricAlarmText: alarmText(x.electricAlarm, es),
    waterAlarmText: alarmText(x.waterAlarm, ws),
    /** off 已断电, closing 断电中, pending 待断电 (electricCloseAt: when), protected, on 未断电, none; null when not in arrears */
    electricSupply: es?.state ?? null,
    electricCloseAt: es?.closeAt ?? null,
    waterSupply: ws?.state ?? null,
    waterCloseAt: ws?.closeAt ?? null,
    ...(otherFen !== undefined && { otherBalance: yuan(otherFen), monthPaid: yuan(monthPaidFen) }),
  };
}

export function energyRooms(ctx: Ctx, q: EnergyRoomQueryInput, synthesize = false) {
  return ctx.tx(async (tx) => {
    const r = await repo.energyRooms(tx, roomFilter(ctx, q), q.size, offsetOf(q), synthesize);
    const arrears = r.rows.flatMap((x) => [Number(x.electricAlarm) === 3 ? Number(x.electricAccountId) : null, Number(x.waterAlarm) === 3 ? Number(x.waterAccountId) : null]);
    const supplies = await suppliesOf(tx, arrears);
    return new Page(r.rows.map((x) => presentRoom(x, supplies)), r.count);
  });
}

export function energyRoomSum(ctx: Ctx, q: Omit<EnergyRoomQueryInput, 'index' | 'size'>) {
  return ctx.tx(async (tx) => {
    const s = await repo.energyRoomSum(tx, roomFilter(ctx, q));
    return {
      rooms: s.rooms,
      occupied: s.occupied,
      electricBalance: yuan(s.electricFen),
      waterBalance: yuan(s.waterFen),
      arrearsRooms: s.arrearsRooms,
      arrears: yuan(s.arrearsFen),
      alarmRooms: s.alarmRooms,
    };
  });
}

export function energyRoomDetail(ctx: Ctx, roomId: number) {
  return ctx.tx(async (tx) => {
    const ro = await repo.roomOwner(tx, roomId);
    if (!ro) throw notFound('房间');
    const accounts = ro.ownerId ? await repo.roomAccounts(tx, ro.ownerId) : [];
    const meters = await repo.roomMeterDetails(tx, roomId);
    const journal = ro.ownerId ? await repo.recentJournal(tx, ro.ownerId, 20) : [];
    const plans = await repo.listSubsidyPlans(tx, { companyId: null, roomId }, 50, 0);
    const supplies = await suppliesOf(tx, accounts.filter((a) => a.alarmLevel === 3).map((a) => a.id));
    return {
      room: { id: ro.roomId, name: ro.roomName, areaId: ro.areaId, path: ro.path },
      owner: ro.ownerId ? { id: ro.ownerId, name: ro.ownerName, phone: ro.ownerPhone } : null,
      accounts: accounts.map(({ balanceFen, ...a }) => ({
        ...a, walletText: WALLET_LABELS[a.wallet as Wallet] ?? a.wallet, balance: yuan(balanceFen), alarmText: alarmText(a.alarmLevel, supplies.get(a.id)),
        supply: supplies.get(a.id)?.state ?? null, closeAt: supplies.get(a.id)?.closeAt ?? null,
      })),
      meters: meters.map((m) => ({ ...m, unit: Number(m.kind) === 2 ? 'm³' : 'kWh' })),
      journal: journal.map(presentJournal),
      subsidyPlans: plans.rows.map(presentPlan),
    };
  });
}

// ---- the owner app (业主端): one owner's accounts and journal, in the owner's own transaction ---------

/** An owner's accounts: balance, alarm level and the supply's real state (as /energy shows them). */
export async function ownerAccounts(tx: Tx, ownerId: number) {
  const accounts = await repo.roomAccounts(tx, ownerId);
  const supplies = await suppliesOf(tx, accounts.filter((a) => a.alarmLevel === 3).map((a) => a.id));
  return accounts.map((a) => ({
    wallet: a.wallet, walletText: WALLET_LABELS[a.wallet as Wallet] ?? a.wallet, balance: yuan(a.balanceFen), alarmLevel: a.alarmLevel,
    alarmText: alarmText(a.alarmLevel, supplies.get(a.id)), supply: supplies.get(a.id)?.state ?? null, status: a.status,
  }));
}

/** An owner's journal, newest first. */
export async function ownerJournal(tx: Tx, ownerId: number, limit: number, offset: number) {
  const r = await repo.listJournal(tx, { companyId: null, areaRestricted: false, ownerId }, limit, offset);
  return { rows: r.rows.map(presentJournal), count: r.count };
}

// ---- the journal ------------------------------------------------------------------------------------

export function presentJournal(x: Record<string, unknown>) {
  const { amountFen, balanceAfterFen, ...rest } = x;
  return {
    ...rest,
    walletText: WALLET_LABELS[x.wallet as Wallet] ?? String(x.wallet),
    kindText: KIND_LABELS[x.kind as Kind] ?? String(x.kind),
    payMethodText: PAY_METHODS[x.payMethod as keyof typeof PAY_METHODS] ?? String(x.payMethod),
    amount: yuan(amountFen),
    balanceAfter: yuan(balanceAfterFen),
    audited: x.auditedAt != null,
  };
}

export interface JournalQueryInput {
  index?: number;
  size?: number;
  searchArea?: number;
  startTime?: string;
  endTime?: string;
  roomName?: string;
  ownerName?: string;
  wallet?: string;
  payMethod?: string;
  roomId?: number;
  audited?: number;
  meterKind?: number;
}

export function journalFilter(ctx: Ctx, q: JournalQueryInput, kinds?: string[]): repo.JournalFilter {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return {
    companyId: ctx.scope.companyId,
    areaRestricted: restricted(ctx),
    searchArea: q.searchArea,
    kinds,
    wallet: q.wallet,
    payMethod: q.payMethod,
    roomId: q.roomId,
    roomName: q.roomName,
    ownerName: q.ownerName,
    from,
    to,
    audited: q.audited,
    meterKind: q.meterKind,
  };
}

async function journalPage(ctx: Ctx, q: JournalQueryInput & { index: number; size: number }, kinds: string[] | undefined, withSettlement = false) {
  return ctx.tx(async (tx) => {
    const r = await repo.listJournal(tx, journalFilter(ctx, q, kinds), q.size, offsetOf(q), withSettlement);
    return new Page(r.rows.map(presentJournal), r.count);
  });
}

/** Statistics/list: every money movement, by transactionType (0 all). */
export const statistics = (ctx: Ctx, q: JournalQueryInput & { index: number; size: number; transactionType: number }) =>
  journalPage(ctx, q, TRANSACTION_TYPES[q.transactionType]);

/** the money rows of /notesPay and /financerecode: 冲正 (a voided counter receipt) shows beside its original */
export const MONEY_KINDS = ['prepay', 'refund', 'subsidy', 'opening', 'reversal'];
const RECEIPT = new Set<string>(RECEIPT_METHODS);
/** userpaymentlog/Paymentlist: money paid in and out (prepay, refund, subsidy) and opening balances. */
export const payments = (ctx: Ctx, q: JournalQueryInput & { index: number; size: number; kind?: string }) =>
  journalPage(ctx, q, q.kind ? [q.kind] : MONEY_KINDS);
/** userpaymentlog/dataAuditlist: the same rows with their audit state (filter audited 0/1). */
export const auditList = (ctx: Ctx, q: JournalQueryInput & { index: number; size: number }) => journalPage(ctx, q, MONEY_KINDS);
/** userpaymentlog/deductionDetail: deductions and fees, with the reading each deduction charged. */
export const deductions = (ctx: Ctx, q: JournalQueryInput & { index: number; size: number }) => journalPage(ctx, q, ['deduction', 'fee'], true);

/** userpaymentlog/DataSum: totals of the reconciliation filter. */
export function auditSum(ctx: Ctx, q: JournalQueryInput) {
  return ctx.tx(async (tx) => {
    const rows = await repo.sumJournal(tx, journalFilter(ctx, q, MONEY_KINDS));
    const by = (pick: (r: (typeof rows)[number]) => string, labels: Record<string, string>) => {
      const m = new Map<string, { count: number; amountFen: number }>();
      for (const r of rows) {
        const k = pick(r);
        const x = m.get(k) ?? { count: 0, amountFen: 0 };
        x.count += r.count;
        x.amountFen += r.amountFen;
        m.set(k, x);
      }
      return [...m].map(([k, v]) => ({ key: k, text: labels[k] ?? k, count: v.count, amount: yuan(v.amountFen) }));
    };
    const total = (f: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + f(r), 0);
    // income is money received only (a prepay by cash, WeChat, Alipay or bank); subsidies, system
    // credits and opening balances are credited but never income (issue 11 item 9)
    const sumWhere = (pred: (r: (typeof rows)[number]) => boolean) => total((r) => (pred(r) ? r.amountFen : 0));
    const inFen = sumWhere((r) => r.kind === 'prepay' && RECEIPT.has(r.payMethod));
    const outFen = -sumWhere((r) => r.kind === 'refund');
    // 冲正 of money received (signed: a voided top-up takes it back, a voided refund gives it back)
    const revFen = sumWhere((r) => r.kind === 'reversal' && RECEIPT.has(r.payMethod));
    return {
      count: total((r) => r.count),
      income: yuan(inFen),
      expense: yuan(outFen),
      reversal: yuan(revFen),
      net: yuan(inFen - outFen + revFen),
      subsidy: yuan(sumWhere((r) => r.kind === 'subsidy')),
      systemCredit: yuan(sumWhere((r) => r.kind === 'prepay' && !RECEIPT.has(r.payMethod))),
      opening: yuan(sumWhere((r) => r.kind === 'opening')),
      auditedCount: total((r) => r.auditedCount),
      audited: yuan(total((r) => r.auditedFen)),
      unauditedCount: total((r) => r.count - r.auditedCount),
      unaudited: yuan(total((r) => r.amountFen - r.auditedFen)),
      byKind: by((r) => r.kind, KIND_LABELS),
      byPayMethod: by((r) => r.payMethod, PAY_METHODS),
      byWallet: by((r) => r.wallet, WALLET_LABELS),
    };
  });
}

/** userpaymentlog/deductionDetailDataSum. */
export function deductionSum(ctx: Ctx, q: JournalQueryInput) {
  return ctx.tx(async (tx) => {
    const f = journalFilter(ctx, q, ['deduction', 'fee']);
    const rows = await repo.sumJournal(tx, f);
    const qty = await repo.deductionQuantity(tx, f);
    const sum = (pred: (r: (typeof rows)[number]) => boolean) => rows.filter(pred).reduce((s, r) => ({ n: s.n + r.count, a: s.a - r.amountFen }), { n: 0, a: 0 });
    const all = sum(() => true);
    const e = sum((r) => r.wallet === 'electric' && r.kind === 'deduction');
    const w = sum((r) => r.wallet === 'water' && r.kind === 'deduction');
    const fee = sum((r) => r.kind === 'fee');
    return {
      count: all.n,
      amount: yuan(all.a),
      electric: { count: e.n, amount: yuan(e.a), quantity: qty.find((x) => x.meterKind === 1)?.quantity ?? '0' },
      water: { count: w.n, amount: yuan(w.a), quantity: qty.find((x) => x.meterKind === 2)?.quantity ?? '0' },
      fees: { count: fee.n, amount: yuan(fee.a) },
    };
  });
}

// ---- settlements --------------------------------------------------------------------------------------

export interface SettlementQueryInput extends repo.SettlementMatch {
  startTime?: string;
  endTime?: string;
}

export function settlementFilter(ctx: Ctx, q: SettlementQueryInput): repo.SettlementFilter {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return { companyId: ctx.scope.companyId, searchArea: q.searchArea, roomName: q.roomName, ownerName: q.ownerName, meterName: q.meterName, address: q.address, meterKind: q.meterKind, meterId: q.meterId, roomId: q.roomId, from, to };
}

export function presentSettlement(x: Record<string, unknown>) {
  const { amountFen, readAtIso: _iso, ...rest } = x;
  return { ...rest, amount: yuan(amountFen), noteText: NOTE_TEXT[String(x.note)] ?? String(x.note), unit: Number(x.meterKind) === 2 ? 'm³' : 'kWh' };
}

export function settlements(ctx: Ctx, q: SettlementQueryInput & { index: number; size: number }) {
  return ctx.tx(async (tx) => {
    const r = await repo.listSettlements(tx, settlementFilter(ctx, q), q.size, offsetOf(q));
    return new Page(r.rows.map(presentSettlement), r.count);
  });
}

export function settlementData(ctx: Ctx, q: SettlementQueryInput) {
  return ctx.tx(async (tx) => {
    const s = await repo.settlementSummary(tx, settlementFilter(ctx, q));
    const kind = (k: number) => {
      const x = s.byKind.find((b) => b.meterKind === k);
      return { count: x?.count ?? 0, quantity: x?.quantity ?? '0', amount: yuan(x?.amountFen ?? 0), vacant: x?.vacant ?? 0 };
    };
    const last = s.byKind.map((b) => b.last).filter(Boolean).sort().pop() ?? null;
    return {
      electric: kind(1),
      water: kind(2),
      count: s.byKind.reduce((n, b) => n + b.count, 0),
      amount: yuan(s.byKind.reduce((n, b) => n + b.amountFen, 0)),
      pendingMeters: s.pendingMeters,
      noSchemeMeters: s.noSchemeMeters,
      lastSettledAt: last,
    };
  });
}

// ---- bills ----------------------------------------------------------------------------------------------

const monthOf = (m?: string) => monthRange(m ?? monthKey(new Date()));

export function ownerBills(ctx: Ctx, q: { index: number; size: number; month?: string; searchArea?: number; roomName?: string; ownerName?: string }) {
  const { start, end } = monthOf(q.month);
  return ctx.tx(async (tx) => {
    const r = await repo.ownerBills(tx, { companyId: ctx.scope.companyId, areaRestricted: restricted(ctx), searchArea: q.searchArea, roomName: q.roomName, ownerName: q.ownerName, from: start, to: end }, q.size, offsetOf(q));
    const month = q.month ?? monthKey(new Date());
    return new Page(
      r.rows.map((x) => {
        const e = -Number(x.electricFen);
        const w = -Number(x.waterFen);
        const fees = -Number(x.feesFen);
        const eb = Number(x.electricBalanceFen);
        const wb = Number(x.waterBalanceFen);
        const arrears = Math.max(0, -eb) + Math.max(0, -wb);
        return {
          month,
          ownerId: x.ownerId, ownerName: x.ownerName, ownerPhone: x.ownerPhone, roomId: x.roomId, roomName: x.roomName,
          electricQuantity: x.electricQuantity, electricAmount: yuan(e),
          waterQuantity: x.waterQuantity, waterAmount: yuan(w),
          fees: yuan(fees), total: yuan(e + w + fees),
          prepay: yuan(x.prepayFen), refund: yuan(-Number(x.refundFen)), subsidy: yuan(x.subsidyFen),
          electricBalance: yuan(eb), waterBalance: yuan(wb), arrears: yuan(arrears),
          status: arrears > 0 ? 0 : 1,
          statusText: arrears > 0 ? '欠费待缴' : '已结清',
        };
      }),
      r.count,
    );
  });
}

export function meterBills(ctx: Ctx, q: { index: number; size: number; month?: string; SchemeType?: number | ''; searchArea?: number; roomName?: string; ownerName?: string }) {
  const { start, end } = monthOf(q.month);
  return ctx.tx(async (tx) => {
    const f = { companyId: ctx.scope.companyId, searchArea: q.searchArea, roomName: q.roomName, ownerName: q.ownerName, meterKind: q.SchemeType === '' ? undefined : q.SchemeType, from: start, to: end };
    const r = await repo.meterBills(tx, f, q.size, offsetOf(q));
    const month = q.month ?? monthKey(new Date());
    return new Page(r.rows.map(({ amountFen, ...x }) => ({ month, ...x, amount: yuan(amountFen), unit: Number(x.meterKind) === 2 ? 'm³' : 'kWh' })), r.count);
  });
}

// ---- room timed subsidies --------------------------------------------------------------------------

export function presentPlan(x: Record<string, unknown>) {
  const { amountFen, ...rest } = x;
  return { ...rest, amount: yuan(amountFen), walletText: WALLET_LABELS[x.wallet as Wallet] ?? String(x.wallet) };
}

export function subsidyPlans(ctx: Ctx, q: { index: number; size: number; searchArea?: number; roomName?: string; enabled?: number }) {
  return ctx.tx(async (tx) => {
    const r = await repo.listSubsidyPlans(tx, { companyId: ctx.scope.companyId, searchArea: q.searchArea, roomName: q.roomName, enabled: q.enabled }, q.size, offsetOf(q));
    return new Page(r.rows.map(presentPlan), r.count);
  });
}
