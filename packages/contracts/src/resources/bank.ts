import { defineResource } from '../resource.ts';
import { BANK_NAMES } from '../plans.ts';

// Bank sub-merchants (二级商户, SPEC §7 Property_Info and /pay/api/AgricultureBank; page /apply), the
// bank dictionary (/bankManagement, Bank/List) and the sub-merchant state machine — declared once:
// the server refuses what it refuses, the web offers only the actions it allows.

/** draft 待提交 → applied 已提交 → code_sent 待验证 → verified 已验证 → active 已开通 ⇄ disabled 已停用; rejected 未通过. */
export const SUB_MER_STATUS: Record<string, string> = {
  draft: '待提交', applied: '已提交', code_sent: '待验证', verified: '已验证', active: '已开通', disabled: '已停用', rejected: '未通过',
};
export const SUB_MER_STATUS_COLOR: Record<string, string> = {
  draft: 'default', applied: 'processing', code_sent: 'warning', verified: 'cyan', active: 'success', disabled: 'default', rejected: 'error',
};
export type SubMerStatus = 'draft' | 'applied' | 'code_sent' | 'verified' | 'active' | 'disabled' | 'rejected';

/** What can happen to a sub-merchant (each is one call to the bank, or the bank's answer to one). */
export type SubMerEvent = 'register' | 'sendCode' | 'verify' | 'verifyFailed' | 'activate' | 'reject' | 'disable' | 'enable' | 'edit';

export const SUB_MER_EVENT_TEXT: Record<SubMerEvent, string> = {
  register: '提交进件', sendCode: '发送验证码', verify: '验证', verifyFailed: '验证失败', activate: '开通',
  reject: '驳回', disable: '停用', enable: '启用', edit: '修改资料',
};

/** The one table of legal transitions: event → from → to. Anything not here is refused. */
const TRANSITIONS: Record<SubMerEvent, Partial<Record<SubMerStatus, SubMerStatus>>> = {
  edit: { draft: 'draft', rejected: 'rejected' },
  register: { draft: 'applied', rejected: 'applied' },
  sendCode: { applied: 'code_sent', code_sent: 'code_sent' },
  verify: { code_sent: 'verified' },
  verifyFailed: { code_sent: 'code_sent' },
  activate: { verified: 'active' },
  reject: { applied: 'rejected', code_sent: 'rejected', verified: 'rejected' },
  disable: { active: 'disabled' },
  enable: { disabled: 'active' },
};

export type Transition = { ok: true; to: SubMerStatus } | { ok: false; message: string };

/** Where `event` takes a sub-merchant in `from`, or why it cannot (Chinese). */
export function subMerTransition(from: string, event: SubMerEvent): Transition {
  const to = TRANSITIONS[event][from as SubMerStatus];
  if (to) return { ok: true, to };
  const now = SUB_MER_STATUS[from] ?? from;
  const allowed = Object.keys(TRANSITIONS[event]).map((s) => `「${SUB_MER_STATUS[s]}」`).join('、');
  return { ok: false, message: `该商户当前为「${now}」，不能${SUB_MER_EVENT_TEXT[event]}（仅${allowed}时可以）` };
}

export const canSubMer = (from: string, event: SubMerEvent) => subMerTransition(from, event).ok;

/** Every status and event (tests walk them all). */
export const SUB_MER_STATUSES = Object.keys(SUB_MER_STATUS) as SubMerStatus[];
export const SUB_MER_EVENTS = Object.keys(TRANSITIONS) as SubMerEvent[];

/** How many wrong code/amount answers the bank takes before it rejects the application. */
export const SUB_MER_MAX_VERIFY_FAILURES = 3;

/** Bank withdrawals: 0 处理中, 1 已到账, 2 失败 (the bank keeps the money in the sub-account). */
export const BANK_WITHDRAW_STATUS: Record<number, string> = { 0: '处理中', 1: '已到账', 2: '失败' };

