import { z } from 'zod';
import { formSchema, idNoError, payAppResource, typed, num } from '@meter/contracts';
import { PageQuery, optText } from '../../http/paging.ts';
import { Money, TimeRange, id } from '../billing/index.ts';

// Input shapes of the pay-application endpoints (zod, Chinese messages; a 400 names the field).

const company = z.object({ searchCompanyID: num(z.number().int().positive()).optional() });

/** A bank account number: digits, spaces ignored, 8–32 long. */
const accountNo = z
  .string({ error: '请输入银行账号' })
  .transform((v) => v.replace(/\s+/g, ''))
  .pipe(z.string().regex(/^\d{8,32}$/, '银行账号须为 8–32 位数字'));

const bankName = z.string({ error: '请输入开户银行' }).trim().min(1, '请输入开户银行').max(64, '开户银行最多 64 个字');
const bankAccountName = z.string({ error: '请输入开户名' }).trim().min(1, '请输入开户名').max(64, '开户名最多 64 个字');

export type AddInput = {
  name: string; kind: number; legalPerson: string; contactName: string; idNo: string; phone: string;
  bankName: string; bankAccountName: string; bankAccountNo: string; memo: string;
};
export const AddBody = typed<AddInput>(formSchema(payAppResource)
  .extend({ bankAccountNo: accountNo, idNo: z.string({ error: '请输入证件号码' }).trim().toUpperCase() })
  .superRefine((v, c) => {
    const e = idNoError(Number(v.kind), String(v.idNo ?? ''));
    if (e) c.addIssue({ code: 'custom', path: ['idNo'], message: e });
  }));

export const IdBody = z.object({ id });
export const IdQuery = company.extend({ id });

export const BankBody = z.object({ id, bankName, bankAccountName, bankAccountNo: accountNo });
export type BankInput = z.infer<typeof BankBody>;

export const StatusBody = z.object({ id, enabled: z.boolean({ error: '请选择启用或停用' }) });

export const WithdrawBody = z.object({
  id,
  amount: Money,
  /** the client's id of this request (the dialog makes one when it opens): the same id twice is one withdrawal */
  requestId: z.string({ error: '请提供请求编号' }).trim().regex(/^[A-Za-z0-9_-]{8,64}$/, '须为 8–64 位字母、数字、下划线或连字符'),
  memo: z.string().trim().max(200, '备注最多 200 个字').optional().default(''),
});
export type WithdrawInput = z.infer<typeof WithdrawBody>;

const status = z.preprocess((v) => (v === '' || v == null ? undefined : v), z.enum(['pending', 'opened', 'disabled', 'rejected'], { error: '状态须为 pending、opened、disabled 或 rejected' }).optional());

export const ListQuery = PageQuery.extend(company.shape).extend({ name: optText(), status });
export type ListInput = z.infer<typeof ListQuery>;

const wdStatus = z.preprocess(
  (v) => (v === '' || v == null ? undefined : v),
  num(z.number({ error: '状态须为 0（处理中）、1（提现成功）或 2（提现失败）' }).int().min(0, '状态须为 0、1 或 2').max(2, '状态须为 0、1 或 2'), '状态须为 0（处理中）、1（提现成功）或 2（提现失败）').optional(),
);

export const LogQuery = PageQuery.extend(company.shape).extend(TimeRange.shape).extend({
  status: wdStatus,
  applicationId: z.preprocess((v) => (v === '' || v == null ? undefined : v), id.optional()),
});
export type LogInput = z.infer<typeof LogQuery>;

export const JournalQuery = PageQuery.extend(company.shape).extend(TimeRange.shape).extend({
  id,
  kind: z.preprocess((v) => (v === '' || v == null ? undefined : v),
    z.enum(['collect', 'withdrawal', 'fee', 'reversal'], { error: '类型须为 collect、withdrawal、fee 或 reversal' }).optional()),
});
export type JournalInput = z.infer<typeof JournalQuery>;

/** The provider's withdrawal notification (no session: the signature is the proof). */
export const NoticeBody = z.object({
  order_no: z.string({ error: '请提供提现单号' }).trim().regex(/^WD\d{1,18}-\d{1,18}$/, '提现单号格式不正确'),
  provider_no: z.string({ error: '请提供支付平台流水号' }).trim().min(1, '请提供支付平台流水号').max(64, '支付平台流水号最多 64 个字符'),
  status: z.enum(['succeeded', 'failed'], { error: '状态须为 succeeded 或 failed' }),
  reason: z.string().trim().max(200, '原因最多 200 个字').optional(),
  sign: z.string({ error: '请提供签名' }).trim().max(128, '签名过长'),
});
