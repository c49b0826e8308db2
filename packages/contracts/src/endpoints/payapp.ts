import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, PageQuery, TimeTextRange, optText, ref, coded, withdrawalEnd } from '../query.ts';
import { formSchema } from '../resource.ts';
import { idNoError, payAppResource } from '../resources/payapp.ts';
import { withdrawalRequest } from './billing-input.ts';

// Pay-application accounts (SPEC §7 AdaPayApplication, pages /huifu and /noteswithdraw):
// GET GetAdaPayApplicationAllList, GetBalance, FindWithdrawalLog; POST AddAdaPayApplication, Del,
// ChangeBankCode, Withdrawal; and, ours: ChangeStatus (停用/启用), FindJournal (the account's statement)
// and Notify (the provider's signed withdrawal callback, JSON, no session).

const id = num(z.number({ error: '须为正整数' }).int('须为正整数').positive('须为正整数'), '须为正整数');
const company = CompanyQuery;
/** '' or nothing: no filter */
const blankless = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (v === '' || v == null ? undefined : v), inner);

/** A bank account number: digits, spaces ignored, 8–32 long. */
const accountNo = z
  .string({ error: '请输入银行账号' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{8,32}$/, '银行账号须为 8–32 位数字'));
const bankName = z.string({ error: '请输入开户银行' }).trim().min(1, '请输入开户银行').max(64, '开户银行最多 64 个字');
const bankAccountName = z.string({ error: '请输入开户名' }).trim().min(1, '请输入开户名').max(64, '开户名最多 64 个字');

// ---- requests -----------------------------------------------------------------------------------

export interface PayAppAddInput {
  name: string; kind: number; legalPerson: string; contactName: string; idNo: string; phone: string;
  bankName: string; bankAccountName: string; bankAccountNo: string; memo: string;
}
/** AddAdaPayApplication: the declared form, the account number without spaces, the ID number upper-cased */
export const PayAppAddForm = formSchema(payAppResource)
  .extend({ bankAccountNo: accountNo, idNo: z.string({ error: '请输入证件号码' }).trim().toUpperCase() });
/** the ID number fits the account's kind (a rule across fields: crudEndpoints' `refine`) */
export function payAppIdNoRule(v: Record<string, unknown>, c: z.RefinementCtx) {
  const e = idNoError(Number(v.kind), String(v.idNo ?? ''));
  if (e) c.addIssue({ code: 'custom', path: ['idNo'], message: e });
}

export const PayAppIdQuery = company.extend({ id });
export const PayAppBankBody = z.object({ id, bankName, bankAccountName, bankAccountNo: accountNo });
export type PayAppBankInput = z.infer<typeof PayAppBankBody>;
export const PayAppStatusBody = z.object({ id, enabled: z.boolean({ error: '请选择启用或停用' }) });

export const WithdrawBody = z.object({ id, ...withdrawalRequest });
export type WithdrawInput = z.infer<typeof WithdrawBody>;

const appStatus = blankless(z.enum(['pending', 'opened', 'disabled', 'rejected'], { error: '状态须为 pending、opened、disabled 或 rejected' }).optional());
/** GetAdaPayApplicationAllList (the registry's `payapp` group, ./crud.ts) */
export const PayAppListQuery = PageQuery.extend(company.shape).extend({ name: optText(), status: appStatus });
export type PayAppListInput = z.infer<typeof PayAppListQuery>;

const wdStatus = blankless(
  num(z.number({ error: '状态须为 0（处理中）、1（提现成功）或 2（提现失败）' }).int().min(0, '状态须为 0、1 或 2').max(2, '状态须为 0、1 或 2'), '状态须为 0（处理中）、1（提现成功）或 2（提现失败）').optional(),
);
export const WithdrawalLogQuery = PageQuery.extend(company.shape).extend(TimeTextRange.shape).extend({
  status: wdStatus,
  applicationId: blankless(id.optional()),
});
export type WithdrawalLogInput = z.infer<typeof WithdrawalLogQuery>;

export const PayAppJournalQuery = PageQuery.extend(company.shape).extend(TimeTextRange.shape).extend({
  id,
  kind: blankless(z.enum(['collect', 'withdrawal', 'fee', 'reversal'], { error: '类型须为 collect、withdrawal、fee 或 reversal' }).optional()),
});
export type PayAppJournalInput = z.infer<typeof PayAppJournalQuery>;

/** The provider's withdrawal notification (no session: the signature is the proof). */
export const WithdrawalNoticeBody = z.object({
  order_no: z.string({ error: '请提供提现单号' }).trim().regex(/^WD\d{1,18}-\d{1,18}$/, '提现单号格式不正确'),
  provider_no: z.string({ error: '请提供支付平台流水号' }).trim().min(1, '请提供支付平台流水号').max(64, '支付平台流水号最多 64 个字符'),
  status: z.enum(['succeeded', 'failed'], { error: '状态须为 succeeded 或 failed' }),
  reason: z.string().trim().max(200, '原因最多 200 个字').optional(),
  sign: z.string({ error: '请提供签名' }).trim().max(128, '签名过长'),
});

// ---- answers ------------------------------------------------------------------------------------

