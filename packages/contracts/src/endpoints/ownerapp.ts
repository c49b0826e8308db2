import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num, phoneSchema } from '../input.ts';
import { IdQuery, PageQuery, wireTime, wireTimeOrNull, coded } from '../query.ts';
import { EnergyWallet, Money } from './billing-input.ts';
import { AppealDetail, AppealRow } from './appeal.ts';
import { PaymentOrderRow } from './payment.ts';
import { NewPassword } from './auth.ts';
import { UploadToken } from './files.ts';
import { FileParams } from './files.ts';

// 业主端 H5 (issue 15 item 8, the web's /h5): an owner signs in by phone + SMS code (the notify outbox)
// or by room + password, and gets a session of their own (owner_sessions): owner tokens answer only
// the endpoints declared with `perm: {owner: true}`, back-office tokens none of them. An owner sees the
// rooms of their own owner rows (the phone signed in with, or the room signed in with) and nothing else.

export const OWNER_CODE_TTL_SECONDS = 300;
export const OWNER_CODE_COOLDOWN_SECONDS = 60;

const id = num(z.number().int().positive());
const owner = { owner: true as const };
const tags = ['业主端'];
const O = '/yewu/api/OwnerApp';

export const OwnerCodeBody = z.object({ phone: phoneSchema('手机号码') });
export const OwnerCodeAnswer = z.object({ expiresIn: z.number(), cooldown: z.number() });
export const OwnerPhoneLoginBody = z.object({
  phone: phoneSchema('手机号码'),
  code: z.string({ error: '请输入验证码' }).trim().regex(/^\d{6}$/, '验证码为 6 位数字'),
  /**
   * the company chosen when the phone is registered with owners of several companies (one of the
   * `choose` answer's): sent again with the same code, which is spent only then
   */
  companyId: num(z.number({ error: '请选择物业公司' }).int('请选择物业公司').positive('请选择物业公司'), '请选择物业公司').optional(),
});
export const OwnerRoomLoginBody = z.object({
  roomId: num(z.number({ error: '请输入房间编号' }).int('房间编号须为正整数').positive('房间编号须为正整数'), '房间编号须为正整数'),
  password: z.string({ error: '请输入密码' }).min(1, '请输入密码').max(64, '密码过长'),
});
export const OwnerLoginAnswer = z.object({
  token: z.string(),
  owner: z.object({ id: z.number(), name: z.string(), phone: z.string() }),
  companyId: z.number(),
  companyName: z.string(),
});

/** a company the phone is registered in: its name, the owner's name there and the rooms (full paths) */
export const OwnerCompanyChoice = z.object({
  companyId: z.number(),
  companyName: z.string(),
  ownerName: z.string(),
  rooms: z.array(z.string()),
});
/** the code is right and the phone is an owner's in several companies: choose one (the code is not spent yet) */
export const OwnerChooseAnswer = z.object({ choose: z.array(OwnerCompanyChoice) });
export const OwnerPhoneLoginAnswer = z.union([OwnerLoginAnswer, OwnerChooseAnswer]);

export const OwnerPasswordBody = z.object({
  /** the room whose sign-in password this is (a room of the session) */
  roomId: id,
  oldPassword: z.string({ error: '请输入原密码' }).min(1, '请输入原密码').max(128, '原密码过长'),
  newPassword: NewPassword,
});

const OwnerAccount = z.object({
  ...coded('wallet', z.string()),
  /** 元 */
  balance: z.string(),
  alarmLevel: z.number(),
  alarmText: z.string(),
  /** off | closing | pending | protected | on | none, null while not in arrears */
  supply: z.string().nullable(),
  status: z.number(),
});
const OwnerMeter = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.number(),
  /** 1 通, 0 断, null unknown */
  valveState: z.number().nullable(),
  online: z.boolean(),
});
export const OwnerRoomRow = z.object({
  roomId: z.number(),
  roomName: z.string(),
  path: z.string(),
  ownerId: z.number(),
  ownerName: z.string(),
  accounts: z.array(OwnerAccount),
  meters: z.array(OwnerMeter),
});
export const OwnerMeAnswer = z.object({
  owner: z.object({ id: z.number(), name: z.string(), phone: z.string() }),
  companyName: z.string(),
  rooms: z.array(OwnerRoomRow),
});

