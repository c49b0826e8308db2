import { Decimal } from 'decimal.js';
import type { Ctx } from '../../http/context.ts';
import { badRequest, notFound, refuse } from '../../http/errors.ts';
import { Page } from '../../http/envelope.ts';
import { offsetOf } from '../../http/paging.ts';
import type { DeviceEvent } from '../realtime/index.ts';
import { valvePassword } from '../company/index.ts';
import { SOURCE, COMMAND_STATUS, controlRepo as control, protocolOf, requestCommands, type CommandStatus, type ControlApi } from '../control/index.ts';
import * as repo from './repo.ts';
import { ADJUST_TEXT, type Input } from './schema.ts';
import type * as S from './schema.ts';
import { chinaTimeToday, nextRun } from './timed.ts';
import { formatBeijing } from '../../time.ts';

// 人工抄表, 保电/保水, 定时阀控 and the lists the control pages need that the control module does not
// serve. Commands to devices always go through the control module (its one-pending rule, its checks).

const fmt = (d: Date) => formatBeijing(d);
const unit = (kind: number) => (kind === 2 ? 'm³' : 'kWh');
const kindName = (kind: number) => (kind === 2 ? '水表' : '电表');
const protectWord = (kind: number) => (kind === 2 ? '保水' : '保电');

// ---------------------------------------------------------------------------------------------
// Meters of the control pages
// ---------------------------------------------------------------------------------------------

export async function controlMeters(ctx: Ctx, q: Input<typeof S.ControlMeterQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listControlMeters(
      tx,
      { keyword: q.keyword, kind: q.kind, roomId: q.roomId, online: q.online, valveState: q.valveState, protected: q.protected, withDisabled: q.withDisabled, searchArea: q.searchArea },
      q.size,
      offsetOf(q),
    ),
  );
  return new Page(
    r.rows.map((m) => ({
      ...m,
      kindText: kindName(m.kind),
      unit: unit(m.kind),
      /** SPEC §4: closing a phase-1 meter asks the valve-control password first */
      needsValvePassword: m.phaseId === 1,
    })),
    r.count,
  );
}

// ---------------------------------------------------------------------------------------------
// 人工抄表
// ---------------------------------------------------------------------------------------------

/**
 * A reading entered by hand, checked against the meter's last good reading: a lower value or an
 * earlier time is refused, unless the person marks it as a meter replacement (换表: the new
 * register starts lower) or a correction (纠正: fixes a wrong reading, or fills in a missed one
 * between two readings) and gives a reason. Stored as source 3 with the operator; a later reading
 * becomes the meter's latest.
 */