/** An account with its balance (元 strings; times as Beijing wall-clock text). */
export const PayAppRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  name: z.string(),
  /** 1 企业, 2 个人 */
  ...coded('kind', z.number()),
  legalPerson: z.string(),
  contactName: z.string(),
  idNo: z.string(),
  phone: z.string(),
  bankName: z.string(),
  bankAccountName: z.string(),
  bankAccountNo: z.string(),
  /** pending 审核中, opened 已开通, disabled 已停用, rejected 未通过 */
  ...coded('status', z.string()),
  providerAppId: z.string(),
  reason: z.string(),
  balance: z.string(),
  balanceFen: z.number(),
  processing: z.string(),
  processingCount: z.number(),
  maxWithdrawal: z.string(),
  memo: z.string(),
  openedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
});

export const PayAppBalanceRow = z.object({
  id: z.number(),
  name: z.string(),
  ...coded('status', z.string()),
  balance: z.string(),
  balanceFen: z.number(),
  processing: z.string(),
  processingCount: z.number(),
  maxWithdrawal: z.string(),
  fee: z.object({ rateBp: z.number(), min: z.string(), max: z.string(), text: z.string() }),
});

/** A withdrawal: 0 处理中 → 1 提现成功 | 2 提现失败 (its amount and fee went back to the balance). */
export const WithdrawalRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  ...ref('application'),
  requestId: z.string(),
  amount: z.string(),
  fee: z.string(),
  /** amount + fee */
  total: z.string(),
  bankName: z.string(),
  bankAccountName: z.string(),
  bankAccount: z.string(),
  ...coded('status', z.number()),
  providerNo: z.string(),
  ...withdrawalEnd,
});

export const WithdrawResultRow = z.object({
  id: z.number(),
  requestId: z.string(),
  amount: z.string(),
  fee: z.string(),
  ...coded('status', z.number()),
  balance: z.string(),
  duplicate: z.boolean(),
});

export const PayAppJournalRow = z.object({
  id: z.number(),
  applicationId: z.number(),
  /** collect 收款, withdrawal 提现, fee 提现手续费, reversal 提现失败退回 */
  ...coded('kind', z.string()),
  /** signed 元 strings */
  amount: z.string(),
  balanceAfter: z.string(),
  key: z.string(),
  refType: z.string(),
  refId: z.number().nullable(),
  operatorName: z.string(),
  memo: z.string(),
  createdAt: z.string(),
});

// ---- endpoints ----------------------------------------------------------------------------------

export const PAY_APP_PATH = '/pay/api/AdaPayApplication';
const P = PAY_APP_PATH;
/** reading the accounts, their balances and withdrawals */
export const payAppRead = { routes: ['huifu', 'noteswithdraw'] };
const read = payAppRead;
/** registering and changing accounts: the /huifu page (platform management) */
export const payAppManage = { routes: ['huifu'] };
const manage = payAppManage;
/** taking money out: the page and the finance operation 商户提现 */
const withdraw = { routes: ['huifu', 'noteswithdraw'], op: 'finance.withdraw' };
export const payAppTags = ['汇付账户与提现'];
const tags = payAppTags;

/** besides the accounts' list, add and Del (the registry's `payapp` group, ./crud.ts) */
export const payappEndpoints = {
  balance: endpoint({ method: 'GET', path: `${P}/GetBalance`, summary: '汇付账户余额与提现手续费规则', perm: read, query: PayAppIdQuery, response: PayAppBalanceRow, tags }),
  withdrawals: endpoint({
    method: 'GET', path: `${P}/FindWithdrawalLog`, summary: '商户提现记录', perm: read, query: WithdrawalLogQuery, response: WithdrawalRow, paged: true, tags,
  }),
  journal: endpoint({
    method: 'GET', path: `${P}/FindJournal`, summary: '汇付账户流水（收款、提现、手续费、退回）', perm: read, query: PayAppJournalQuery, response: PayAppJournalRow, paged: true, tags,
  }),
  changeBank: endpoint({ method: 'POST', path: `${P}/ChangeBankCode`, summary: '修改汇付账户结算银行卡', perm: manage, query: company, body: PayAppBankBody, response: z.null(), tags }),
  setEnabled: endpoint({ method: 'POST', path: `${P}/ChangeStatus`, summary: '停用或启用汇付账户', perm: manage, query: company, body: PayAppStatusBody, response: z.null(), tags }),
  /** the provider's signed callback: JSON, so declared like any other (no session, not audited by a user) */
  notify: endpoint({
    method: 'POST', path: `${P}/Notify`, summary: '提现结果通知（支付平台回调，验签）', perm: false, body: WithdrawalNoticeBody,
    response: z.object({ orderNo: z.string(), status: z.number(), statusText: z.string(), duplicate: z.boolean() }), tags,
  }),
  withdraw: endpoint({ method: 'POST', path: `${P}/Withdrawal`, summary: '商户提现', perm: withdraw, query: company, body: WithdrawBody, response: WithdrawResultRow, tags }),
};

export type PayApp = z.output<typeof PayAppRow>;
export type PayAppBalance = z.output<typeof PayAppBalanceRow>;
export type Withdrawal = z.output<typeof WithdrawalRow>;
export type WithdrawResult = z.output<typeof WithdrawResultRow>;
export type PayAppJournalEntry = z.output<typeof PayAppJournalRow>;
