import type { z } from 'zod';
import type { Ctx } from '../../http/context.ts';
import { companyOf } from '../../http/context.ts';
import { AppError, notFound, refuse } from '../../http/errors.ts';
import { valvePassword as valvePwd } from '../company/index.ts';
import * as repo from './repo/index.ts';
import { ORIGIN } from './rules.ts';
import type * as S from './schema.ts';
import { check, type ControlApi } from './service.ts';

// 批量拉闸/关阀 as one task (issue 16 item 8): /longRange sends the selection once; the worker carries
// the closes out (read-back confirmed, as every close) and counts them on the task, whose progress the
// page and /task show.

/** Refusals a person may force with a reason (check above) */
const OVERRIDABLE = ['METER_PROTECTED', 'NO_CLOSE_PERIOD'];

/**
 * 批量拉闸/关阀 (/longRange): the valve password once for the whole selection (any phaseId-1 meter asks
 * it), each meter checked as a single close is (refused ones are reported, not queued), and every
 * close queued in one statement as a task (origin 3) that the worker carries out and counts — the page
 * and /task show its progress. A meter with a close already pending joins it (nothing sent twice).
 */
export async function closeBulk(ctx: Ctx, api: ControlApi, b: z.output<typeof S.BulkCloseBody>) {
  ctx.audit.action = '批量拉闸/关阀';
  const ids = [...new Set(b.ids)];
  const companyId = companyOf(ctx);
  const meters = await ctx.tx((tx) => repo.controlMeters(tx, ids));
  if (meters.length !== ids.length) throw notFound('表具');
  if (await ctx.tx((tx) => repo.asksValvePassword(tx, ids))) await valvePwd.verify(ctx, b.password);
  const refused: { meterId: number; name: string; code: string; message: string; overridable: boolean }[] = [];
  const ok: number[] = [];
  const overrideReason = b.overrideReason ?? '';
  for (const m of meters) {
    try {
      if (m.companyId !== companyId) throw refuse('OTHER_COMPANY', `表具「${m.name || m.address}」不属于当前单位`);
      check(m, { kind: 'close', overrideReason });
      ok.push(m.id);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      refused.push({ meterId: m.id, name: m.name || m.address, code: e.code, message: e.message, overridable: OVERRIDABLE.includes(e.code) });
    }
  }
  const out = await ctx.tx(async (tx) => {
    if (!ok.length) return { taskId: null, queued: [] as number[] };
    const taskId = await repo.createReadTask(tx, companyId, 3, ctx.user.id);
    const queued = await repo.queueCloses(tx, {
      taskId,
      meterIds: ok,
      expiresAt: new Date(Date.now() + api.commandTtlMinutes * 60_000),
      maxAttempts: api.maxAttempts,
      requestedBy: ctx.user.id,
      requesterName: ctx.user.realName || ctx.user.username,
      origin: ORIGIN.manual,
      memo: b.memo ?? '',
      overrideReason,
      supersededBy: '已被之后的「拉闸/关阀」指令取代',
    });
    return { taskId, queued };
  });
  if (out.queued.length) api.bus.signal('commands');
  ctx.audit.target = `批量拉闸/关阀 ${out.queued.length} 块`;
  return { taskId: out.taskId, queued: out.queued.length, joined: ok.length - out.queued.length, refused };
}