export async function manualReading(ctx: Ctx, bus: { emit(e: DeviceEvent): void }, b: Input<typeof S.ManualReadingBody>) {
  const now = new Date();
  const readAt = b.readAt ?? now;
  if (readAt.getTime() > now.getTime() + 60_000) throw badRequest('参数「readAt」抄表时间不能晚于当前时间');
  const total = new Decimal(b.total);
  const out = await ctx.tx(async (tx) => {
    const m = await repo.lockReadingMeter(tx, b.id);
    if (!m) throw notFound('表具');
    if (m.status === 2) throw refuse('METER_CLOSED', `表具「${m.name || m.address}」已销表，不能录入读数`);
    const locked = (await control.lockLatest(tx, [m.id])).get(m.id);
    const latest = locked ? { total: locked.total, readAt: repo.dt(locked.readAt) } : undefined;
    const near = await repo.readingNeighbours(tx, m.id, readAt);
    if (near.same) throw refuse('DUPLICATE_READING', `该表具在 ${fmt(readAt)} 已有读数 ${near.same.total}，不能重复录入`);
    const base = latest ? { total: latest.total, readAt: latest.readAt } : { total: m.initialReading, readAt: null as Date | null };
    const older = !!latest && readAt < latest.readAt;
    const lower = total.lt(base.total);
    const lastText = base.readAt ? `上次读数 ${base.total}（${fmt(base.readAt)}）` : `初始读数 ${base.total}`;

    if (b.adjust === 0) {
      if (older) {
        throw refuse('READING_OLDER', `抄表时间早于上次抄表时间 ${fmt(latest!.readAt)}，不能录入。如为补录历史读数，请选择「读数纠正」并填写原因`);
      }
      if (lower) {
        throw refuse('READING_BACKWARDS', `读数 ${total.toFixed(2)} 小于${lastText}，不能录入。如已更换表具请选择「换表」，如上次读数有误请选择「读数纠正」，并填写原因`);
      }
    } else if (b.adjust === 1 && older) {
      throw refuse('READING_OLDER', `换表读数的抄表时间应晚于上次抄表时间 ${fmt(latest!.readAt)}`);
    } else if (b.adjust === 2 && older) {
      const lo = near.prev ? new Decimal(near.prev.total) : new Decimal(m.initialReading);
      const hi = new Decimal(near.next!.total);
      if (total.lt(lo) || total.gt(hi)) {
        throw refuse('CORRECTION_OUT_OF_RANGE', `补录的历史读数应介于前后两次读数之间（${lo.toFixed(2)} ~ ${hi.toFixed(2)}）`);
      }
    }

    const registers: Record<string, string | number> = { manual: 1 };
    if (b.adjust) {
      registers.adjust = b.adjust;
      registers.reason = b.reason;
      registers.previousTotal = base.total;
    }
    if (b.memo) registers.memo = b.memo;
    const row: control.ReadingRow = {
      companyId: m.companyId,
      meterId: m.id,
      readAt,
      source: SOURCE.manual,
      total: total.toFixed(2),
      registers,
      exception: '',
      commandId: null,
      operatorId: ctx.user.id,
    };
    const inserted = await control.insertReadings(tx, [row]);
    if (!inserted.size) throw refuse('DUPLICATE_READING', `该表具在 ${fmt(readAt)} 已有读数，不能重复录入`);
    // the latest moves to a later reading only (a filled-in older one stays history)
    if (!older) await control.upsertLatest(tx, [{ ...row, registers: {} }]);
    return { m, base, older };
  });

  const m = out.m;
  if (!out.older) {
    bus.emit({ companyId: m.companyId, kind: 'reading', body: { meterId: m.id, areaId: m.areaId, total: total.toFixed(2), readAt: readAt.toISOString(), source: SOURCE.manual, valve: null } });
  }
  ctx.audit.action = b.adjust ? `人工抄表（${ADJUST_TEXT[b.adjust]}）` : '人工抄表';
  ctx.audit.target = `表具 ${m.name || m.address} 读数 ${total.toFixed(2)}`;
  const usage = !out.older && b.adjust === 0 ? total.minus(out.base.total).toFixed(2) : null;
  const message =
    b.adjust === 1 ? `换表读数已录入：原表末次读数 ${out.base.total}，新表读数 ${total.toFixed(2)}，此后用量从新读数起算`
    : b.adjust === 2 && out.older ? `历史读数已补录（${fmt(readAt)}：${total.toFixed(2)} ${unit(m.kind)}）`
    : b.adjust === 2 ? `纠正读数已录入（${total.toFixed(2)} ${unit(m.kind)}）。已结算的费用不会自动冲正，如需退还请办理退费`
    : `读数已录入，本次用量 ${usage} ${unit(m.kind)}`;
  return {
    meterId: m.id,
    meterName: m.name,
    address: m.address,
    total: total.toFixed(2),
    readAt,
    adjust: b.adjust,
    adjustText: ADJUST_TEXT[b.adjust],
    previousTotal: out.base.total,
    usage,
    message,
  };
}

// ---------------------------------------------------------------------------------------------
// 保电 / 保水
// ---------------------------------------------------------------------------------------------

type Target = { kind: number; meterIds?: number[]; roomId?: number; areaId?: number };

