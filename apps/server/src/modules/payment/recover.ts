import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import * as repo from './repo.ts';
import { credit, type Payments } from './service.ts';

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
  const open = await db.tx(SYSTEM_SCOPE, (tx) => repo.openPayments(tx, channels, o.minAgeMs ?? 60_000, o.limit ?? 100));
  const r: RecoverResult = { checked: open.length, credited: 0, closed: 0, failed: 0 };
  for (const p of open) {
    const gateway = pay.gateways[p.channel as 'wechat' | 'alipay']!;
    try {
      const q = await gateway.query(p.outTradeNo);
      if (q.state === 'paid' && q.paid) {
        const c = await credit(db, gateway.channel, q.paid);
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
