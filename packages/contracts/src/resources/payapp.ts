import { defineResource, isValidIdCard } from '../resource.ts';

// Pay-application (汇付 AdaPay) merchant accounts of a company (page /huifu) and their withdrawals
// (page /noteswithdraw). Declared once: the server validates AddAdaPayApplication with it, the web
// derives the table columns and the forms from it. The withdrawal fee rule lives here too, so that
// the dialog shows exactly the fee the server will charge.

/** 1 企业, 2 个人. */
export const PAY_APP_KINDS: Record<number, string> = { 1: '企业', 2: '个人' };

/** pending 审核中 → opened 已开通 (by the provider) ⇄ disabled 已停用; rejected 审核未通过. */
export const PAY_APP_STATUS: Record<string, string> = { pending: '审核中', opened: '已开通', disabled: '已停用', rejected: '未通过' };

/** Withdrawal states (FindWithdrawalLog `status`): 0 处理中, 1 提现成功, 2 提现失败. */
export const WITHDRAW_STATUS_TEXT: Record<number, string> = { 0: '处理中', 1: '提现成功', 2: '提现失败' };

/**
 * The withdrawal fee (a fixed rule of this platform, the same for every company): 0.05 % of the
 * amount rounded half-up to the 分, at least ¥1.00 and at most ¥25.00 a withdrawal. The fee is taken
 * from the balance on top of the amount (the bank receives the whole amount).
 */
export const WITHDRAW_FEE_RULE = { rateBp: 5, minFen: 100, maxFen: 2500, text: '提现手续费：提现金额的 0.05%（四舍五入到分），每笔最低 ¥1.00、最高 ¥25.00，从账户余额中另行扣除' };

/** The fee in 分 of a withdrawal of `amountFen` 分 (integers only, never a float). */
export function withdrawalFeeFen(amountFen: number): number {
  if (!Number.isSafeInteger(amountFen) || amountFen <= 0) return 0;
  const { rateBp, minFen, maxFen } = WITHDRAW_FEE_RULE;
  // amount × rate / 10000, half-up: (amount × rate + 5000) ÷ 10000, integer division
  const fee = Math.floor((amountFen * rateBp + 5000) / 10000);
  return Math.min(maxFen, Math.max(minFen, fee));
}

/** The most that can be withdrawn from `balanceFen`: amount + fee(amount) ≤ balance. */
export function maxWithdrawalFen(balanceFen: number): number {
  if (!Number.isSafeInteger(balanceFen) || balanceFen <= WITHDRAW_FEE_RULE.minFen) return 0;
  let amount = balanceFen - withdrawalFeeFen(balanceFen);
  // the fee of a smaller amount can only be smaller or equal: step up while it still fits
  while (amount + 1 + withdrawalFeeFen(amount + 1) <= balanceFen) amount++;
  while (amount > 0 && amount + withdrawalFeeFen(amount) > balanceFen) amount--;
  return amount;
}

/** Bank account numbers: 8–32 digits (spaces are ignored). */
export const BANK_ACCOUNT_RE = '^[0-9]{8,32}$';

/** 统一社会信用代码: 18 characters of the national standard's alphabet. */
const USCC = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** The ID or licence number of an application: a 统一社会信用代码 for 企业, an 18-digit 身份证号 for 个人. */
export function idNoError(kind: number, idNo: string): string | null {
  const s = idNo.trim().toUpperCase();
  if (!s) return kind === 2 ? '请输入身份证号' : '请输入统一社会信用代码';
  if (kind === 2) return isValidIdCard(s) ? null : '身份证号不是有效的 18 位身份证号码';
  return USCC.test(s) ? null : '统一社会信用代码须为 18 位（数字或大写字母）';
}

export const payAppResource = defineResource({
  name: 'payApp',
  title: '汇付账户',
  fields: [
    { key: 'name', label: '账户名称', type: 'text', required: true, max: 64, search: 'like', unique: true, width: 160 },
    { key: 'kind', label: '账户类型', type: 'enum', options: { ...PAY_APP_KINDS }, required: true, default: 1, width: 80 },
    { key: 'legalPerson', label: '法人/负责人', type: 'text', required: true, max: 32, width: 100 },
    { key: 'contactName', label: '联系人', type: 'text', max: 32, hideInTable: true },
    { key: 'idNo', label: '证件号码', type: 'text', required: true, max: 18, tooltip: '企业填统一社会信用代码，个人填身份证号', hideInTable: true },
    { key: 'phone', label: '联系电话', type: 'phone', required: true, width: 120 },
    { key: 'bankName', label: '开户银行', type: 'text', required: true, max: 64, width: 140 },
    { key: 'bankAccountName', label: '开户名', type: 'text', required: true, max: 64, hideInTable: true },
    {
      key: 'bankAccountNo', label: '银行账号', type: 'text', required: true, max: 40, width: 180,
      pattern: { re: '^[0-9 ]{8,40}$', message: '银行账号须为 8–32 位数字' },
    },
    {
      key: 'status', label: '状态', type: 'enum', readonly: true, search: 'eq', width: 90,
      options: { ...PAY_APP_STATUS },
    },
    { key: 'memo', label: '备注', type: 'textarea', max: 200, hideInTable: true },
    { key: 'createdAt', label: '申请时间', type: 'datetime', readonly: true, width: 160 },
  ],
});
