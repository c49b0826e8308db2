import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { offsetOf } from '../../http/paging.ts';
import { rangeOf } from '../billing/index.ts';
import type { NotifyProvider } from './provider.ts';
import * as repo from './repo.ts';

// Notifications (短信/电话提醒): queued in the transaction that decided them (so a rolled-back balance
// change sends nothing), then sent by the worker: queued → sent | failed.

export type { NewNotification } from './repo.ts';

/** Queues notifications in the caller's transaction; each idempotency key is queued once. */
export function queue(tx: Tx, rows: repo.NewNotification[]): Promise<number> {
  return repo.insertNotifications(tx, rows);
}

/** Sends up to `limit` queued notifications; returns how many were handled. */
export async function sendQueued(db: Db, provider: NotifyProvider, limit = 100): Promise<number> {
  return db.tx(SYSTEM_SCOPE, async (tx) => {
    const batch = await repo.claimQueued(tx, limit);
    for (const n of batch) {
      let error = '';
      if (!/^1\d{10}$/.test(n.phone)) error = '业主未登记有效手机号';
      else {
        try {
          await provider.send(n);
        } catch (e) {
          error = (e as Error).message?.slice(0, 200) || '发送失败';
        }
      }
      await repo.markDone(tx, n.id, provider.name, error);
    }
    return batch.length;
  });
}

export interface NotificationQuery {
  index: number;
  size: number;
  searchArea?: number;
  ownerName?: string;
  phone?: string;
  status?: string;
  level?: number;
  startTime?: string;
  endTime?: string;
}

export function listNotifications(ctx: Ctx, q: NotificationQuery) {
  const { from, to } = rangeOf(q.startTime, q.endTime);
  return ctx.tx(async (tx) => {
    const r = await repo.listNotifications(
      tx,
      {
        areaRestricted: ctx.scope.areaIds != null,
        searchArea: q.searchArea,
        ownerName: q.ownerName,
        phone: q.phone,
        status: q.status,
        level: q.level,
        from,
        to,
      },
      q.size,
      offsetOf(q),
    );
    return new Page(r.rows, r.count);
  });
}
