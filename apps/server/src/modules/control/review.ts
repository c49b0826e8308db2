import { Decimal } from 'decimal.js';
import type { Ctx } from '../../http/context.ts';
import { notFound, refuse } from '../../http/errors.ts';
import type { DeviceEvent } from '../realtime/index.ts';
import * as repo from './repo/index.ts';
import * as rrepo from './review-repo.ts';
import type * as S from './schema.ts';
import type { ControlApi } from './service.ts';
import type { z } from 'zod';
import { formatBeijing } from '../../time.ts';

// A person's answer to a reading held as implausible (ingest.ts, plausible.ts): one call per
// 'implausible' warning, for every reading of that meter held meanwhile.
// - 接受: the held readings newer than the meter's latest good reading become good in time order (one
//   lower than the accepted before it becomes 'backwards'); meter_latest moves to the newest, so the
//   settlement bills up to it once and later readings compare with it. A held reading older than the
//   latest good one cannot be accepted (it is rejected); if none is newer, the request is refused.
// - 驳回: every held reading becomes 'rejected'; billing and later readings go on from the last good one.

type Input<T extends z.ZodType> = z.output<T>;

const time = (t: Date) => formatBeijing(t);

export async function reviewReading(ctx: Ctx, api: ControlApi, b: Input<typeof S.ReviewBody>, accept: boolean) {
  const events: DeviceEvent[] = [];
  const out = await ctx.tx(async (tx) => {
    const w = await rrepo.lockWarning(tx, b.id);
    if (!w) throw notFound('异常记录');
    if (w.kind !== 'implausible' || w.meterId === null) throw refuse('NOT_A_HELD_READING', '该预警不是读数异常跳变，不能接受或驳回读数');
    if (w.status !== 0) throw refuse('WARNING_HANDLED', '该预警已处理，不能重复处理');
    const meterId = w.meterId;
    // the ingest lock of the meter: no reading of it is stored while its held ones are decided
    const latest = (await repo.lockLatest(tx, [meterId])).get(meterId);
    const held = await rrepo.heldReadings(tx, meterId);
    const newer = held.filter((h) => !latest || h.readAt > latest.readAt);
    const decided: { readAt: Date; exception: string }[] = [];
    let accepted: rrepo.HeldReading | undefined;
    if (accept) {
      if (!newer.length) {
        throw refuse('READING_SUPERSEDED', held.length
          ? '该表在跳变读数之后已有更新的正常读数，不能再接受该读数，请驳回'
          : '该表没有待确认的读数，请驳回以关闭此预警');
      }
      for (const h of held) {
        if (!newer.includes(h)) decided.push({ readAt: h.readAt, exception: 'rejected' });
        else if (accepted && new Decimal(h.total).lt(accepted.total)) decided.push({ readAt: h.readAt, exception: 'backwards' });
        else {
          decided.push({ readAt: h.readAt, exception: '' });
          accepted = h;
        }
      }
    } else {
      for (const h of held) decided.push({ readAt: h.readAt, exception: 'rejected' });
    }
    await rrepo.setHeldExceptions(tx, meterId, decided);
    if (accepted) {
      await repo.upsertLatest(tx, [{
        companyId: w.companyId, meterId, readAt: accepted.readAt, source: accepted.source, total: accepted.total,
        registers: accepted.registers, exception: '', commandId: null, operatorId: null,
      }]);
      events.push({
        companyId: w.companyId,
        kind: 'reading',
        body: { meterId, areaId: w.areaId, total: accepted.total, readAt: accepted.readAt.toISOString(), source: accepted.source, valve: null },
      });
    }
    const first = accepted ?? held[0];
    const what = first ? `读数 ${first.total}（${time(first.readAt)}）` : '读数';
    const memo = `${accept ? '已接受' : '已驳回'}${what}${b.memo ? `：${b.memo}` : ''}`;
    await rrepo.closeWarning(tx, w.id, ctx.user.id, memo, { decision: accept ? 'accepted' : 'rejected', readings: decided.length });
    events.push({ companyId: w.companyId, kind: 'warning', body: { id: w.id, meterId, kind: w.kind, status: 1 } });
    return { accepted: decided.filter((x) => x.exception === '').length, rejected: decided.filter((x) => x.exception !== '').length, memo };
  });
  ctx.audit.action = accept ? '接受跳变读数' : '驳回跳变读数';
  ctx.audit.target = `设备异常 ${b.id}`;
  api.bus.emitAll(events);
  return out;
}
