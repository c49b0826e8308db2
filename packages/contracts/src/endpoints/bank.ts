import { z } from 'zod';
import { crudEndpoints } from '../crud.ts';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, PageQuery, optText, optionalRef, ref, coded, withdrawalEnd } from '../query.ts';
import { listQuerySchema } from '../resource.ts';
import { bankResource, propertyInfoResource } from '../resources/bank.ts';
import { Money, withdrawalRequest } from './billing-input.ts';

// Bank sub-merchants and their settlement (SPEC §7 Bank sub-merchant, Property_Info, companyBocInfo,
// Bank/List; pages /apply, /noteBocLog, /bankManagement). Property_Info holds the application; the
// AgricultureBank calls move it through the bank (the state machine in resources/bank.ts); the bank's
// name follows the company's bankType.

const id = num(z.number({ error: '须为正整数' }).int('须为正整数').positive('须为正整数'), '须为正整数');
const subMerId = z.string({ error: '请提供子商户号' }).trim().regex(/^[A-Za-z0-9]{6,32}$/, '子商户号须为 6–32 位字母或数字');
const blankless = <T extends z.ZodType>(inner: T) => z.preprocess((v) => (v === '' || v == null ? undefined : v), inner);
const tags = ['银行二级商户'];

/** reading the applications and the bank's answers */
const read = { routes: ['apply', 'noteBocLog', 'reportBank', 'noteswithdraw'] };
/** moving an application through the bank: the platform page /apply */
const manage = { routes: ['apply'] };
/** taking money out of the sub-account: the platform on /apply, the company's finance staff on /noteswithdraw */
const withdraw = { routes: ['apply', 'noteswithdraw'], op: 'finance.withdraw' };

// ---- requests -----------------------------------------------------------------------------------

export const PropertyIdQuery = CompanyQuery.extend({ propertyID: id });
export const SubMerQuery = CompanyQuery.extend({ subMerId });
export const VerifyBody = z.object({
  subMerId,
  code: z.string({ error: '请输入短信验证码' }).trim().regex(/^\d{6}$/, '短信验证码为 6 位数字'),
  /** the small amount the bank paid into the settlement account, in 元 */
  amount: Money,
});
export const SubMerStatusBody = z.object({ subMerId, status: z.enum(['active', 'disabled'], { error: '状态须为 active（开通）或 disabled（停用）' }) });
export const BankWithdrawBody = z.object({ subMerId, ...withdrawalRequest });
export type BankWithdrawInput = z.infer<typeof BankWithdrawBody>;

export const BankLogQuery = PageQuery.extend(CompanyQuery.shape).extend({
  subMerId: optText(32),
  action: optText(40),
  ok: blankless(z.enum(['1', '0'], { error: '结果须为 1（成功）或 0（失败）' }).optional()),
  startTime: optText(19),
  endTime: optText(19),
});
export type BankLogInput = z.infer<typeof BankLogQuery>;
export const BankWithdrawalQuery = PageQuery.extend(CompanyQuery.shape).extend({ subMerId: optText(32) });
export type BankWithdrawalInput = z.infer<typeof BankWithdrawalQuery>;

const optStr = (max: number, label: string) => z.string().trim().max(max, `${label}最多 ${max} 个字`).optional().default('');
export const BocInfoBody = z.object({
  merId: z.string().trim().regex(/^[A-Za-z0-9]{0,32}$/, '平台商户号只能是字母或数字').optional().default(''),
  branchName: optStr(64, '开户网点'),
  accountName: optStr(64, '账户名称'),
  accountNo: z.string().transform((v) => v.replace(/\s+/g, '')).pipe(z.string().regex(/^(\d{8,32})?$/, '账号须为 8–32 位数字')).optional().default(''),
  contactName: optStr(32, '联系人'),
  phone: z.string().trim().regex(/^[0-9+\-() ]{0,32}$/, '联系电话只能包含数字、空格和 +-()').optional().default(''),
  memo: optStr(200, '备注'),
});
export type BocInfoInput = z.infer<typeof BocInfoBody>;

// ---- answers ------------------------------------------------------------------------------------

/** A sub-merchant as the state machine left it, with the bank it is at. */
export const SubMerStateRow = z.object({
  id: z.number(),
  subMerId: z.string(),
  ...coded('status', z.string()),
  bankName: z.string(),
  message: z.string(),
  /** verification: wrong answers left before the bank rejects */
  attemptsLeft: z.number().nullable(),
  /** sending the code: the phone it went to, masked */
  phone: z.string().nullable(),
  /** the local bank emulator's page with the SMS and the paid amount (demo only; null with a real bank) */
  demoInboxUrl: z.string().nullable(),
});

export const SubAccRow = z.object({
  subMerId: z.string(),
  bankName: z.string(),
  /** 元 strings */
  balance: z.string(),
  available: z.string(),
  availableFen: z.number(),
  processing: z.string(),
  accountName: z.string(),
  accountNo: z.string(),
});

