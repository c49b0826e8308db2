import type { FastifyReply } from 'fastify';
import { fenToYuan, keyedColumns, RECONCILE_OUTCOMES } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { CHANNEL_TEXT, recoverOrder, type Payments, type StatementRow } from '../payment/index.ts';
import { shownColumns, streamXlsx } from '../report/index.ts';
import { addDays, beijingFields, businessDate } from '../../time.ts';
import { now } from '../../clock.ts';
import { classify, classifyRefunds, type Outcome } from './classify.ts';
import * as repo from './repo.ts';

// 支付平台对账 (issue 14 item 5): a provider's daily statement is downloaded (providers' statement()),
// its rows stored and classified against our orders (classify.ts) for every company at once — the
// statement is the merchant's — and each company reads its own rows (row-level security; a trade with
// no order here is the platform's only). 补单 of a 本地缺单 row queries the provider and credits through
// the payment module's recovery path (once per order). The daily job reconciles yesterday. A company
// with its own merchant (支付商户) has its own statement: it is reconciled on its own
// (merchant_company_id), against that merchant's orders only, and its rows are the company's.

type Channel = 'wechat' | 'alipay';

export const OUTCOME_TEXT: Record<Outcome, string> = { matched: '已匹配', missing_here: '本地缺单', missing_there: '平台缺单', amount_differs: '金额不符' };
const OUR_STATUS_TEXT: Record<string, string> = {
  paid: '已入账', created: '待支付', closed: '已关闭', '': '无此订单', refund_success: '已退款', refund_processing: '退款中', refund_failed: '退款失败',
};

/**
 * Downloads and classifies one statement — the platform merchant's, or (merchant = a company id) that
 * company's own merchant's; re-running the same day updates its rows in place.
 */
export async function reconcileDay(db: Db, pay: Payments, channel: Channel, day: string, ranBy: string, merchant: repo.Merchant = 0) {
  const gateway = merchant ? await pay.merchants?.load(db, merchant, channel) : pay.gateways[channel];
  if (!gateway) {
    throw refuse('PAY_CHANNEL_OFF', merchant ? `该单位未启用自己的${CHANNEL_TEXT[channel]}商户` : `${CHANNEL_TEXT[channel]}未接入支付平台（当前为模拟支付），没有对账单可下载`);
  }
  if (day > businessDate(now())) throw refuse('DAY_IN_FUTURE', '对账日期不能晚于今天');
  let statement: StatementRow[];
  try {
    statement = await gateway.statement(day);
  } catch (e) {
    throw refuse('PAY_PROVIDER_ERROR', `下载${CHANNEL_TEXT[channel]}对账单失败，请稍后重试（${(e as Error).message}）`);
  }
  // the refund rows are reconciled against our refund records (classifyRefunds); the trades here
  const trades = statement.filter((s) => s.kind !== 'refund');
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    await repo.lockDay(tx, channel, day, merchant);
    const known = await repo.ordersByNo(tx, channel, trades.map((s) => s.outTradeNo));
    const paidHere = await repo.ordersPaidOn(tx, channel, day, merchant);
    const elsewhere = await repo.paidInOtherStatements(tx, channel, day, paidHere.map((o) => o.outTradeNo));
    const refundRows = statement.filter((s) => s.kind === 'refund');
    const knownRefunds = await repo.refundsByNo(tx, channel, refundRows.map((s) => s.outRefundNo ?? ''));
    const doneHere = await repo.refundsDoneOn(tx, channel, day, merchant);
    const refundedElsewhere = await repo.refundedInOtherStatements(tx, channel, day, doneHere.map((f) => f.outRefundNo));
    const rows = [...classify(trades, known, paidHere, elsewhere), ...classifyRefunds(refundRows, knownRefunds, doneHere, refundedElsewhere)];
    await repo.saveDay(tx, channel, day, rows, statement.length, ranBy, merchant);
    return { statementRows: statement.length, rows: rows.length };
  });
}

const filterOf = (ctx: Ctx, q: { channel: Channel; day: string; outcome?: string }): repo.RowFilter => ({
  companyId: ctx.scope.companyId, channel: q.channel, day: q.day, outcome: q.outcome,
});