/** What the bank log (/noteBocLog) records: one row per exchange with the bank. */
export const BANK_LOG_ACTIONS: Record<string, string> = {
  RegSubMerInfo: '子商户进件', SendMobileMessageForSubMer: '发送验证短信', VerifyMessageCodeAndRandomAmount: '验证码与随机金额验证',
  UpdateSubMerchantStatusRequest: '变更子商户状态', SubAccQuery: '子账户余额查询', Withdrawal: '提现', WithdrawalQuery: '提现查单',
};

const bankTypes = Object.fromEntries(Object.entries(BANK_NAMES).map(([k, v]) => [k, v]));

/** 银行 (Bank/List, /bankManagement): the platform's dictionary of banks a settlement account can be at. */
export const bankResource = defineResource({
  name: 'bank',
  title: '银行',
  fields: [
    { key: 'name', label: '银行名称', type: 'text', required: true, max: 64, search: 'like', unique: true, width: 200 },
    { key: 'code', label: '联行号/银行代码', type: 'text', max: 16, pattern: { re: '^[0-9A-Za-z]{0,16}$', message: '银行代码只能是数字或字母' }, width: 150 },
    { key: 'bankType', label: '对应结算银行', type: 'enum', options: bankTypes, tooltip: '单位的“结算银行”为该值时，二级商户申请优先列出这家银行', width: 130 },
    { key: 'sort', label: '排序', type: 'int', min: 0, max: 9999, default: 0, width: 80 },
    { key: 'status', label: '状态', type: 'enum', options: { 1: '在用', 0: '停用' }, colors: { 1: 'success', 0: 'default' }, default: 1, search: 'eq', width: 80 },
    { key: 'memo', label: '备注', type: 'textarea', max: 200, hideInTable: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true, width: 160 },
  ],
});

/** 物业信息 (Property_Info): a company's sub-merchant application at its settlement bank. */
export const propertyInfoResource = defineResource({
  name: 'propertyInfo',
  title: '二级商户',
  fields: [
    { key: 'name', label: '商户名称', type: 'text', required: true, max: 64, search: 'like', unique: true, width: 180 },
    { key: 'shortName', label: '商户简称', type: 'text', required: true, max: 20, width: 110 },
    {
      key: 'licenseNo', label: '统一社会信用代码', type: 'text', required: true, max: 18, hideInTable: true,
      pattern: { re: '^[0-9A-HJ-NPQRTUWXY]{2}[0-9]{6}[0-9A-HJ-NPQRTUWXY]{10}$', message: '统一社会信用代码须为 18 位（数字或大写字母）' },
    },
    { key: 'legalPerson', label: '法定代表人', type: 'text', required: true, max: 32, width: 100 },
    { key: 'legalIdNo', label: '法人身份证号', type: 'idcard', required: true, hideInTable: true },
    { key: 'contactName', label: '联系人', type: 'text', required: true, max: 32, hideInTable: true },
    { key: 'phone', label: '验证手机号', type: 'phone', required: true, tooltip: '银行向该手机号发送验证码', width: 120 },
    { key: 'address', label: '经营地址', type: 'text', max: 200, hideInTable: true },
    { key: 'bankId', label: '结算账户开户行', type: 'ref', ref: { url: '/yewu/api/Bank/List' }, required: true, hideInTable: true },
    { key: 'accountName', label: '结算账户名', type: 'text', required: true, max: 64, hideInTable: true },
    {
      key: 'accountNo', label: '结算账号', type: 'text', required: true, max: 40, width: 170,
      pattern: { re: '^[0-9 ]{8,40}$', message: '结算账号须为 8–32 位数字' },
    },
    { key: 'status', label: '状态', type: 'enum', options: { ...SUB_MER_STATUS }, colors: { ...SUB_MER_STATUS_COLOR }, readonly: true, search: 'eq', width: 90 },
    { key: 'subMerId', label: '子商户号', type: 'text', readonly: true, search: 'like', width: 140 },
    { key: 'memo', label: '备注', type: 'textarea', max: 200, hideInTable: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true, width: 160 },
  ],
});