export const BankWithdrawRow = z.object({
  id: z.number(),
  companyId: z.number(),
  ...ref('property'),
  subMerId: z.string(),
  requestId: z.string(),
  orderNo: z.string(),
  amount: z.string(),
  ...coded('status', z.number()),
  bankSerial: z.string(),
  bankName: z.string(),
  accountName: z.string(),
  accountNo: z.string(),
  ...withdrawalEnd,
});
export const BankWithdrawResult = BankWithdrawRow.extend({ duplicate: z.boolean() });

export const BankLogRow = z.object({
  id: z.number(),
  companyId: z.number(),
  companyName: z.string().nullable(),
  ...optionalRef('property'),
  subMerId: z.string(),
  bankName: z.string(),
  ...coded('action', z.string()),
  ok: z.boolean(),
  errCode: z.string(),
  message: z.string(),
  statusFrom: z.string(),
  statusTo: z.string(),
  request: z.string(),
  response: z.string(),
  operatorName: z.string(),
  createdAt: z.string(),
});

export const BocInfoRow = BocInfoBody.extend({
  ...ref('company'),
  bankType: z.number(),
  bankName: z.string(),
  updatedAt: z.string().nullable(),
});

// ---- endpoints ----------------------------------------------------------------------------------

const AB = '/pay/api/AgricultureBank';
const PI = '/yewu/api/Property_Info';

const bankCrud = crudEndpoints(bankResource, { paths: '/yewu/api/Bank', tags, read: {}, write: { access: 0, routes: ['bankManagement'] } });

export const bankEndpoints = {
  ...bankCrud,
  /** SPEC: GET List?index=1&size=999999 (the whole dictionary in one answer) */
  list: endpoint({
    ...bankCrud.list,
    query: listQuerySchema(bankResource).extend({ size: num(z.number().int().min(1).max(999999)).default(20) }),
  }),
};

export const propertyInfoEndpoints = crudEndpoints(propertyInfoResource, {
  paths: { list: `${PI}/GetList`, detail: `${PI}/GetModel/:id`, create: `${PI}/AddInfo`, update: `${PI}/EditInfo`, remove: `${PI}/Delete` },
  tags, read, write: manage,
  extra: { companyId: z.number(), companyName: z.string().nullable(), bankName: z.string(), settleBankName: z.string(), reason: z.string(), activatedAt: z.string().nullable() },
});

export const agricultureBankEndpoints = {
  register: endpoint({ method: 'POST', path: `${AB}/RegSubMerInfo`, summary: '子商户进件（提交银行）', perm: manage, query: PropertyIdQuery, response: SubMerStateRow, tags }),
  sendCode: endpoint({ method: 'GET', path: `${AB}/SendMobileMessageForSubMer`, summary: '银行发送验证短信并打款随机金额', perm: manage, query: SubMerQuery, response: SubMerStateRow, tags }),
  verify: endpoint({ method: 'POST', path: `${AB}/VerifyMessageCodeAndRandomAmount`, summary: '验证短信验证码与随机金额', perm: manage, query: CompanyQuery, body: VerifyBody, response: SubMerStateRow, tags }),
  setStatus: endpoint({ method: 'POST', path: `${AB}/UpdateSubMerchantStatusRequest`, summary: '开通或停用子商户', perm: manage, query: CompanyQuery, body: SubMerStatusBody, response: SubMerStateRow, tags }),
  balance: endpoint({ method: 'GET', path: `${AB}/SubAccQuery`, summary: '子账户余额查询', perm: read, query: SubMerQuery, response: SubAccRow, tags }),
  withdraw: endpoint({ method: 'POST', path: `${AB}/Withdrawal`, summary: '子账户提现至结算账户', perm: withdraw, query: CompanyQuery, body: BankWithdrawBody, response: BankWithdrawResult, tags }),
  withdrawals: endpoint({ method: 'GET', path: `${AB}/WithdrawalList`, summary: '子账户提现记录', perm: read, query: BankWithdrawalQuery, response: BankWithdrawRow, paged: true, tags }),
  logs: endpoint({ method: 'GET', path: `${AB}/LogList`, summary: '银行验证日志', perm: read, query: BankLogQuery, response: BankLogRow, paged: true, tags }),
};

export const companyBocInfoEndpoints = {
  get: endpoint({ method: 'GET', path: '/yewu/api/companyBocInfo/detail', summary: '单位银行信息', perm: { routes: ['apply', 'bankManagement', 'belongs'] }, query: CompanyQuery, response: BocInfoRow, tags }),
  save: endpoint({ method: 'PUT', path: '/yewu/api/companyBocInfo/detail', summary: '保存单位银行信息', perm: { access: 0, routes: ['apply', 'belongs'] }, query: CompanyQuery, body: BocInfoBody, response: z.null(), tags }),
};

export type SubMerState = z.output<typeof SubMerStateRow>;
export type SubAcc = z.output<typeof SubAccRow>;
export type BankWithdrawal = z.output<typeof BankWithdrawRow>;
export type BankWithdrawalResult = z.output<typeof BankWithdrawResult>;
export type BankLog = z.output<typeof BankLogRow>;
export type BocInfo = z.output<typeof BocInfoRow>;
