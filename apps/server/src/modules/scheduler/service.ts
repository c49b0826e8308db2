import type { Ctx } from '../../http/context.ts';
import * as repo from './repo.ts';

/** a job is overdue when its next run is this late (several of its periods, at least a minute) */
const overdueAfter = (everyMs: number) => Math.max(60_000, 3 * everyMs);

/** The timed jobs as /task shows them: last and next run, duration, counts and the last error. */
export async function listJobs(ctx: Ctx) {
  const rows = await ctx.tx((tx) => repo.listJobs(tx));
  const now = Date.now();
  return rows.map((j) => {
    const overdue = j.nextRunAt != null && now - j.nextRunAt.getTime() > overdueAfter(j.everyMs);
    const state = overdue ? 'overdue' : j.lastOk === false ? 'failed' : 'ok';
    return {
      ...j,
      state,
      stateText: { ok: '正常', failed: '上次失败', overdue: '未按时运行' }[state],
      roleText: ({ api: '接口服务', worker: '指令执行进程' } as Record<string, string>)[j.role] ?? j.role,
    };
  });
}
