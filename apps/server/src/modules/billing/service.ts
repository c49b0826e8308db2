import QRCode from 'qrcode';
import { BANK_NAMES, amountToChinese, fenToYuan } from '@meter/contracts';
import type { Ctx } from '../../http/context.ts';
import { configOf } from '../company/index.ts';
import { Page } from '../../http/envelope.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { KIND_LABELS, WALLET_LABELS } from './ledger.ts';
import { dayKey, rangeOf } from './period.ts';
import * as repo from './repo/index.ts';
import type { AddRoomSubsidyInput } from './schema.ts';
import { PAY_METHODS } from './schema.ts';
import { settleAllPending } from './settlement.ts';

// Billing services beside the counter: receipts (/billprint), room timed subsidies, the finance
// audit of journal rows, settling on demand, 公摊 meters and the billing figures of /home.

const yuan = (fen: unknown) => fenToYuan(Number(fen ?? 0));
const restricted = (ctx: Ctx) => ctx.scope.areaIds != null;
const operatorName = (ctx: Ctx) => ctx.user.realName || ctx.user.username;

// ---- receipts -----------------------------------------------------------------------------------------

export const RECEIPT_KINDS: Record<string, string> = { prepay: '充值', refund: '退费', subsidy: '补贴', billPay: '账单缴费', business: '综合缴费', close: '销户退费' };

function presentReceipt(x: Record<string, unknown>) {
  const { amountFen, items, ...rest } = x;
  return {
    ...rest,
    kindText: RECEIPT_KINDS[String(x.kind)] ?? String(x.kind),
    payMethodText: PAY_METHODS[x.payMethod as keyof typeof PAY_METHODS] ?? String(x.payMethod),
    amount: yuan(amountFen),
    items: ((items ?? []) as { item: string; amountFen: number }[]).map((i) => ({ item: i.item, amount: yuan(i.amountFen) })),
  };
}

export function receipts(ctx: Ctx, q: { index: number; size: number; searchArea?: number; startTime?: string; endTime?: string; no?: string; roomName?: string; ownerName?: string; kind?: string }, kinds?: string[]) {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return ctx.tx(async (tx) => {
    const r = await repo.listReceipts(tx, { companyId: ctx.scope.companyId, areaRestricted: restricted(ctx), searchArea: q.searchArea, no: q.no, roomName: q.roomName, ownerName: q.ownerName, kind: q.kind, kinds, from, to }, q.size, offsetOf(q));
    return new Page(r.rows.map(presentReceipt), r.count);
  });
}

/**
 * A QR code as a data URL (SPEC §9: version 4, error correction M, 500 px); the version rises up to
 * 40 when the text needs it.
 */
export async function qrDataUrl(text: string): Promise<string> {
  const needed = QRCode.create(text, { errorCorrectionLevel: 'M' }).version;
  return QRCode.toDataURL(text, { version: Math.max(4, needed), errorCorrectionLevel: 'M', width: 500, margin: 1 });
}

export async function receiptDetail(ctx: Ctx, id: number) {
  const [x, config] = await ctx.tx(async (tx) => {
    const r = await repo.getReceipt(tx, id, restricted(ctx));
    return [r, r ? await configOf(tx, Number(r.companyId)) : null] as const;
  });
  if (!x || !config) throw notFound('票据');
  const amount = yuan(x.amountFen);
  const qrText = `票据号:${String(x.no)};单位:${String(x.companyName)};房间:${String(x.roomName ?? '')};金额:${amount};时间:${String(x.createdAt)}`;
  return {
    ...presentReceipt(x),
    company: { id: x.companyId, name: x.companyName, address: x.companyAddress, phone: x.companyPhone, bankName: BANK_NAMES[Number(x.bankType)] ?? '',
      receiptTitle: config.receiptTitle || String(x.companyName), receiptFooter: config.receiptFooter,
    },
    room: { id: x.roomId, name: x.roomName, areaName: x.areaName },
    owner: { id: x.ownerId, name: x.ownerName, phone: x.ownerPhone },
    amountChinese: amountToChinese(amount),
    qrCode: await qrDataUrl(qrText),
  };
}

