import { fenToYuan, type SmsCredit } from '@meter/contracts';
import { platformTx, type Ctx } from '../../http/context.ts';
import { Page } from '../../http/envelope.ts';
import { notFound } from '../../http/errors.ts';
import { offsetOf } from '../../http/paging.ts';
import * as credit from './credit-repo.ts';

// 短信余额 (issue 14 item 10): SPEC §3 prices each message per notify type but keeps no credit, so the
// platform keeps one per company (companies.sms_credit_fen, its own journal sms_credit_journal; see
// credit-repo.ts). A company user sees the warning in the header and on the SMS pages; the platform tops
// up from /belongs, which queues the held messages again.

/** Below this many messages' worth the credit is 偏低. */
const LOW_MESSAGES = 20;

function present(s: credit.CreditState | null, companyId: number | null): SmsCredit {
  if (!s || s.creditFen == null) {
    return {
      companyId, kept: false, balanceFen: 0, balance: '0.00', smsPriceFen: s?.smsPriceFen ?? 0, phonePriceFen: s?.phonePriceFen ?? 0, heldCount: s?.heldCount ?? 0,
      state: '', warning: '',
    };
  }
  const price = Math.max(s.smsPriceFen, 1);
  const out = s.heldCount > 0 || s.creditFen < s.smsPriceFen;
  const low = !out && s.creditFen < price * LOW_MESSAGES;
  const balance = fenToYuan(s.creditFen);
  return {
    companyId, kept: true, balanceFen: s.creditFen, balance, smsPriceFen: s.smsPriceFen, phonePriceFen: s.phonePriceFen, heldCount: s.heldCount,
    state: out ? 'out' : low ? 'low' : '',
    warning: out
      ? `短信余额不足（余额 ¥${balance}${s.heldCount ? `，${s.heldCount} 条消息暂停发送` : ''}），请联系平台充值，充值后自动发送`
      : low ? `短信余额偏低（余额 ¥${balance}，约可发送 ${Math.floor(s.creditFen / price)} 条），请及时联系平台充值` : '',
  };
}

/** The company's SMS credit (a platform user: the company picked at the top, else none). */
export async function getCredit(ctx: Ctx): Promise<SmsCredit> {
  const companyId = ctx.scope.companyId ?? ctx.user.companyId ?? null;
  if (companyId == null) return present(null, null);
  return present(await ctx.tx((tx) => credit.creditOf(tx, companyId)), companyId);
}

export async function topUp(ctx: Ctx, b: { companyId: number; amount: number; memo: string }) {
  ctx.audit.target = `单位 ${b.companyId} 短信余额充值 ¥${fenToYuan(b.amount)}`;
  return platformTx(ctx, async (tx) => {
    const r = await credit.topUp(tx, b.companyId, b.amount, b.memo, ctx.user.realName || ctx.user.username);
    if (!r) throw notFound('单位');
    return { ...present(await credit.creditOf(tx, b.companyId), b.companyId), released: r.released };
  });
}

const KIND_TEXT: Record<string, string> = { topup: '充值', charge: '扣费', refund: '退回' };

export function journal(ctx: Ctx, q: { index: number; size: number }) {
  return ctx.tx(async (tx) => {
    const r = await credit.journal(tx, ctx.scope.companyId, q.size, offsetOf(q));
    return new Page(r.rows.map((x) => ({
      id: Number(x.id), companyId: Number(x.companyId), kind: String(x.kind) as 'topup' | 'charge' | 'refund', kindText: KIND_TEXT[String(x.kind)] ?? String(x.kind),
      amount: fenToYuan(Number(x.amountFen)), balance: fenToYuan(Number(x.balanceFen)), notificationId: x.notificationId == null ? null : Number(x.notificationId),
      memo: String(x.memo), operatorName: String(x.operatorName), createdAt: String(x.createdAt),
    })), r.count);
  });
}
