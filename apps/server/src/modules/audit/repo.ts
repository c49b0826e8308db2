import { and, gte, ilike, lte, type SQL } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { newestPage } from '../../db/crud-repo.ts';
import { auditLog } from '../../db/schema/index.ts';

export async function list(
  tx: Tx,
  f: { username?: string; action?: string; start?: Date; end?: Date },
  limit: number,
  offset: number,
) {
  const w: SQL[] = [];
  if (f.username) w.push(ilike(auditLog.username, `%${f.username}%`));
  if (f.action) w.push(ilike(auditLog.action, `%${f.action}%`));
  if (f.start) w.push(gte(auditLog.createdAt, f.start));
  if (f.end) w.push(lte(auditLog.createdAt, f.end));
  const cond = w.length ? and(...w) : undefined;
  const select = tx
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      username: auditLog.username,
      method: auditLog.method,
      path: auditLog.path,
      action: auditLog.action,
      target: auditLog.target,
      ip: auditLog.ip,
      status: auditLog.status,
      code: auditLog.code,
    })
    .from(auditLog)
    .$dynamic();
  return newestPage(tx, select, auditLog, cond, limit, offset);
}
