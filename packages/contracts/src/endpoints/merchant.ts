import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { Money } from './billing-input.ts';
import { CompanyQuery, wireTime, ref } from '../query.ts';

// 支付商户 and 充值档位 per company (issue 14 item 6, /belongs): a company's own WeChat Pay / Alipay
// merchant, used for its owners' online payments instead of the platform's. Secrets (private keys,
// APIv3 key) are write-only: the answer says whether one is stored and the fingerprint of its public
// half, never the secret; a blank secret in a save keeps the stored one. Pay gears (Company/GetPayGear,
// SavePayGear, SPEC §7): the amounts offered to owners.

const tags = ['支付商户'];
const platform = { access: 0 as const, routes: ['belongs'] };
const companyId = num(z.number({ error: '请选择单位' }).int().positive('请选择单位'), '请选择单位');
const text = (max: number, label: string) => z.string().trim().max(max, `${label}最多 ${max} 个字符`).default('');
/** a PEM block (blank = keep the stored one, for secrets) */
const pem = (label: string) =>
  z.string().trim().max(8000, `${label}过长`).refine((v) => v === '' || /^-----BEGIN [A-Z ]+-----[\s\S]+-----END [A-Z ]+-----$/.test(v), `${label}须为 PEM 格式（-----BEGIN … -----）`).default('');

export const MerchantQuery = z.object({ companyId });

export const MerchantBody = z.object({
  companyId,
  wxEnabled: z.boolean().default(false),
  wxMchid: z.string().trim().refine((v) => v === '' || /^\d{8,12}$/.test(v), '微信支付商户号应为 8–12 位数字').default(''),
  wxAppid: z.string().trim().refine((v) => v === '' || /^wx[0-9a-zA-Z]{16}$/.test(v), 'AppID 应形如 wx 开头的 18 位').default(''),
  wxSerialNo: z.string().trim().refine((v) => v === '' || /^[0-9A-Fa-f]{8,40}$/.test(v), '商户证书序列号应为 8–40 位十六进制').default(''),
  /** write-only: blank keeps the stored key */
  wxPrivateKey: pem('商户 API 私钥'),
  wxPlatformSerial: text(128, '平台证书序列号/公钥 ID'),
  wxPlatformKey: pem('微信支付平台公钥'),
  /** write-only: blank keeps the stored key */
  wxApiV3Key: z.string().refine((v) => v === '' || /^[\x21-\x7e]{32}$/.test(v), 'APIv3 密钥须为 32 个字符').default(''),
  aliEnabled: z.boolean().default(false),
  aliAppId: z.string().trim().refine((v) => v === '' || /^\d{16}$/.test(v), '支付宝 AppID 应为 16 位数字').default(''),
  aliSellerId: z.string().trim().refine((v) => v === '' || /^2088\d{12}$/.test(v), '卖家 ID（PID）应为 2088 开头的 16 位数字').default(''),
  /** write-only: blank keeps the stored key */
  aliPrivateKey: pem('应用私钥'),
  aliPublicKey: pem('支付宝公钥'),
});
export type MerchantInput = z.input<typeof MerchantBody>;

/** The providers' public keys of the local emulators (PAY_MODE=emulator), for filling the form in a demo. */
export const EmulatorPublicKeys = z.object({ wxPlatformSerial: z.string(), wxPlatformKey: z.string(), aliPublicKey: z.string() });

export const MerchantRow = z.object({
  ...ref('company'),
  wxEnabled: z.boolean(),
  wxMchid: z.string(),
  wxAppid: z.string(),
  wxSerialNo: z.string(),
  /** a private key is stored; its public half's SHA-256 fingerprint (the key itself never leaves the server) */
  wxPrivateKeySet: z.boolean(),
  wxPrivateKeyFingerprint: z.string(),
  wxPlatformSerial: z.string(),
  wxPlatformKey: z.string(),
  wxApiV3KeySet: z.boolean(),
  aliEnabled: z.boolean(),
  aliAppId: z.string(),
  aliSellerId: z.string(),
  aliPrivateKeySet: z.boolean(),
  aliPrivateKeyFingerprint: z.string(),
  aliPublicKey: z.string(),
  updatedAt: wireTime.nullable(),
  /** PAY_MODE: emulator (local emulators), live, simulated (merchants unused) */
  mode: z.string(),
  emulator: EmulatorPublicKeys.nullable(),
});
export type Merchant = z.output<typeof MerchantRow>;

export const PayGearQuery = CompanyQuery.extend({ companyId: companyId.optional() });
export const PayGearBody = z.object({
  companyId: companyId.optional(),
  gears: z
    .array(Money, { error: '请填写充值档位' })
    .max(12, '充值档位最多 12 个')
    .refine((a) => a.every((f) => f <= 10_000_000), '每个档位不超过 100000 元')
    .refine((a) => new Set(a).size === a.length, '充值档位不能重复')
    .transform((a) => [...a].sort((x, y) => x - y)),
});
export type PayGearInput = z.input<typeof PayGearBody>;

export const PayGearRow = z.object({
  companyId: z.number(),
  /** ascending, 分 */
  gearsFen: z.array(z.number()),
  /** the same, 元 */
  gears: z.array(z.string()),
});
export type PayGear = z.output<typeof PayGearRow>;

export const merchantEndpoints = {
  get: endpoint({ method: 'GET', path: '/pay/api/Merchant/detail', summary: '单位支付商户配置（密钥不回显）', perm: platform, query: MerchantQuery, response: MerchantRow, tags }),
  save: endpoint({
    method: 'PUT', path: '/pay/api/Merchant/detail', summary: '保存单位支付商户配置（密钥加密保存，留空不修改）', perm: platform, action: '保存支付商户',
    body: MerchantBody, response: MerchantRow, tags,
  }),
  payGear: endpoint({
    method: 'GET', path: '/yewu/api/Company/GetPayGear', summary: '充值档位', perm: {}, query: PayGearQuery, response: PayGearRow, tags,
  }),
  savePayGear: endpoint({
    method: 'POST', path: '/yewu/api/Company/SavePayGear', summary: '保存充值档位', perm: platform, action: '保存充值档位', body: PayGearBody, response: PayGearRow, tags,
  }),
};
