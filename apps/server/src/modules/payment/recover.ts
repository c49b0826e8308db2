import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import * as repo from './repo.ts';
import { refuse } from '../../http/errors.ts';
import type { Channel, QueryResult } from './providers/gateway.ts';
import { CHANNEL_TEXT, credit, gatewayOf, type Payments } from './service.ts';

// Lost notifications (run by the worker's billing job scheduler, jobs/billing.ts): each unpaid order
// of a configured provider, once it is a little old, is queried at the provider. Paid there → credited
// through the same path as a notification (once per out_trade_no). Past its expiry → closed at the
// provider first (so nobody can pay it after), then here; a provider that refuses the close because
// the order was just paid leaves it for the next run, which credits it.

export interface RecoverResult {
  checked: number;
  credited: number;
  closed: number;
  failed: number;
}

export async function recoverPayments(db: Db, pay: Payments, o: { minAgeMs?: number; limit?: number; log?: (msg: string, err: unknown) => void } = {}): Promise<RecoverResult> {
  const channels = Object.keys(pay.gateways);
  const open = await db.tx(SYSTEM_SCOPE, (tx) => repo.openPayments(tx, channels, o.minAgeMs ?? 60_000, o.limit ?? 100, !!pay.merchants));
  const r: RecoverResult = { checked: open.length, credited: 0, closed: 0, failed: 0 };
  for (const p of open) {
    try {
      // the merchant that took the order (the company's own, or the platform's)
      const gateway = (await gatewayOf(db, pay, p.channel as Channel, p.merchantCompanyId))!;
      const q = await gateway.query(p.outTradeNo);
      if (q.state === 'paid' && q.paid) {
        const c = await credit(db, gateway.channel, q.paid, p.merchantCompanyId);
        if (!c.duplicate) r.credited++;
      } else if (q.state === 'closed' || p.expired) {
        if (q.state === 'open') await gateway.close(p.outTradeNo);
        await db.tx(SYSTEM_SCOPE, (tx) => repo.closePayment(tx, p.id));
        r.closed++;
      }
    } catch (e) {
      r.failed++;
      o.log?.(`支付订单 ${p.outTradeNo} 查单失败`, e);
    }
  }
  return r;
}

/**
 * 补单 of one order (reconciliation, modules/reconcile): queried at its provider and, paid there,
 * credited through the same path as a notification — once per out_trade_no, however often it is asked.
 * Answers the provider's state and whether this call credited it.
 */
export async function recoverOrder(db: Db, pay: Payments, channel: Channel, outTradeNo: string): Promise<{ state: QueryResult['state']; credited: boolean }> {
  const merchantCompanyId = (await db.tx(SYSTEM_SCOPE, (tx) => repo.merchantOfOrder(tx, outTradeNo))) ?? null;
  const gateway = await gatewayOf(db, pay, channel, merchantCompanyId);
  if (!gateway) throw refuse('PAY_CHANNEL_OFF', `${CHANNEL_TEXT[channel]}未接入支付平台，不能补单`);
  let q: QueryResult;
  try {
    q = await gateway.query(outTradeNo);
  } catch (e) {
    throw refuse('PAY_PROVIDER_ERROR', `查询${CHANNEL_TEXT[channel]}订单失败，请稍后重试（${(e as Error).message}）`);
  }
  if (q.state !== 'paid' || !q.paid) return { state: q.state, credited: false };
  const c = await credit(db, channel, q.paid, merchantCompanyId);
  return { state: 'paid', credited: !c.duplicate };
}