/** The meters a protection request names, in the caller's scope; 404 for what the caller cannot see. */
async function resolveTargets(ctx: Ctx, t: Target) {
  return ctx.tx(async (tx) => {
    if (t.roomId && !(await repo.roomVisible(tx, t.roomId))) throw notFound('房间');
    if (t.areaId && !(await repo.areaVisible(tx, t.areaId))) throw notFound('区域');
    if (t.meterIds?.length) {
      const ids = [...new Set(t.meterIds)];
      const visible = await control.controlMeters(tx, ids);
      if (visible.length !== ids.length) throw notFound('表具');
      const closed = visible.find((m) => m.status === 2);
      if (closed) throw refuse('METER_CLOSED', `表具「${closed.name || closed.address}」已销表，不能${protectWord(t.kind)}`);
      const wrong = visible.find((m) => m.kind !== t.kind);
      if (wrong) throw refuse('WRONG_KIND', `表具「${wrong.name || wrong.address}」是${kindName(wrong.kind)}，${protectWord(t.kind)}只适用于${kindName(t.kind)}`);
    }
    const meters = await repo.targetMeters(tx, t);
    if (!meters.length) throw refuse('NO_METERS', `所选${t.roomId ? '房间' : '区域'}下没有可${protectWord(t.kind)}的${kindName(t.kind)}`);
    return meters;
  });
}

/** Electric DL/T 645 meters in use also hold power themselves (保电 command), so they do not trip on their own. */
const holdsPowerItself = (m: repo.TargetMeter) => m.kind === 1 && m.status === 1 && protocolOf(m) === 'dlt645';

async function deviceCommands(ctx: Ctx, api: ControlApi, meters: repo.TargetMeter[], kind: 'protect_on' | 'protect_off', memo: string) {
  const ids = meters.filter(holdsPowerItself).map((m) => m.id);
  if (!ids.length) return 0;
  const target = ctx.audit.target;
  const views = await requestCommands(ctx, api, ids, { kind, memo });
  ctx.audit.target = target; // requestCommands names its own target; keep ours
  return views.length;
}

export async function protectStart(ctx: Ctx, api: ControlApi, b: Input<typeof S.ProtectStartBody>) {
  if (b.endAt && b.endAt <= new Date()) throw badRequest('参数「endAt」结束时间应晚于当前时间');
  const word = protectWord(b.kind);
  const meters = await resolveTargets(ctx, b);
  const r = await ctx.tx((tx) =>
    repo.startProtections(tx, { meters, kind: b.kind, reason: b.reason, endAt: b.endAt ?? null, userId: ctx.user.id }),
  );
  ctx.audit.action = `开启${word}`;
  ctx.audit.target = meters.length === 1 ? `表具 ${meters[0].name || meters[0].address}` : `${kindName(b.kind)} ${meters.length} 块`;
  const commands = await deviceCommands(ctx, api, meters, 'protect_on', b.reason);
  const parts = [`已对 ${meters.length} 块${kindName(b.kind)}开启${word}`];
  if (r.renewed) parts.push(`其中 ${r.renewed} 块原已${word}，已更新原因与结束时间`);
  if (commands) parts.push(`已向 ${commands} 块电表下发保电指令`);
  return { meters: meters.length, started: r.started, renewed: r.renewed, commands, endAt: b.endAt ?? null, message: parts.join('，') };
}

export async function protectEnd(ctx: Ctx, api: ControlApi, b: Input<typeof S.ProtectEndBody>) {
  const word = protectWord(b.kind);
  const meters = await resolveTargets(ctx, b);
  const ended = await ctx.tx((tx) => repo.endProtections(tx, meters.map((m) => m.id), ctx.user.id));
  if (!ended.length) throw refuse('NOT_PROTECTED', `所选${kindName(b.kind)}当前均未处于${word}状态`);
  ctx.audit.action = `解除${word}`;
  ctx.audit.target = ended.length === 1 ? `表具 ${meters.find((m) => m.id === ended[0])?.address ?? ended[0]}` : `${kindName(b.kind)} ${ended.length} 块`;
  const endedSet = new Set(ended);
  const commands = await deviceCommands(ctx, api, meters.filter((m) => endedSet.has(m.id)), 'protect_off', b.memo || `解除${word}`);
  const parts = [`已解除 ${ended.length} 块${kindName(b.kind)}的${word}`];
  if (meters.length > ended.length) parts.push(`${meters.length - ended.length} 块原本未${word}`);
  if (commands) parts.push(`已向 ${commands} 块电表下发保电解除指令`);
  return { meters: meters.length, ended: ended.length, commands, message: parts.join('，') };
}

