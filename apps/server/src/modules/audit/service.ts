import type { AuditLogQuery } from '@meter/contracts';
import type { z } from 'zod';
import { offsetOf } from '../../http/paging.ts';
import { Page } from '../../http/envelope.ts';
import type { Ctx } from '../../http/context.ts';
import * as repo from './repo.ts';

export async function listLog(ctx: Ctx, q: z.output<typeof AuditLogQuery>) {
  const f = { username: q.username, action: q.action, start: q.startTime, end: q.endTime };
  const r = await ctx.tx((tx) => repo.list(tx, f, q.size, offsetOf(q)));
  return new Page(r.rows, r.count);
}
