import type { FastifyReply } from 'fastify';
import { BANK_NAMES, BANK_WITHDRAW_STATUS, EXPORT_LAYOUTS, fenToYuan } from '@meter/contracts';
import { Decimal } from 'decimal.js';
import type { Ctx } from '../../http/context.ts';
import { badRequest } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { businessDate, businessMonth, fromBeijing, monthRange } from '../../time.ts';
import * as repo from './repo.ts';
import type { ReportInput } from '@meter/contracts';
import { streamXlsx } from './xlsx.ts';
import { shownColumns } from './export-config.ts';

// Finance reports (SPEC §2 /reportCheck, /reportFees, /reportDeduct, /reportBank): a period of China
// days, rows and totals, each also as a streamed .xlsx. Amounts are 元 strings (2 decimals).

const yuan = (fen: unknown) => fenToYuan(Number(fen ?? 0));
const MAX_DAYS = 366;

/** [start, end) of the report: whole China days, default this month. */
export function periodOf(q: ReportInput) {
  const month = monthRange(businessMonth(new Date()));
  const from = q.startTime ? fromBeijing(q.startTime) : month.start;
  const to = q.endTime ? new Date(fromBeijing(q.endTime).getTime() + 86400_000) : month.end;
  if (to <= from) throw badRequest('参数「endTime」结束日期不能早于开始日期');
  if (to.getTime() - from.getTime() > MAX_DAYS * 86400_000) throw badRequest(`参数「endTime」统计区间不能超过 ${MAX_DAYS} 天`);
  return { from, to, label: { startTime: businessDate(from), endTime: businessDate(new Date(to.getTime() - 1)) } };
}

const filterOf = (ctx: Ctx, q: ReportInput) => {
  const p = periodOf(q);
  return { f: { companyId: ctx.scope.companyId, areaRestricted: ctx.scope.areaIds != null, searchArea: q.searchArea, from: p.from, to: p.to }, label: p.label };
};

const sumOf = (rows: Record<string, unknown>[], key: string) => rows.reduce((s, r) => s + Number(r[key] ?? 0), 0);

// ---- 对账报表 -----------------------------------------------------------------------------------------

const CHECK_KEYS = ['cash', 'wechat', 'alipay', 'bank', 'refund', 'reversal', 'subsidy', 'system', 'opening', 'deduction', 'fee'] as const;

// 收款合计 is money received (cash, WeChat, Alipay, bank); subsidies, system credits and opening
// balances are credits too, but never income: each has its own column (issue 11 item 9). 冲正 (a
// voided counter receipt, signed) has its own column and is in 净收款: the original stays where it was.

function checkRow(x: Record<string, unknown>) {
  const income = Number(x.cash) + Number(x.wechat) + Number(x.alipay) + Number(x.bank);
  return {
    day: x.day,
    cashCount: x.cash_n, cash: yuan(x.cash),
    wechatCount: x.wechat_n, wechat: yuan(x.wechat),
    alipayCount: x.alipay_n, alipay: yuan(x.alipay),
    bankCount: x.bank_n, bank: yuan(x.bank),
    income: yuan(income),
    refundCount: x.refund_n, refund: yuan(-Number(x.refund)),
    reversalCount: x.reversal_n ?? 0, reversal: yuan(x.reversal ?? 0),
    net: yuan(income + Number(x.refund) + Number(x.reversal ?? 0)),
    subsidyCount: x.subsidy_n, subsidy: yuan(x.subsidy),
    systemCount: x.system_n, system: yuan(x.system),
    openingCount: x.opening_n, opening: yuan(x.opening),
    deduction: yuan(-Number(x.deduction)),
    fee: yuan(-Number(x.fee)),
  };
}

export async function check(ctx: Ctx, q: ReportInput) {
  const { f, label } = filterOf(ctx, q);
  const rows = await ctx.tx((tx) => repo.checkByDay(tx, f));
  const totals: Record<string, unknown> = { day: '合计' };
  for (const k of CHECK_KEYS) totals[k] = sumOf(rows, k);
  for (const k of ['cash_n', 'wechat_n', 'alipay_n', 'bank_n', 'refund_n', 'reversal_n', 'subsidy_n', 'system_n', 'opening_n']) totals[k] = sumOf(rows, k);
  return { period: label, rows: rows.map(checkRow), totals: checkRow(totals), count: rows.length };
}

const CHECK_COLUMNS = EXPORT_LAYOUTS.reportCheck.columns;

// ---- 银行报表 ------------------------------------------------------------------------------------------

export const CHANNEL_TEXT: Record<string, string> = { bank: '银行', wechat: '微信支付', alipay: '支付宝' };