export async function protections(ctx: Ctx, q: Input<typeof S.ProtectListQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listProtections(tx, { kind: q.kind, active: q.active, keyword: q.keyword, meterId: q.meterId, searchArea: q.searchArea, start: q.start, end: q.end }, q.size, offsetOf(q)),
  );
  return new Page(r.rows, r.count);
}

// ---------------------------------------------------------------------------------------------
// 定时阀控
// ---------------------------------------------------------------------------------------------

const ACTION_TEXT = (action: string, kind?: number) =>
  action === 'open' ? (kind === 2 ? '开阀' : kind === 1 ? '合闸' : '合闸/开阀') : kind === 2 ? '关阀' : kind === 1 ? '拉闸' : '拉闸/关阀';

/** A daily time already past today counts as today's run: it first runs tomorrow. */
function dailyMark(timeOfDay: string, now: Date): Date | null {
  const today = chinaTimeToday(timeOfDay, now);
  return today && today <= now ? now : null;
}

/**
 * A timed close switches meters off as /longRange does (SPEC §4): when any of them has phaseId 1 the
 * request carries the valve-control password, compared (and its failures limited and audited) by the
 * company module. Meters of another company are invisible here, so they answer 404 after this.
 */
async function verifyValveClose(ctx: Ctx, meterIds: number[], password: string | undefined) {
  if (await ctx.tx((tx) => control.asksValvePassword(tx, meterIds))) await valvePassword.verify(ctx, password);
}

export async function timedCreate(ctx: Ctx, b: Input<typeof S.TimedCreateBody>) {
  const now = new Date();
  if (b.repeat === 'once' && b.runAt! <= now) throw badRequest('参数「runAt」执行时间应晚于当前时间');
  const ids = [...new Set(b.meterIds)];
  if (b.action === 'close') await verifyValveClose(ctx, ids, b.password);
  const created = await ctx.tx(async (tx) => {
    const meters = await control.controlMeters(tx, ids);
    if (meters.length !== ids.length) throw notFound('表具');
    const closed = meters.find((m) => m.status === 2);
    if (closed) throw refuse('METER_CLOSED', `表具「${closed.name || closed.address}」已销表，不能设置定时阀控`);
    return repo.insertTimed(
      tx,
      meters.map((m) => ({
        companyId: m.companyId,
        meterId: m.id,
        action: b.action,
        repeat: b.repeat,
        runAt: b.repeat === 'once' ? b.runAt! : null,
        timeOfDay: b.repeat === 'daily' ? b.timeOfDay : '',
        memo: b.memo,
        createdBy: ctx.user.id,
        lastRunAt: b.repeat === 'daily' ? dailyMark(b.timeOfDay, now) : null,
      })),
    );
  });
  const when = b.repeat === 'once' ? fmt(b.runAt!) : `每天 ${b.timeOfDay}`;
  ctx.audit.target = `${created.length} 块表具 ${when} ${ACTION_TEXT(b.action)}`;
  return { ids: created, created: created.length, message: `已创建 ${created.length} 个定时任务（${when} ${ACTION_TEXT(b.action)}）` };
}

export async function timedUpdate(ctx: Ctx, b: Input<typeof S.TimedUpdateBody>) {
  const now = new Date();
  if (b.action === 'close') {
    const [t] = await ctx.tx((tx) => repo.timedByIds(tx, [b.id]));
    if (!t) throw notFound('定时任务');
    await verifyValveClose(ctx, [t.meterId], b.password);
  }
  await ctx.tx(async (tx) => {
    const [t] = await repo.timedByIds(tx, [b.id]);
    if (!t) throw notFound('定时任务');
    const runAt = b.repeat === 'once' ? b.runAt! : null;
    const timeOfDay = b.repeat === 'daily' ? b.timeOfDay : '';
    const changed = t.action !== b.action || t.repeat !== b.repeat || (t.runAt?.getTime() ?? null) !== (runAt?.getTime() ?? null) || t.timeOfDay !== timeOfDay;
    if (changed && b.repeat === 'once' && runAt! <= now) throw badRequest('参数「runAt」执行时间应晚于当前时间');
    const lastRunAt = !changed ? undefined : b.repeat === 'daily' ? dailyMark(timeOfDay, now) : null;
    await repo.updateTimed(tx, t.id, { action: b.action, repeat: b.repeat, runAt, timeOfDay, memo: b.memo, enabled: b.enabled, lastRunAt });
    ctx.audit.target = `定时任务 ${t.id}（表具 ${t.meterName || t.address}）`;
  });
  return null;
}

