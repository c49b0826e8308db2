import type { z } from 'zod';
import type { NotificationQuery } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { offsetOf } from '../../http/paging.ts';
import { rangeOf } from '../../time.ts';
import type { NotifyProvider } from './provider.ts';
import * as repo from './repo.ts';

// Notifications (短信/电话提醒): queued in the transaction that decided them (so a rolled-back balance
// change sends nothing), then sent by the worker through an outbox: claimed (queued → sending, with a
// lease) and committed, sent outside any transaction with the message's idempotency key, and each
// outcome recorded on its own (sent | failed). A sender that dies leaves only the messages it had
// claimed and not recorded; after the lease they are tried once more with the same key (the
// provider drops a key it has seen), never the batch again.

export type { NewNotification } from './repo.ts';

/** Queues notifications in the caller's transaction; each idempotency key is queued once. */
export function queue(tx: Tx, rows: repo.NewNotification[]): Promise<number> {
  return repo.insertNotifications(tx, rows);
}

/** The provider's idempotency key of a notification (the same for every try). */
export const notifyKey = (id: number) => `notify-${id}`;

/**
 * Sends up to `limit` queued notifications; returns how many were handled. `leaseMs`: how long a
 * claimed message belongs to this sender (long enough to send the whole claim).
 */
export async function sendQueued(db: Db, provider: NotifyProvider, limit = 100, leaseMs = 5 * 60_000): Promise<number> {
  const batch = await db.tx(SYSTEM_SCOPE, (tx) => repo.claimForSending(tx, limit, leaseMs));
  for (const n of batch) {
    let error = '';
    if (!/^1\d{10}$/.test(n.phone)) error = '业主未登记有效手机号';
    else {
      try {
        await provider.send({ id: n.id, companyId: n.companyId, channel: n.channel, phone: n.phone, content: n.content, idempotencyKey: notifyKey(n.id) });
      } catch (e) {
        error = (e as Error).message?.slice(0, 200) || '发送失败';
      }
    }
    await db.tx(SYSTEM_SCOPE, (tx) => repo.markDone(tx, n.id, n.attempt, provider.name, error));
  }
  return batch.length;
}

export function listNotifications(ctx: Ctx, q: z.output<typeof NotificationQuery>) {
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
