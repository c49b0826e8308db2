import { z } from 'zod';
import { num } from '@meter/contracts';
import { EnergyWallet, Money, id } from '../billing/index.ts';

// Input shapes of the online payment endpoints.

export const PayBody = z.object({
  roomId: id,
  wallet: EnergyWallet,
  amount: Money,
  subject: z.string().trim().max(64, '订单标题最多 64 个字').optional(),
});
export type PayInput = z.infer<typeof PayBody>;

const tradeNo = z.string({ error: '请提供订单号' }).trim().regex(/^[A-Z]{2,3}\d{22}$/, '订单号格式不正确');

/** A provider's notification (the simulated provider signs these fields). */
export const NotifyBody = z.object({
  out_trade_no: tradeNo,
  trade_no: z.string({ error: '请提供支付流水号' }).trim().min(1, '请提供支付流水号').max(64),
  total_fee: num(z.number({ error: '须为整数（分）' }).int('须为整数（分）').positive('须大于 0'), '须为整数（分）'),
  sign: z.string({ error: '请提供签名' }).trim().max(128),
});
export const SimulateBody = z.object({ outTradeNo: tradeNo });
export const TradeQuery = z.object({ outTradeNo: tradeNo });

/** wxpay/list pages with page and size (SPEC §7). */
export const PaymentListQuery = z.object({
  page: num(z.number().int().min(1, '页码须为正整数')).default(1),
  size: num(z.number().int().min(1, '每页条数须为 1–1000').max(1000, '每页条数须为 1–1000')).default(20),
  channel: z.enum(['wechat', 'alipay'], { error: '支付渠道须为 wechat 或 alipay' }).optional(),
  status: z.enum(['created', 'paid', 'closed'], { error: '状态须为 created、paid 或 closed' }).optional(),
  searchArea: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});
