import { z } from 'zod';
import { amountError, amountToFen } from '../resources/pricing.ts';
import { num } from '../input.ts';
import { AreaFilter, PageQuery, TimeTextRange, optText } from '../query.ts';

// Input shapes of the billing endpoints (endpoints/billing.ts; zod, Chinese messages; a 400 names the
// field). Money, EnergyWallet, BillingTimeRange and BillingId are shared with payment and payapp.

export const BillingId = num(z.number({ error: '须为正整数' }).int('须为正整数').positive('须为正整数'), '须为正整数');
const id = BillingId;

/** A 元 amount (string or number, ≤ 2 decimals, > 0) → 分. */
export const Money = z
  .union([z.string(), z.number()], { error: '请填写金额' })
  .superRefine((v, c) => {
    const e = amountError(v, '金额');
    if (e) c.addIssue({ code: 'custom', message: e });
    else if (amountToFen(v) <= 0) c.addIssue({ code: 'custom', message: '金额须大于 0' });
  })
  .transform((v) => amountToFen(v));

export const WALLETS = { electric: '电费', water: '水费' } as const;
export const EnergyWallet = z.enum(['electric', 'water'], { error: '账户类型须为 electric（电费）或 water（水费）' });

export const PAY_METHODS = { cash: '现金', wechat: '微信', alipay: '支付宝', bank: '银行卡/转账', system: '系统' } as const;
export const CounterPayMethod = z.enum(['cash', 'wechat', 'alipay', 'bank'], { error: '支付方式须为 cash、wechat、alipay 或 bank' });

const memo = z.string().trim().max(200, '备注最多 200 个字').optional().default('');
/** A client's id for the operation: the same requestId twice is done once. */
const requestId = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9_-]{8,64}$/, '须为 8–64 位字母、数字、下划线或连字符')
  .optional();

const month = z.string().trim().regex(/^\d{4}-(0[1-9]|1[0-2])$/, '格式应为 YYYY-MM');
const flag = num(z.number().int().min(0).max(1)).optional();

export const BillingTimeRange = TimeTextRange;

// ---- counter operations --------------------------------------------------------------------------

export const CounterBody = z.object({
  roomId: id,
  wallet: EnergyWallet,
  amount: Money,
  payMethod: CounterPayMethod.optional().default('cash'),
  memo,
  requestId,
});
export type CounterInput = z.infer<typeof CounterBody>;

export const SubsidyBody = CounterBody.omit({ payMethod: true });

export const BillPayBody = z.object({
  roomId: id,
  wallet: EnergyWallet,
  /** defaults to the whole arrears */
  amount: Money.optional(),
  payMethod: CounterPayMethod.optional().default('cash'),
  memo,
  requestId,
});
export type BillPayInput = z.infer<typeof BillPayBody>;

export const BusinessPayBody = z.object({
  roomId: id,
  items: z
    .array(
      z.object({
        chargeCodeId: id,
        /** defaults to the charge code's amount × quantity */
        amount: Money.optional(),
        quantity: num(z.number().int('须为正整数').min(1, '须为正整数').max(1000, '不能大于 1000')).optional().default(1),
      }),
      { error: '请选择缴费项目' },
    )
    .min(1, '请选择缴费项目')
    .max(20, '一次最多 20 个缴费项目'),
  payMethod: CounterPayMethod.optional().default('cash'),
  memo,
  requestId,
});
export type BusinessPayInput = z.infer<typeof BusinessPayBody>;

// ---- room timed subsidy -------------------------------------------------------------------------

export const AddRoomSubsidyBody = z
  .object({
    roomId: id,
    wallet: EnergyWallet.optional().default('electric'),
    amount: Money,
    dayOfMonth: num(z.number().int('须为 1–28 的整数').min(1, '须为 1–28 的整数').max(28, '须为 1–28 的整数')).optional().default(1),
    startMonth: month,
    endMonth: month.optional().or(z.literal('').transform(() => undefined)),
    memo,
  })
  .superRefine((v, c) => {
    if (v.endMonth && v.endMonth < v.startMonth) c.addIssue({ code: 'custom', path: ['endMonth'], message: '结束月份不能早于开始月份' });
  });
export type AddRoomSubsidyInput = z.infer<typeof AddRoomSubsidyBody>;

export const SubsidyListQuery = PageQuery.extend(AreaFilter.shape).extend({ roomName: optText(), enabled: flag });
export const SubsidyStatusBody = z.object({ id, enabled: z.boolean({ error: '须为 true 或 false' }) });

// ---- rooms and accounts --------------------------------------------------------------------------

export const EnergyRoomFilter = AreaFilter.extend({
  roomName: optText(),
  ownerName: optText(),
  ownerPhone: optText(20),
  /** 1: only rooms in arrears (a balance below zero) */
  arrears: flag,
  /** 1: only rooms with a balance alarm raised */
  alarm: flag,
});
export const EnergyRoomQuery = PageQuery.extend(EnergyRoomFilter.shape);
export type EnergyRoomInput = z.infer<typeof EnergyRoomQuery>;
export const RoomIdQuery = z.object({ roomId: id });

// ---- journal views ---------------------------------------------------------------------------------

/** Statistics/list transactionType: 0 全部, 1 充值, 2 退费, 3 补贴, 4 扣费, 5 费用, 6 冲正, 7 提现, 8 期初余额. */
export const TRANSACTION_TYPES: Record<number, string[]> = {
  0: [], 1: ['prepay'], 2: ['refund'], 3: ['subsidy'], 4: ['deduction'], 5: ['fee'], 6: ['reversal'], 7: ['withdrawal'], 8: ['opening'],
};