export const OwnerRoomQuery = z.object({ roomId: id });
export const OwnerUsageQuery = OwnerRoomQuery.extend({ by: z.enum(['day', 'month'], { error: '统计方式须为 day 或 month' }).default('day') });
export const OwnerUsageRow = z.object({
  /** YYYY-MM-DD or YYYY-MM (China time) */
  period: z.string(),
  /** kWh / m³ */
  electric: z.string(),
  water: z.string(),
  /** 元 */
  electricAmount: z.string(),
  waterAmount: z.string(),
});
export const OwnerJournalQuery = PageQuery.extend({ roomId: id });
export const OwnerJournalRow = z.object({
  id: z.number(),
  createdAt: wireTime,
  ...coded('wallet', z.string()),
  ...coded('kind', z.string()),
  payMethodText: z.string(),
  /** 元, signed as written */
  amount: z.string(),
  balanceAfter: z.string(),
  memo: z.string(),
});
export const OwnerAppBillRow = z.object({
  /** YYYY-MM */
  month: z.string(),
  electric: z.string(),
  water: z.string(),
  electricAmount: z.string(),
  waterAmount: z.string(),
  /** 元: settled usage + monthly fees of the month */
  total: z.string(),
});

export const OwnerPayBody = z.object({
  roomId: id,
  wallet: EnergyWallet,
  amount: Money,
  channel: z.enum(['wechat', 'alipay'], { error: '支付方式须为 wechat 或 alipay' }),
});
const tradeNo = z.string({ error: '请提供订单号' }).trim().regex(/^[A-Z]{2,3}\d{22}$/, '订单号格式不正确');
export const OwnerTradeQuery = z.object({ outTradeNo: tradeNo });
export const OwnerTradeBody = z.object({ outTradeNo: tradeNo });
export const OwnerOrderRow = z.object({
  outTradeNo: z.string(),
  channelText: z.string(),
  amount: z.string(),
  ...coded('status', z.string()),
  paidAt: wireTimeOrNull,
});

export const OwnerAppAppealBody = z.object({
  roomId: id,
  typeId: id,
  title: z.string({ error: '请填写诉求标题' }).trim().min(1, '请填写诉求标题').max(100, '诉求标题不能超过 100 个字'),
  content: z.string({ error: '请填写诉求内容' }).trim().min(1, '请填写诉求内容').max(2000, '诉求内容不能超过 2000 个字'),
  contactPhone: z.string().trim().max(20).regex(/^[0-9+\-() ]*$/, '联系电话只能包含数字、空格和 +-()').default(''),
  /** private uploads of this owner for this room (at most 9) */
  photos: z.array(z.string().max(40)).max(9, '最多上传 9 张照片').default([]),
});
export const OwnerAppealTypeRow = z.object({ id: z.number(), name: z.string() });
export const OwnerUploadTokenQuery = z.object({ roomId: id });