export async function printReceipt(ctx: Ctx, id: number) {
  return ctx.tx(async (tx) => {
    const x = await repo.getReceipt(tx, id, restricted(ctx));
    if (!x) throw notFound('票据');
    ctx.audit.target = `票据 ${String(x.no)}`;
    return { id, printCount: await repo.markPrinted(tx, id) };
  });
}

// ---- room timed subsidies ---------------------------------------------------------------------------

export async function addRoomSubsidy(ctx: Ctx, b: AddRoomSubsidyInput) {
  return ctx.tx(async (tx) => {
    const ro = await repo.roomOwner(tx, b.roomId);
    if (!ro) throw notFound('房间');
    // the scheduler credits the current month only: a start in the past pays no missed months
    ctx.audit.target = `房间 ${ro.path} 每月${b.dayOfMonth}日补贴${WALLET_LABELS[b.wallet]} ¥${fenToYuan(b.amount)}`;
    const id = await repo.insertSubsidyPlan(tx, {
      companyId: ro.companyId, roomId: ro.roomId, wallet: b.wallet, amountFen: b.amount, dayOfMonth: b.dayOfMonth,
      startMonth: b.startMonth, endMonth: b.endMonth ?? '', memo: b.memo, createdBy: ctx.user.id,
    });
    return { id };
  });
}

export async function setSubsidyStatus(ctx: Ctx, b: { id: number; enabled: boolean }) {
  await ctx.tx(async (tx) => {
    const p = await repo.getSubsidyPlan(tx, b.id);
    if (!p) throw notFound('补贴计划');
    ctx.audit.target = `房间 ${p.roomName} 定时补贴${b.enabled ? '启用' : '停用'}`;
    await repo.setSubsidyEnabled(tx, b.id, b.enabled);
  });
  return null;
}

// ---- finance audit --------------------------------------------------------------------------------------

export async function dataAudit(ctx: Ctx, b: { ids: number[]; memo: string }) {
  const ids = [...new Set(b.ids)];
  return ctx.tx(async (tx) => {
    const rows = await repo.visibleJournal(tx, ids, restricted(ctx));
    if (rows.length !== ids.length) throw notFound('流水');
    ctx.audit.target = `流水 ${ids.length} 条`;
    const audited = await repo.insertAudits(tx, rows.map((r) => ({ journalId: r.id, companyId: r.companyId, auditedBy: ctx.user.id, auditedByName: operatorName(ctx), memo: b.memo })));
    return { audited, already: ids.length - audited };
  });
}

// ---- settling on demand -----------------------------------------------------------------------------

export async function settleNow(ctx: Ctx, b: { meterIds?: number[]; roomId?: number }) {
  return ctx.tx(async (tx) => {
    if (b.roomId != null && !(await repo.roomOwner(tx, b.roomId))) throw notFound('房间');
    const ids = await repo.meterIdsFor(tx, b);
    if (b.meterIds?.length && ids.length !== new Set(b.meterIds).size) throw notFound('表具');
    ctx.audit.target = b.roomId != null ? `房间 id=${b.roomId}` : `表具 ${ids.length} 块`;
    const r = await settleAllPending(tx, ids);
    return { meters: ids.length, readings: r.readings, deductions: r.deductions, amount: yuan(r.amountFen) };
  });
}

// ---- 公摊 meters --------------------------------------------------------------------------------------

export const SHARE_METHODS: Record<number, string> = { 1: '按面积分摊', 2: '平均分摊' };

export function sharedMeters(ctx: Ctx, q: { index: number; size: number; searchArea?: number }) {
  return ctx.tx(async (tx) => {
    const r = await repo.listSharedMeters(tx, { companyId: ctx.scope.companyId, searchArea: q.searchArea }, q.size, offsetOf(q));
    return new Page(r.rows.map((x) => ({ ...x, methodText: SHARE_METHODS[Number(x.method)] ?? '' })), r.count);
  });
}

