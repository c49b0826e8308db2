import type { z } from 'zod';
import type { NotificationQuery } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { Tx } from '../../db/client.ts';
import type { Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { offsetOf } from '../../http/paging.ts';
import { rangeOf } from '../../time.ts';
import { SendError, type NotifyProvider, type OutgoingMessage } from './provider.ts';
import * as credit from './credit-repo.ts';
import * as repo from './repo.ts';

// Notifications (短信/电话提醒): queued in the transaction that decided them (so a rolled-back balance
// change sends nothing), then sent by the worker through an outbox: claimed (queued → sending, with a
// lease) and committed, sent outside any transaction with the message's idempotency key, and each
// outcome recorded on its own (sent with the provider's id, answer and the cost | failed | queued
// again after a back-off when the refusal may pass). A sender that dies leaves only the messages it
// had claimed and not recorded; after the lease they are tried once more with the same key — and a
// provider that keeps records (阿里云, 腾讯云) is first asked whether it already has that key — never
// the batch again. Delivery receipts are collected afterwards (collectReceipts).

export type { NewNotification } from './repo.ts';

/** Queues notifications in the caller's transaction; each idempotency key is queued once. */
export function queue(tx: Tx, rows: repo.NewNotification[]): Promise<number> {
  return repo.insertNotifications(tx, rows);
}

/** notifications.level of an owner's login code (业主端): 1–7 are the alarms, receipts, bulk and notices */
export const LOGIN_CODE_LEVEL = 8;
export const CODE_HIDDEN = '【验证码已隐藏】';

/**
 * What staff may read of a notification: a login code is sent with its digits, but no staff answer
 * carries them (whoever reads /notesMessage could otherwise sign in as the owner) — the text, the
 * provider's answer (阿里云's QuerySendDetails echoes the content), the receipt and the error alike.
 */
export function staffView<T extends Record<string, unknown>>(row: T): T {
  if (Number(row.level) !== LOGIN_CODE_LEVEL) return row;
  const hide = (v: unknown) => (typeof v === 'string' ? v.replace(/(?<!\d)\d{4,8}(?!\d)/g, (d, at: number, all: string) => (codeLike(all, at) ? CODE_HIDDEN : d)) : v);
  return { ...row, content: typeof row.content === 'string' ? row.content.replace(/(?<!\d)\d{4,8}(?!\d)/g, CODE_HIDDEN) : row.content, answer: hide(row.answer), receiptText: hide(row.receiptText), error: hide(row.error) };
}

/** a run of digits that follows 验证码 (within a few characters): the code as the provider echoes it */
const codeLike = (all: string, at: number) => /验证码[^\d]{0,6}$/.test(all.slice(Math.max(0, at - 12), at));

/** The provider's idempotency key of a notification (the same for every try). */
export const notifyKey = (id: number) => `notify-${id}`;

/** The provider of a company's messages on a channel (one provider for every message: a fixed one). */
export type ProviderFor = NotifyProvider | ((companyId: number, channel: string) => Promise<NotifyProvider>);

export interface SendOptions {
  limit?: number;
  /** how long a claimed message belongs to this sender (long enough to send the whole claim) */
  leaseMs?: number;
  /** the first back-off after a passing refusal; each next one is 4× longer (default 1 minute) */
  retryBaseMs?: number;
}

/** The wait before try `attempt + 1` after try `attempt` was refused with a passing reason. */
export const backoffMs = (attempt: number, baseMs = 60_000) => baseMs * 4 ** (attempt - 1);

/**
 * Sends up to `limit` queued notifications; returns how many were handled. The third and fourth
 * arguments (limit, leaseMs) are also accepted positionally, as the first outbox took them.
 */
export async function sendQueued(db: Db, providers: ProviderFor, limitOrOptions: number | SendOptions = 100, leaseMs?: number): Promise<number> {
  const o: SendOptions = typeof limitOrOptions === 'number' ? { limit: limitOrOptions, leaseMs } : limitOrOptions;
  // claimed and charged to the company's SMS credit in one transaction; those it does not cover are held (余额不足)
  const batch = await db.tx(SYSTEM_SCOPE, async (tx) => {
    const claimed = await repo.claimForSending(tx, o.limit ?? 100, o.leaseMs ?? 5 * 60_000);
    const held = await credit.chargeClaimed(tx, claimed.map((n) => n.id));
    return claimed.filter((n) => !held.has(n.id));
  });
  const cache = new Map<string, Promise<NotifyProvider>>();
  const providerOf = (companyId: number, channel: string) => {
    if (typeof providers !== 'function') return Promise.resolve(providers);
    const k = `${companyId}:${channel}`;
    if (!cache.has(k)) cache.set(k, providers(companyId, channel));
    return cache.get(k)!;
  };
  for (const n of batch) {
    let provider: NotifyProvider | null = null;
    let error = '';
    let answer = '';
    let retry = false;
    let accepted: { ref: string; answer: string } | null = null;
    if (!/^1\d{10}$/.test(n.phone)) error = '业主未登记有效手机号';
    else {
      try {
        provider = await providerOf(n.companyId, n.channel);
        const m: OutgoingMessage = { id: n.id, companyId: n.companyId, channel: n.channel, phone: n.phone, content: n.content, idempotencyKey: notifyKey(n.id), attempt: n.attempt, createdAt: n.createdAt };
        // tried before: the provider may already have it (a sender died after handing it over)
        if (n.attempt > 1 && provider.find) accepted = await provider.find(m);
        accepted ??= (await provider.send(m)) ?? { ref: '', answer: '' };
      } catch (e) {
        const se = e instanceof SendError ? e : null;
        error = (e as Error).message?.slice(0, 200) || '发送失败';
        answer = se?.answer ?? '';
        retry = se ? se.retryable : true;
      }
    }
    const name = provider?.name ?? (typeof providers === 'function' ? 'log' : providers.name);
    await db.tx(SYSTEM_SCOPE, async (tx) => {
      if (accepted) return repo.markSent(tx, n.id, n.attempt, name, accepted.ref, accepted.answer);
      const again = retry && n.attempt < repo.MAX_RETRY_ATTEMPTS ? backoffMs(n.attempt, o.retryBaseMs) : null;
      await repo.markFailed(tx, n.id, n.attempt, name, again == null ? error : `${error}（将于稍后重试）`, answer, again);
      // failed for good: its charge goes back to the credit
      if (again == null) await credit.refundFailed(tx, n.id);
    });
  }
  return batch.length;
}

/** Asks the providers for the delivery receipts still awaited; returns how many were recorded. */
export async function collectReceipts(db: Db, providers: ProviderFor, limit = 200): Promise<number> {
  const rows = await db.tx(SYSTEM_SCOPE, (tx) => repo.awaitingReceipts(tx, limit));
  const groups = new Map<string, repo.AwaitingRow[]>();
  for (const r of rows) {
    const k = `${r.companyId}:${r.provider}`;
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  let n = 0;
  for (const list of groups.values()) {
    const p = typeof providers === 'function' ? await providers(list[0].companyId, 'sms').catch(() => null) : providers;
    // a company that changed provider since: its old messages' receipts are no longer asked for
    if (!p?.receipts || p.name !== list[0].provider) continue;
    const got = await p.receipts(list).catch(() => []);
    for (const r of got) {
      await db.tx(SYSTEM_SCOPE, async (tx) => {
        await repo.recordReceipt(tx, r.id, r.delivered, r.text.slice(0, 200), r.at);
        if (!r.delivered) await credit.refundFailed(tx, r.id);
      });
      n++;
    }
  }
  return n;
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
    return new Page(r.rows.map(staffView), r.count);
  });
}