export async function summary(ctx: Ctx, q: { channel: Channel; day: string }) {
  return ctx.tx(async (tx) => {
    const run = await repo.runOf(tx, q.channel, q.day);
    const sums = await repo.sums(tx, filterOf(ctx, q));
    return {
      day: q.day, channel: q.channel, channelText: CHANNEL_TEXT[q.channel], ranAt: run?.ranAt ?? null, ranBy: run?.ranBy ?? '',
      outcomes: RECONCILE_OUTCOMES.map((o) => {
        const s = sums.find((x) => x.outcome === o);
        return { outcome: o, text: OUTCOME_TEXT[o], count: s?.count ?? 0, amount: fenToYuan(s?.fen ?? 0) };
      }),
    };
  });
}

/** The companies' own merchants of a channel to reconcile: the caller's company's, or every one for the platform. */
async function ownMerchants(ctx: Ctx, channel: Channel): Promise<number[]> {
  const all = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.companyMerchantsOf(tx, channel));
  return ctx.scope.companyId == null ? all : all.filter((c) => c === ctx.scope.companyId);
}

/**
 * 对账: the statement of that day and provider — the platform merchant's, and the own merchant's of the
 * caller's company (a platform admin: of every company that has one) — then the summary the caller sees.
 */
export async function run(ctx: Ctx, pay: Payments, b: { channel: Channel; day: string }) {
  ctx.audit.target = `${CHANNEL_TEXT[b.channel]} ${b.day}`;
  const by = ctx.user.realName || ctx.user.username;
  const own = pay.merchants ? await ownMerchants(ctx, b.channel) : [];
  // the platform's statement unless only the company's own merchant is in use
  if (pay.gateways[b.channel] || !own.length) await reconcileDay(ctx.db, pay, b.channel, b.day, by);
  for (const m of own) await reconcileDay(ctx.db, pay, b.channel, b.day, by, m);
  return summary(ctx, b);
}

function present(x: Record<string, unknown>) {
  const fen = (v: unknown) => (v == null ? null : fenToYuan(Number(v)));
  return {
    id: Number(x.id), companyId: x.companyId == null ? null : Number(x.companyId), companyName: String(x.companyName ?? ''),
    channel: x.channel as Channel, day: String(x.day), outTradeNo: String(x.outTradeNo), kind: x.kind === 'refund' ? 'refund' as const : 'payment' as const,
    outRefundNo: String(x.outRefundNo ?? ''), tradeNo: String(x.tradeNo), tradeTime: String(x.tradeTime),
    providerAmount: fen(x.providerFen), ourAmount: fen(x.ourFen), ourStatus: String(x.ourStatus), ourStatusText: OUR_STATUS_TEXT[String(x.ourStatus)] ?? String(x.ourStatus),
    roomName: String(x.roomName ?? ''), ownerName: String(x.ownerName ?? ''), outcome: x.outcome as Outcome, outcomeText: OUTCOME_TEXT[x.outcome as Outcome] ?? String(x.outcome),
    recoveredAt: x.recoveredAt == null ? null : String(x.recoveredAt), recoveredBy: String(x.recoveredBy ?? ''),
  };
}

export function rows(ctx: Ctx, q: { channel: Channel; day: string; outcome?: string; index: number; size: number }) {
  return ctx.tx(async (tx) => {
    const r = await repo.listRows(tx, filterOf(ctx, q), q.size, (q.index - 1) * q.size);
    return new Page(r.rows.map(present), r.count);
  });
}

/**
 * 补单 of a 本地缺单 row: the provider is asked, and a paid order credited once (the payment module's
 * recovery path) — a second click, or two at once, credits nothing more and answers the same row.
 */