export async function saveSharedMeter(ctx: Ctx, b: { meterId: number; areaId: number; method: number; memo: string }) {
  await ctx.tx(async (tx) => {
    const m = await repo.findMeter(tx, b.meterId);
    if (!m) throw notFound('表具');
    const a = await repo.findArea(tx, b.areaId);
    if (!a || a.companyId !== m.companyId) throw badRequest('参数「areaId」分摊区域不存在或不属于表具所在单位');
    if (m.roomId != null && (await repo.roomOwner(tx, m.roomId))?.ownerId != null) {
      throw refuse('METER_IN_USE', `表具「${m.name || m.address}」装在有业主入住的房间，不能设为公摊表`);
    }
    ctx.audit.target = `公摊表 ${m.name || m.address} → ${a.name}`;
    await repo.upsertSharedMeter(tx, { meterId: m.id, companyId: m.companyId, areaId: a.id, method: b.method, memo: b.memo, createdBy: ctx.user.id });
  });
  return null;
}

export async function deleteSharedMeters(ctx: Ctx, ids: number[]) {
  const unique = [...new Set(ids)];
  await ctx.tx(async (tx) => {
    const visible = await repo.sharedMetersVisible(tx, unique);
    if (visible.length !== unique.length) throw notFound('公摊表');
    ctx.audit.target = `公摊表 ${unique.length} 块`;
    await repo.deleteSharedMeters(tx, unique);
  });
  return null;
}

// ---- /home ------------------------------------------------------------------------------------------------

export async function homeSummary(ctx: Ctx, q: { searchArea?: number }) {
  const f = await ctx.tx((tx) => repo.homeFigures(tx, { companyId: ctx.scope.companyId, areaRestricted: restricted(ctx), searchArea: q.searchArea }));
  // 'prepay' is money received; 'system' (system credits), 'subsidy' and 'opening' stay apart
  const pick = (kind: string, field: 'todayFen' | 'monthFen') => Math.abs(f.money.find((m) => m.kind === kind)?.[field] ?? 0);
  const figures = (field: 'todayFen' | 'monthFen') => ({
    prepay: yuan(pick('prepay', field)),
    refund: yuan(pick('refund', field)),
    subsidy: yuan(pick('subsidy', field)),
    deduction: yuan(pick('deduction', field)),
    fee: yuan(pick('fee', field)),
    systemCredit: yuan(pick('system', field)),
    // signed: an opening balance may carry arrears over
    opening: yuan(f.money.find((m) => m.kind === 'opening')?.[field] ?? 0),
  });
  // the last seven days, every day present
  const days: string[] = [];
  for (let i = 6; i >= 0; i--) days.push(dayKey(new Date(Date.now() - i * 86400_000)));
  const trend = days.map((day) => {
    const t = f.trend.find((x) => x.day === day);
    return { day, prepay: yuan(t?.prepayFen ?? 0), deduction: yuan(t?.deductionFen ?? 0) };
  });
  return {
    today: { ...figures('todayFen'), payments: f.money.filter((m) => m.kind === 'prepay').reduce((n, m) => n + m.todayCount, 0) },
    month: figures('monthFen'),
    accounts: {
      arrearsCount: f.accounts.arrearsCount,
      arrears: yuan(f.accounts.arrearsFen),
      lowBalanceCount: f.accounts.lowCount,
      /** accounts in arrears whose meters all read back 断 — not merely owed a close */
      closedByArrearsCount: f.accounts.closedCount,
      /** accounts in arrears whose close waits for the no-disconnect hours to end (待断电) */
      pendingCloseCount: f.accounts.pendingCloseCount,
      electricBalance: yuan(f.accounts.electricFen),
      waterBalance: yuan(f.accounts.waterFen),
    },
    trend,
    kinds: KIND_LABELS,
  };
}