export async function bank(ctx: Ctx, q: ReportInput) {
  const { f, label } = filterOf(ctx, q);
  const [rows, bankType, wd] = await ctx.tx(async (tx) =>
    [await repo.bankByDay(tx, f), await repo.companyBankType(tx, ctx.scope.companyId), await repo.withdrawalsIn(tx, f)] as const);
  const bankName = bankType == null ? '' : BANK_NAMES[bankType] ?? '';
  const present = rows.map((x) => ({
    day: x.day, channel: x.channel, channelText: x.channel === 'bank' ? `银行（${bankName || '结算银行'}）` : CHANNEL_TEXT[String(x.channel)], count: x.n,
    amount: yuan(x.amount), auditedCount: x.audited_n,
  }));
  const by = (ch: string) => ({ count: sumOf(rows.filter((r) => r.channel === ch), 'n'), amount: yuan(sumOf(rows.filter((r) => r.channel === ch), 'amount')) });
  return {
    period: label,
    bankName,
    rows: present,
    totals: { count: sumOf(rows, 'n'), amount: yuan(sumOf(rows, 'amount')), bank: by('bank'), wechat: by('wechat'), alipay: by('alipay') },
    count: present.length,
    withdrawals: wd.rows.map((x) => ({
      id: Number(x.id), createdAt: String(x.created_at), finishedAt: x.finished_at == null ? null : String(x.finished_at), propertyName: String(x.property_name),
      subMerId: String(x.sub_mer_id), amount: yuan(x.amount_fen), status: Number(x.status), statusText: BANK_WITHDRAW_STATUS[Number(x.status)] ?? String(x.status),
      bankSerial: String(x.bank_serial), reason: String(x.reason), operatorName: String(x.operator_name),
    })),
    withdrawalTotals: (() => {
      const of = (st: number) => {
        const t = wd.totals.filter((x) => Number(x.status) === st);
        return { count: sumOf(t, 'n'), amount: yuan(sumOf(t, 'amount')) };
      };
      return { count: sumOf(wd.totals, 'n'), amount: yuan(sumOf(wd.totals, 'amount')), succeeded: of(1), processing: of(0), failed: of(2) };
    })(),
  };
}

const BANK_COLUMNS = EXPORT_LAYOUTS.reportBank.columns;

// ---- 扣费报表 ------------------------------------------------------------------------------------------

export async function deduct(ctx: Ctx, q: ReportInput) {
  const { f, label } = filterOf(ctx, q);
  const rows = await ctx.tx((tx) => repo.deductByDay(tx, f));
  const present = rows.map((x) => ({
    day: x.day, meterKind: x.meter_kind, meterKindText: Number(x.meter_kind) === 2 ? '水表' : '电表', readings: x.n, meters: x.meters,
    quantity: x.quantity, unit: Number(x.meter_kind) === 2 ? 'm³' : 'kWh', amount: yuan(x.amount), charged: yuan(x.charged), vacant: yuan(x.vacant),
  }));
  const kind = (k: number) => {
    const mine = rows.filter((r) => Number(r.meter_kind) === k);
    return {
      readings: sumOf(mine, 'n'),
      quantity: mine.reduce((s, r) => s.plus(String(r.quantity)), new Decimal(0)).toFixed(),
      amount: yuan(sumOf(mine, 'amount')),
      charged: yuan(sumOf(mine, 'charged')),
      vacant: yuan(sumOf(mine, 'vacant')),
    };
  };
  return { period: label, rows: present, totals: { electric: kind(1), water: kind(2), amount: yuan(sumOf(rows, 'amount')) }, count: present.length };
}

const DEDUCT_COLUMNS = EXPORT_LAYOUTS.reportDeduct.columns;

// ---- 费用报表 ------------------------------------------------------------------------------------------

function feesRow(x: Record<string, unknown>) {
  const e = -Number(x.electric);
  const w = -Number(x.water);
  const fees = -Number(x.fees);
  return {
    roomId: x.roomId, roomName: x.roomName, ownerName: x.ownerName ?? '',
    electricQuantity: x.electricQuantity, electricAmount: yuan(e), waterQuantity: x.waterQuantity, waterAmount: yuan(w),
    fees: yuan(fees), subsidy: yuan(x.subsidy), total: yuan(e + w + fees), prepay: yuan(x.prepay), refund: yuan(-Number(x.refund)),
    system: yuan(x.system), opening: yuan(x.opening),
  };
}

export async function fees(ctx: Ctx, q: ReportInput & { index: number; size: number }) {
  const { f, label } = filterOf(ctx, q);
  const [page, t] = await ctx.tx(async (tx) => [await repo.feesByRoom(tx, f, q.size, offsetOf(q)), await repo.feesTotals(tx, f)] as const);
  return { period: label, rows: page.rows.map(feesRow), totals: feesTotals(t), count: page.count };
}

function feesTotals(t: Record<string, unknown> | undefined) {
  const x = t ?? {};
  const e = -Number(x.electric ?? 0);
  const w = -Number(x.water ?? 0);
  const fe = -Number(x.fees ?? 0);
  return {
    electricAmount: yuan(e), waterAmount: yuan(w), fees: yuan(fe), subsidy: yuan(x.subsidy ?? 0), total: yuan(e + w + fe), prepay: yuan(x.prepay ?? 0),
    refund: yuan(-Number(x.refund ?? 0)), system: yuan(x.system ?? 0), opening: yuan(x.opening ?? 0),
  };
}

const FEES_COLUMNS = EXPORT_LAYOUTS.reportFees.columns;