export async function timedEnable(ctx: Ctx, b: Input<typeof S.TimedEnableBody>) {
  const ids = [...new Set(b.ids)];
  const now = new Date();
  if (b.enabled) {
    // turning a timed close back on authorises its closes again
    const closes = (await ctx.tx((tx) => repo.timedByIds(tx, ids))).filter((t) => !t.enabled && t.action === 'close');
    if (closes.length) await verifyValveClose(ctx, closes.map((t) => t.meterId), b.password);
  }
  const changed = await ctx.tx(async (tx) => {
    const rows = await repo.timedByIds(tx, ids);
    if (rows.length !== ids.length) throw notFound('定时任务');
    if (b.enabled) {
      for (const t of rows.filter((x) => !x.enabled)) {
        if (t.repeat === 'once' && t.lastRunAt) throw refuse('TIMED_DONE', `定时任务 ${t.id} 为单次任务且已执行，请修改执行时间后再启用`);
        if (t.repeat === 'once' && t.runAt && t.runAt <= now) throw refuse('TIMED_PAST', `定时任务 ${t.id} 的执行时间已过，请修改执行时间后再启用`);
        // a daily time already past today is not made up for: it runs from tomorrow
        if (t.repeat === 'daily') {
          const mark = dailyMark(t.timeOfDay, now);
          if (mark) await repo.markTimedRun(tx, t.id, mark, false);
        }
      }
    }
    return repo.setTimedEnabled(tx, ids, b.enabled);
  });
  ctx.audit.action = b.enabled ? '启用定时阀控' : '停用定时阀控';
  ctx.audit.target = `定时任务 ${ids.join(',')}`.slice(0, 200);
  return { changed, message: `已${b.enabled ? '启用' : '停用'} ${changed} 个定时任务` };
}

export async function timedDelete(ctx: Ctx, b: Input<typeof S.TimedDeleteBody>) {
  const ids = [...new Set(b.ids)];
  const n = await ctx.tx(async (tx) => {
    const rows = await repo.timedByIds(tx, ids);
    if (rows.length !== ids.length) throw notFound('定时任务');
    return repo.deleteTimed(tx, ids);
  });
  ctx.audit.target = `定时任务 ${ids.join(',')}`.slice(0, 200);
  return { deleted: n };
}

export async function timedList(ctx: Ctx, q: Input<typeof S.TimedListQuery>) {
  const now = new Date();
  const r = await ctx.tx((tx) =>
    repo.listTimed(tx, { keyword: q.keyword, action: q.action, repeat: q.repeat, enabled: q.enabled, meterId: q.meterId, searchArea: q.searchArea }, q.size, offsetOf(q)),
  );
  return new Page(
    r.rows.map((t) => ({
      ...t,
      actionText: ACTION_TEXT(t.action, t.kind),
      repeatText: t.repeat === 'daily' ? '每天' : '单次',
      scheduleText: t.repeat === 'daily' ? `每天 ${t.timeOfDay}` : t.runAt ? fmt(t.runAt) : '',
      nextRunAt: nextRun(t, now),
      needsValvePassword: t.phaseId === 1,
      lastCommand: t.lastCommand ? { ...t.lastCommand, statusText: COMMAND_STATUS[t.lastCommand.status as CommandStatus] ?? t.lastCommand.status } : null,
    })),
    r.count,
  );
}

// ---------------------------------------------------------------------------------------------
// 表具参数记录
// ---------------------------------------------------------------------------------------------

export async function configs(ctx: Ctx, q: Input<typeof S.ConfigListQuery>) {
  const r = await ctx.tx((tx) =>
    repo.listConfigs(tx, { meterId: q.meterId, keyword: q.keyword, kind: q.kind, op: q.op, searchArea: q.searchArea, start: q.start, end: q.end }, q.size, offsetOf(q)),
  );
  return new Page(r.rows, r.count);
}