export const JournalFilter = AreaFilter.extend(BillingTimeRange.shape).extend({
  roomName: optText(),
  ownerName: optText(),
  wallet: z.enum(['electric', 'water', 'subsidy', 'other'], { error: '账户类型无效' }).optional(),
  payMethod: z.enum(['cash', 'wechat', 'alipay', 'bank', 'system'], { error: '支付方式无效' }).optional(),
  roomId: id.optional(),
});
export const StatisticsQuery = PageQuery.extend(JournalFilter.shape).extend({
  transactionType: num(z.number().int().min(0, '交易类型无效').max(8, '交易类型无效')).optional().default(0),
});
export type StatisticsInput = z.infer<typeof StatisticsQuery>;
export const PaymentQuery = PageQuery.extend(JournalFilter.shape).extend({
  kind: z.enum(['prepay', 'refund', 'subsidy', 'opening', 'reversal'], { error: '类型须为 prepay、refund、subsidy、opening 或 reversal' }).optional(),
});
export const AuditQuery = PageQuery.extend(JournalFilter.shape).extend({ audited: flag });
export const AuditSumQuery = JournalFilter.extend({ audited: flag });
export const DeductionQuery = PageQuery.extend(JournalFilter.shape).extend({ meterKind: num(z.number().int().min(1).max(2)).optional() });
export const DeductionSumQuery = JournalFilter.extend({ meterKind: num(z.number().int().min(1).max(2)).optional() });
export const DataAuditBody = z.object({
  ids: z.array(id, { error: '请选择要审核的流水' }).min(1, '请选择要审核的流水').max(1000, '一次最多审核 1000 条'),
  memo,
});

// ---- settlement views --------------------------------------------------------------------------------

export const SettlementFilter = AreaFilter.extend(BillingTimeRange.shape).extend({
  roomName: optText(),
  ownerName: optText(),
  meterName: optText(),
  address: optText(16),
  meterKind: num(z.number().int().min(1, '表具类型须为 1（电）或 2（水）').max(2, '表具类型须为 1（电）或 2（水）')).optional(),
  meterId: id.optional(),
  roomId: id.optional(),
});
export const SettlementListQuery = PageQuery.extend(SettlementFilter.shape);
export type SettlementFilterInput = z.infer<typeof SettlementFilter>;
export const SettleNowBody = z
  .object({ meterIds: z.array(id).max(1000, '一次最多 1000 块表具').optional(), roomId: id.optional() })
  .refine((v) => (v.meterIds?.length ?? 0) > 0 || v.roomId != null, { message: '请选择表具或房间', path: ['meterIds'] });

export const BillQuery = PageQuery.extend(AreaFilter.shape).extend({
  month: month.optional(),
  roomName: optText(),
  ownerName: optText(),
});
export const EnergyBillQuery = PageQuery.extend(AreaFilter.shape).extend({
  month: month.optional(),
  /** 1 电费, 2 水费; empty = both */
  SchemeType: z.union([z.literal(''), num(z.number().int().min(1, '方案类型须为 1（电费）或 2（水费）').max(2, '方案类型须为 1（电费）或 2（水费）'))]).optional(),
  roomName: optText(),
  ownerName: optText(),
});

// ---- receipts -------------------------------------------------------------------------------------------

export const ReceiptListQuery = PageQuery.extend(AreaFilter.shape).extend(BillingTimeRange.shape).extend({
  no: optText(32),
  roomName: optText(),
  ownerName: optText(),
  kind: z.enum(['prepay', 'refund', 'subsidy', 'billPay', 'business', 'close'], { error: '票据类型无效' }).optional(),
});
export const ReceiptIdQuery = z.object({ id });
export const ReceiptIdParams = z.object({ id });

// ---- closing accounts --------------------------------------------------------------------------------

export const CancelBody = z.object({
  roomId: id,
  /** final readings taken at the counter (optional: else the latest reading stands) */
  readings: z
    .array(z.object({ meterId: id, total: z.string().trim().regex(/^\d{1,12}(\.\d{1,2})?$/, '读数须为不小于 0 的数字，最多 2 位小数') }))
    .max(50)
    .optional()
    .default([]),
  payMethod: CounterPayMethod.optional().default('cash'),
  memo,
  /** the company's valve-control password: asked when a meter switched off by 销户 has phaseId 1 (SPEC §4) */
  valvePassword: z.string().max(64, '阀控密码最多 64 位').optional(),
});
export type CancelInput = z.infer<typeof CancelBody>;
export const ClosedListQuery = PageQuery.extend(AreaFilter.shape).extend({ ownerName: optText(), roomName: optText() });
export const ReopenBody = z.object({ ownerId: id, roomId: id.optional(), memo });

// ---- 公摊 meters -------------------------------------------------------------------------------------------

export const SharedMeterBody = z.object({
  meterId: id,
  areaId: id,
  /** 1 by floor area, 2 equally */
  method: num(z.number().int().refine((v) => v === 1 || v === 2, '分摊方式须为 1（按面积）或 2（平均）')),
  memo,
});
export const SharedMeterQuery = PageQuery.extend(AreaFilter.shape);
export const SharedMeterIdsBody = z.object({ ids: z.array(id, { error: '请选择记录' }).min(1, '请选择记录').max(1000) });

export const HomeQuery = AreaFilter;

/**
 * What a withdrawal asks (a bank sub-account's or a payment application's): the amount, the client's
 * id of the request (the dialog makes one when it opens: the same id twice is one withdrawal), a note.
 */
export const withdrawalRequest = {
  amount: Money,
  requestId: z.string({ error: '请提供请求编号' }).trim().regex(/^[A-Za-z0-9_-]{8,64}$/, '须为 8–64 位字母、数字、下划线或连字符'),
  memo: z.string().trim().max(200, '备注最多 200 个字').optional().default(''),
};
