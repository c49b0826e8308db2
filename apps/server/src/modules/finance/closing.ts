import { businessDate } from '../../time.ts';
import type { Ctx } from '../../http/context.ts';
import { companyOf } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import { presentTotals, totalsOf, type DayTotals } from './figures.ts';
import * as repo from './repo.ts';
import type { DayListInput } from '@meter/contracts';

// 日结 and 交班 (issue 14 item 13). A business day is closed for the whole company (日结) or for one
// operator (交班): the closing sums the journal of that business day under the day lock (every
// writer of a counted kind waits, repo.lockDays) and keeps the figures on its slip. Nothing is booked
// into a closed day afterwards: the database books a later row on the next open day (migration 0036),
// so late corrections — a reversal, a payment notified after the close — land on the next day and the
// closed figures never change. A void of a receipt whose day is closed is refused (reversal.ts).

const operatorName = (ctx: Ctx) => ctx.user.realName || ctx.user.username;
const DAY_MS = 86400_000;

/** 'YYYY-MM-DD' + n days */
const shift = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

function checkDay(day: string) {
  const today = businessDate(new Date());
  if (Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || shift(day, 0) !== day) throw refuse('DAY_INVALID', `日期 ${day} 无效`);
  if (day > today) throw refuse('DAY_NOT_STARTED', `${day} 尚未到来，不能结账`);
}

const stateText = (closed: boolean) => (closed ? '已日结' : '未日结');

/** The days of a range (newest first, a page of them), each with its state and figures. */
export async function listDays(ctx: Ctx, q: DayListInput) {
  const companyId = companyOf(ctx);
  const today = businessDate(new Date());
  const end = q.endTime && q.endTime < today ? q.endTime : today;
  const start = q.startTime ?? shift(end, -30);
  if (start > end) return new Page([], 0);
  const all: string[] = [];
  for (let d = end; d >= start && all.length < 3660; d = shift(d, -1)) all.push(d);
  return ctx.tx(async (tx) => {
    let days = all;
    if (q.state) {
      const closed = new Set((await repo.closings(tx, companyId, all)).filter((c) => c.operatorId == null).map((c) => c.day));
      days = all.filter((d) => closed.has(d) === (q.state === 'closed'));
    }
    const page = days.slice(offsetOf(q), offsetOf(q) + q.size);
    const cs = await repo.closings(tx, companyId, page);
    const rows = await repo.dayFigures(tx, companyId, page);
    return new Page(page.map((day) => {
      const closing = cs.find((c) => c.day === day && c.operatorId == null);
      const t: DayTotals = closing ? closing.totals : totalsOf(rows.filter((r) => r.day === day));
      const p = presentTotals(t);
      const m = Object.fromEntries(p.methods.map((x) => [x.method, x.net]));
      return {
        day, state: closing ? 'closed' : 'open', stateText: stateText(!!closing), net: p.net, count: p.count, ...m,
        handovers: cs.filter((c) => c.day === day && c.operatorId != null).length,
        closedByName: closing?.closedByName ?? '', closedAt: closing?.closedAt ?? '', memo: closing?.memo ?? '',
      };
    }), days.length);
  });
}

/** One day: its figures (the closed ones when closed), each operator's shift and its state — the closing slip. */
export async function dayDetail(ctx: Ctx, day: string) {
  const companyId = companyOf(ctx);
  checkDay(day);
  return ctx.tx(async (tx) => {
    const cs = await repo.closings(tx, companyId, [day]);
    const rows = await repo.dayFigures(tx, companyId, [day]);
    const company = await repo.companyName(tx, companyId);
    const closing = cs.find((c) => c.operatorId == null);
    const live = totalsOf(rows);
    const totals: DayTotals = closing ? closing.totals : live;
    const shifts = cs.filter((c) => c.operatorId != null);
    const ids = new Set<number>();
    const operators = [];
    for (const o of totals.operators) {
      if (o.operatorId == null) continue;
      ids.add(o.operatorId);
      const s = shifts.find((c) => c.operatorId === o.operatorId);
      operators.push({ ...presentOperator(s ? s.totals : totalsOf(rows.filter((r) => r.operatorId === o.operatorId))), operatorId: o.operatorId, operatorName: o.operatorName, handover: handoverOf(s) });
    }
    for (const s of shifts.filter((c) => !ids.has(c.operatorId!))) {
      operators.push({ ...presentOperator(s.totals), operatorId: s.operatorId, operatorName: s.operatorName, handover: handoverOf(s) });
    }
    return {
      day, companyName: company, state: closing ? 'closed' : 'open', stateText: stateText(!!closing),
      closing: closing ? { id: closing.id, closedByName: closing.closedByName, closedAt: closing.closedAt, memo: closing.memo } : null,
      totals: presentTotals(totals),
      operators,
      printedByName: operatorName(ctx),
    };
  });
}

function presentOperator(t: DayTotals) {
  const p = presentTotals(t);
  return { methods: p.methods, net: p.net, count: p.count };
}

function handoverOf(s: repo.ClosingRow | undefined) {
  return s ? { state: 'closed', stateText: '已交班', closedByName: s.closedByName, closedAt: s.closedAt, memo: s.memo } : { state: 'open', stateText: '未交班', closedByName: '', closedAt: '', memo: '' };
}

/** 日结: the company's day, once. */
export async function closeDay(ctx: Ctx, b: { day: string; memo: string }) {
  const companyId = companyOf(ctx);
  checkDay(b.day);
  ctx.audit.target = `日结 ${b.day}`;
  await ctx.tx(async (tx) => {
    await repo.lockDays(tx, companyId);
    if ((await repo.closings(tx, companyId, [b.day])).some((c) => c.operatorId == null)) throw refuse('DAY_CLOSED', `${b.day} 已日结，不能重复日结`);
    const t = totalsOf(await repo.dayFigures(tx, companyId, [b.day]));
    await repo.insertClosing(tx, {
      companyId, day: b.day, operatorId: null, operatorName: '', totals: t, netFen: t.netFen, entries: t.count,
      closedBy: ctx.user.id, closedByName: operatorName(ctx), memo: b.memo,
    });
  });
  return dayDetail(ctx, b.day);
}

/** 交班: one operator's shift of the day (the caller's own unless another operator is named), once. */
export async function handover(ctx: Ctx, b: { day: string; operatorId?: number; memo: string }) {
  const companyId = companyOf(ctx);
  checkDay(b.day);
  const operatorId = b.operatorId ?? ctx.user.id;
  await ctx.tx(async (tx) => {
    const name = operatorId === ctx.user.id ? operatorName(ctx) : await repo.staffName(tx, operatorId);
    if (name == null) throw notFound('操作员');
    ctx.audit.target = `交班 ${b.day} ${name}`;
    await repo.lockDays(tx, companyId);
    const cs = await repo.closings(tx, companyId, [b.day]);
    if (cs.some((c) => c.operatorId == null)) throw refuse('DAY_CLOSED', `${b.day} 已日结，不能再交班`);
    if (cs.some((c) => c.operatorId === operatorId)) throw refuse('SHIFT_CLOSED', `${name} 在 ${b.day} 已交班，不能重复交班`);
    const t = totalsOf(await repo.dayFigures(tx, companyId, [b.day], operatorId));
    await repo.insertClosing(tx, {
      companyId, day: b.day, operatorId, operatorName: name, totals: t, netFen: t.netFen, entries: t.count,
      closedBy: ctx.user.id, closedByName: operatorName(ctx), memo: b.memo,
    });
  });
  return dayDetail(ctx, b.day);
}
