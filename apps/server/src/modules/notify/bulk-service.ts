import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { renderTemplate, type BulkPreviewBody, type BulkSendBody } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { refuse } from '../../http/errors.ts';
import * as bulkRepo from './bulk-repo.ts';
import * as configRepo from './config-repo.ts';
import * as repo from './repo.ts';
import * as rulesRepo from './rules-repo.ts';

/** SMS_EVENTS 5 公告通知 */
const NOTICE_SMS_EVENT = 5;

// 群发短信 (/systemSend): the owners chosen (area, arrears, meter kind) get one message each, with
// {company} {owner} {room} filled in, priced at the company's SMS price. The preview answers the count
// and the cost; the send carries the count the user confirmed and is refused when the list changed.
// Messages are queued in one transaction (keys bulk:<batch>:<owner>) and sent by the worker's outbox;
// the page polls the batch's progress.

const MOBILE = /^1\d{10}$/;

async function plan(tx: Tx, companyId: number, b: z.output<typeof BulkPreviewBody>) {
  const all = await bulkRepo.recipients(tx, { areaId: b.areaId, arrearsOnly: b.arrearsOnly, meterKind: b.meterKind });
  const company = await bulkRepo.companyName(tx, companyId);
  const { smsPriceFen } = await configRepo.smsPrices(tx, companyId);
  const to = all.filter((r) => MOBILE.test(r.phone)).map((r) => ({ ...r, content: renderTemplate(b.content, { company, owner: r.ownerName, room: r.roomName }) }));
  return { owners: all.length, to, priceFen: smsPriceFen };
}

export async function preview(ctx: Ctx, b: z.output<typeof BulkPreviewBody>) {
  const companyId = companyOf(ctx);
  return ctx.tx(async (tx) => {
    const p = await plan(tx, companyId, b);
    return {
      owners: p.owners, count: p.to.length, priceFen: p.priceFen, costFen: p.priceFen * p.to.length,
      sample: p.to.slice(0, 5).map((r) => ({ ownerName: r.ownerName, phone: r.phone, roomName: r.roomName, content: r.content })),
    };
  });
}

export async function send(ctx: Ctx, b: z.output<typeof BulkSendBody>) {
  const companyId = companyOf(ctx);
  const batch = randomUUID();
  await ctx.tx(async (tx) => {
    const p = await plan(tx, companyId, b);
    if (p.to.length !== b.expectCount) throw refuse('BULK_CHANGED', `发送名单已变化（现为 ${p.to.length} 人），请重新预览后再确认`);
    ctx.audit.target = `群发短信 ${p.to.length} 条`;
    await repo.insertNotifications(tx, p.to.map((r) => ({
      companyId, ownerId: r.ownerId, accountId: null, meterId: null, level: 6, channel: 'sms' as const, phone: r.phone, content: r.content,
      priceFen: p.priceFen, idempotencyKey: `bulk:${batch}:${r.ownerId}`,
    })));
  });
  return progress(ctx, batch);
}

export async function progress(ctx: Ctx, batch: string) {
  const companyId = companyOf(ctx);
  const p = await ctx.tx((tx) => bulkRepo.batchProgress(tx, companyId, batch));
  return { batch, ...p, done: p.total > 0 && p.queued + p.sending === 0 };
}

/** The built-in 公告通知 text, when no template of that event is in use. */
const NOTICE_TEXT = '【{company}】尊敬的{owner}，物业发布了公告「{title}」，请在业主端查看详情。';

/**
 * 物业公告's SMS (content module, on publishing): one message per owner addressed with a mobile number,
 * the platform's first 公告通知 template in use (or the built-in text), in the caller's transaction.
 * Keys notice:<notice>:<owner>: publishing the same notice again texts nobody twice. Answers how many were queued.
 */
export async function queueNoticeSms(tx: Tx, companyId: number, notice: { id: number; title: string }, to: bulkRepo.Recipient[]): Promise<number> {
  const mobile = to.filter((r) => MOBILE.test(r.phone));
  if (!mobile.length) return 0;
  const template = (await rulesRepo.firstTemplateContent(tx, NOTICE_SMS_EVENT)) ?? NOTICE_TEXT;
  const company = await bulkRepo.companyName(tx, companyId);
  const { smsPriceFen } = await configRepo.smsPrices(tx, companyId);
  return repo.insertNotifications(tx, mobile.map((r) => ({
    companyId, ownerId: r.ownerId, accountId: null, meterId: null, level: 7, channel: 'sms' as const, phone: r.phone,
    content: renderTemplate(template, { company, owner: r.ownerName, room: r.roomName, title: notice.title }),
    priceFen: smsPriceFen, idempotencyKey: `notice:${notice.id}:${r.ownerId}`,
  })));
}