export async function recover(ctx: Ctx, pay: Payments, id: number) {
  const row = await ctx.tx((tx) => repo.lockRow(tx, id));
  if (!row) throw notFound('对账记录');
  const r = present(row);
  ctx.audit.target = `${CHANNEL_TEXT[r.channel]}订单 ${r.outTradeNo}`;
  if (r.recoveredAt) return r;
  if (r.kind === 'refund') throw refuse('NOT_RECOVERABLE', '退款记录不能补单：请在支付平台核实该笔退款后人工处理');
  if (r.outcome !== 'missing_here') throw refuse('NOT_MISSING_HERE', `该记录为“${r.outcomeText}”，只有“本地缺单”的记录可以补单`);
  if (row.paymentId == null) {
    throw refuse('NO_ORDER', `本平台没有商户订单号为 ${r.outTradeNo} 的订单，无法自动补单；请核实付款人后在支付平台退款或人工处理`);
  }
  const q = await recoverOrder(ctx.db, pay, r.channel, r.outTradeNo);
  if (q.state !== 'paid') throw refuse('NOT_PAID', `${CHANNEL_TEXT[r.channel]}查询该订单未支付成功，未入账`);
  return ctx.tx(async (tx) => {
    await repo.markRecovered(tx, id, ctx.user.realName || ctx.user.username);
    return present(await repo.lockRow(tx, id));
  });
}

/** the export's 类型 column: a trade or a refund row (each classified 已匹配 / 金额不符 / 本地缺单 / 平台缺单) */
const KIND_TEXT = { payment: '支付', refund: '退款' } as const;
const MONEY_KEYS = new Set(['providerAmount', 'ourAmount']);
const EXPORT_COLUMNS = keyedColumns('reconcile', [
  'day', 'channelText', 'companyName', 'kindText', 'outTradeNo', 'outRefundNo', 'tradeNo', 'tradeTime', 'roomName', 'ownerName', 'providerAmount', 'ourAmount',
  'ourStatusText', 'outcomeText', 'recoveredAt', 'recoveredBy',
]);

async function* exportBatches(ctx: Ctx, q: { channel: Channel; day: string; outcome?: string }) {
  for (let offset = 0; ; offset += 1000) {
    const r = await ctx.tx((tx) => repo.listRows(tx, filterOf(ctx, q), 1000, offset));
    yield r.rows.map((x) => {
      const p = present(x);
      const row: Record<string, unknown> = { ...p, channelText: CHANNEL_TEXT[q.channel], kindText: KIND_TEXT[p.kind] };
      return EXPORT_COLUMNS.map((c) => (MONEY_KEYS.has(c.key) ? (row[c.key] == null ? null : Number(row[c.key])) : row[c.key]));
    });
    if (r.rows.length < 1000) return;
  }
}

export async function exportRows(ctx: Ctx, q: { channel: Channel; day: string; outcome?: string }, reply: FastifyReply) {
  ctx.audit.target = `${CHANNEL_TEXT[q.channel]} ${q.day}`;
  await streamXlsx(reply, { filename: `支付平台对账_${CHANNEL_TEXT[q.channel]}_${q.day}.xlsx`, sheet: '支付平台对账', columns: EXPORT_COLUMNS, keep: await shownColumns(ctx, 'reconcile'), batches: exportBatches(ctx, q) });
  return reply;
}

/**
 * The daily job: yesterday's statement of each configured provider, once, after 10:00 Beijing time
 * (when the providers have made it). Answers the days reconciled.
 */
export async function reconcileYesterday(db: Db, pay: Payments, at: Date = now()) {
  if (beijingFields(at).hour < 10) return [];
  const day = businessDate(addDays(at, -1));
  const done: string[] = [];
  const failed: string[] = [];
  for (const channel of Object.keys(pay.gateways) as Channel[]) {
    // the platform's merchant, then every company's own
    const own = pay.merchants ? await db.tx(SYSTEM_SCOPE, (tx) => repo.companyMerchantsOf(tx, channel)) : [];
    for (const merchant of [0, ...own]) {
      const ran = await db.tx(SYSTEM_SCOPE, (tx) => repo.runOf(tx, channel, day, merchant));
      if (ran) continue;
      try {
        await reconcileDay(db, pay, channel, day, '定时任务', merchant);
        done.push(`${channel}:${day}${merchant ? `:${merchant}` : ''}`);
      } catch (e) {
        // one statement failing does not keep the others; the next check retries it
        failed.push((e as Error).message);
      }
    }
  }
  if (failed.length) throw new Error(failed.join('；'));
  return done;
}