export const ownerAppEndpoints = {
  sendCode: endpoint({ method: 'POST', path: `${O}/Login/Code`, summary: '业主端：发送登录验证码（短信）', perm: false, body: OwnerCodeBody, response: OwnerCodeAnswer, tags }),
  loginPhone: endpoint({ method: 'POST', path: `${O}/Login/Phone`, summary: '业主端：手机号验证码登录（多家物业时先选择公司）', action: '业主登录', perm: false, body: OwnerPhoneLoginBody, response: OwnerPhoneLoginAnswer, tags }),
  loginRoom: endpoint({ method: 'POST', path: `${O}/Login/Room`, summary: '业主端：房间编号与密码登录', action: '业主登录', perm: false, body: OwnerRoomLoginBody, response: OwnerLoginAnswer, tags }),
  password: endpoint({
    method: 'POST', path: `${O}/Password`, summary: '业主端：修改房间登录密码（结束该业主的全部登录）', action: '业主修改密码', perm: owner, body: OwnerPasswordBody, tags,
  }),
  logout: endpoint({ method: 'POST', path: `${O}/Logout`, summary: '业主端：退出登录', perm: owner, tags }),
  me: endpoint({ method: 'GET', path: `${O}/Me`, summary: '业主端：我的房间、余额与供应状态', perm: owner, response: OwnerMeAnswer, tags }),
  usage: endpoint({ method: 'GET', path: `${O}/Usage`, summary: '业主端：按日/按月用量', perm: owner, query: OwnerUsageQuery, response: z.array(OwnerUsageRow), tags }),
  journal: endpoint({ method: 'GET', path: `${O}/Journal`, summary: '业主端：缴费与扣费记录', perm: owner, query: OwnerJournalQuery, response: OwnerJournalRow, paged: true, tags }),
  bills: endpoint({ method: 'GET', path: `${O}/Bills`, summary: '业主端：月度账单', perm: owner, query: OwnerRoomQuery, response: z.array(OwnerAppBillRow), tags }),
  pay: endpoint({ method: 'POST', path: `${O}/Pay`, summary: '业主端：在线充值下单', perm: owner, body: OwnerPayBody, response: PaymentOrderRow, tags }),
  order: endpoint({ method: 'GET', path: `${O}/Pay/Order`, summary: '业主端：充值订单状态', perm: owner, query: OwnerTradeQuery, response: OwnerOrderRow, tags }),
  simulatePaid: endpoint({
    method: 'POST', path: `${O}/Pay/SimulatePaid`, summary: '业主端：模拟支付成功（离线版模拟支付平台）', perm: owner, body: OwnerTradeBody, response: OwnerOrderRow, tags,
  }),
  appealTypes: endpoint({ method: 'GET', path: `${O}/Appeal/Types`, summary: '业主端：诉求类型', perm: owner, response: z.array(OwnerAppealTypeRow), tags }),
  appeals: endpoint({ method: 'GET', path: `${O}/Appeal/List`, summary: '业主端：我的诉求', perm: owner, query: PageQuery, response: AppealRow, paged: true, tags }),
  appeal: endpoint({ method: 'GET', path: `${O}/Appeal/Detail`, summary: '业主端：诉求详情与处理记录', perm: owner, query: IdQuery, response: AppealDetail, tags }),
  createAppeal: endpoint({
    method: 'POST', path: `${O}/Appeal/Detail`, summary: '业主端：提交诉求', perm: owner, body: OwnerAppAppealBody, response: z.object({ id: z.number() }), tags,
  }),
  uploadToken: endpoint({ method: 'GET', path: `${O}/Upload/Token`, summary: '业主端：上传凭证（私有，照片）', perm: owner, query: OwnerUploadTokenQuery, response: UploadToken, tags }),
  file: endpoint({ method: 'GET', path: `${O}/File/:key`, summary: '业主端：查看自己房间的私有文件', perm: owner, params: FileParams, inline: true, tags }),
};

export type OwnerMe = z.output<typeof OwnerMeAnswer>;
export type OwnerChoice = z.output<typeof OwnerCompanyChoice>;
export type OwnerRoom = z.output<typeof OwnerRoomRow>;
export type OwnerUsage = z.output<typeof OwnerUsageRow>;
export type OwnerJournal = z.output<typeof OwnerJournalRow>;
export type OwnerBill = z.output<typeof OwnerAppBillRow>;
export type OwnerOrder = z.output<typeof OwnerOrderRow>;