// ---- exports -------------------------------------------------------------------------------------------

const n = (v: unknown) => Number(v);

async function* once(rows: unknown[][]) {
  if (rows.length) yield rows;
}

export async function exportReport(ctx: Ctx, which: 'check' | 'bank' | 'deduct' | 'fees', q: ReportInput, reply: FastifyReply) {
  const { label } = filterOf(ctx, q);
  const suffix = `${label.startTime}至${label.endTime}`;
  ctx.audit.target = `报表导出 ${suffix}`;
  if (which === 'check') {
    const r = await check(ctx, q);
    const row = (x: ReturnType<typeof checkRow>) => [x.day, x.cashCount, n(x.cash), x.wechatCount, n(x.wechat), x.alipayCount, n(x.alipay), x.bankCount, n(x.bank), n(x.income), x.refundCount, n(x.refund), x.reversalCount, n(x.reversal), n(x.net), x.subsidyCount, n(x.subsidy), x.systemCount, n(x.system), x.openingCount, n(x.opening), n(x.deduction), n(x.fee)];
    return streamXlsx(reply, { filename: `对账报表${suffix}.xlsx`, sheet: '对账报表', columns: CHECK_COLUMNS, keep: await shownColumns(ctx, 'reportCheck'), batches: once([...r.rows.map(row), row(r.totals)]) });
  }
  if (which === 'bank') {
    const r = await bank(ctx, q);
    const rows = r.rows.map((x) => [x.day, x.channelText, x.count, n(x.amount), x.auditedCount]);
    rows.push(['合计', '', r.totals.count, n(r.totals.amount), '']);
    // the sub-accounts' withdrawals of the period, by state (they are money out, not counted in 合计)
    const w = r.withdrawalTotals;
    for (const [text, t] of [['已到账', w.succeeded], ['处理中', w.processing], ['失败', w.failed]] as const) if (t.count) rows.push(['子账户提现', text, t.count, n(t.amount), '']);
    return streamXlsx(reply, { filename: `银行报表${suffix}.xlsx`, sheet: '银行报表', columns: BANK_COLUMNS, keep: await shownColumns(ctx, 'reportBank'), batches: once(rows) });
  }
  if (which === 'deduct') {
    const r = await deduct(ctx, q);
    const rows: unknown[][] = r.rows.map((x) => [x.day, x.meterKindText, x.readings, x.meters, n(x.quantity), x.unit, n(x.amount), n(x.charged), n(x.vacant)]);
    // the 合计 rows of the page: per meter kind (their units differ), then the whole amount
    const kind = (label: string, k: typeof r.totals.electric, unit: string) => [label, '', k.readings, '', n(k.quantity), unit, n(k.amount), n(k.charged), n(k.vacant)];
    if (rows.length) {
      rows.push(kind('电表合计', r.totals.electric, 'kWh'), kind('水表合计', r.totals.water, 'm³'));
      rows.push(['合计', '', r.totals.electric.readings + r.totals.water.readings, '', '', '', n(r.totals.amount), n(r.totals.electric.charged) + n(r.totals.water.charged), n(r.totals.electric.vacant) + n(r.totals.water.vacant)]);
    }
    return streamXlsx(reply, { filename: `扣费报表${suffix}.xlsx`, sheet: '扣费报表', columns: DEDUCT_COLUMNS, keep: await shownColumns(ctx, 'reportDeduct'), batches: once(rows) });
  }
  const { f } = filterOf(ctx, q);
  const BATCH = 5000;
  async function* pages() {
    // the quantities of the 合计 row add up the rows written (exact decimals); the amounts are the
    // report's own totals, as on the page
    let electric = new Decimal(0);
    let water = new Decimal(0);
    let any = false;
    for (let offset = 0; ; offset += BATCH) {
      const p = await ctx.tx((tx) => repo.feesByRoom(tx, f, BATCH, offset));
      const rows = p.rows.map(feesRow);
      for (const x of rows) {
        electric = electric.plus(String(x.electricQuantity ?? 0));
        water = water.plus(String(x.waterQuantity ?? 0));
      }
      any ||= rows.length > 0;
      if (rows.length) yield rows.map((x) => [x.roomName, x.ownerName, n(x.electricQuantity), n(x.electricAmount), n(x.waterQuantity), n(x.waterAmount), n(x.fees), n(x.subsidy), n(x.total), n(x.prepay), n(x.refund), n(x.system), n(x.opening)]);
      if (p.rows.length < BATCH) break;
    }
    if (!any) return;
    const t = feesTotals(await ctx.tx((tx) => repo.feesTotals(tx, f)));
    yield [['合计', '', electric.toNumber(), n(t.electricAmount), water.toNumber(), n(t.waterAmount), n(t.fees), n(t.subsidy), n(t.total), n(t.prepay), n(t.refund), n(t.system), n(t.opening)]];
  }
  return streamXlsx(reply, { filename: `费用报表${suffix}.xlsx`, sheet: '费用报表', columns: FEES_COLUMNS, keep: await shownColumns(ctx, 'reportFees'), batches: pages() });
}
