import { z } from 'zod';

// The answers of the billing endpoints (endpoints/billing.ts): what `data` holds (a page's row). Money
// is a 元 string with 2 decimals; moments are 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai), numeric readings
// and quantities strings as PostgreSQL gives them. Under test the server checks its answers against these.

const yuan = z.string();
const text = z.string();
const optText = z.string().nullable();
const optNum = z.number().nullable();
/** off 已断电, closing 断电中, pending 待断电, protected, on 未断电, none; null when not in arrears */
const supply = z.string().nullable();

/** RoomInfo/GetEnergyRoom and GetSynthesizeRoom: a room with its owner and balances. */
export const EnergyRoomAnswer = z.object({
  roomId: z.number(),
  roomName: text,
  areaId: z.number(),
  areaName: optText,
  sizeM2: text,
  ownerId: optNum,
  ownerName: optText,
  ownerPhone: optText,
  electricBalance: yuan,
  waterBalance: yuan,
  electricAlarm: z.number(),
  waterAlarm: z.number(),
  /** level 3: 欠费 with the supply's real state (欠费·已断电 / 欠费·待断电（预计 …） / 欠费·断电中 …) */
  electricAlarmText: text,
  waterAlarmText: text,
  electricSupply: supply,
  waterSupply: supply,
  /** when a deferred close will be taken ('YYYY-MM-DD HH:mm'), if known */
  electricCloseAt: optText,
  waterCloseAt: optText,
  electricMeters: z.number(),
  waterMeters: z.number(),
  closedMeters: z.number(),
  /** GetSynthesizeRoom only */
  otherBalance: yuan.optional(),
  monthPaid: yuan.optional(),
  lastPaidAt: optText.optional(),
});

export const EnergyRoomSumAnswer = z.object({
  rooms: z.number(),
  occupied: z.number(),
  electricBalance: yuan,
  waterBalance: yuan,
  arrearsRooms: z.number(),
  arrears: yuan,
  alarmRooms: z.number(),
});

/** A journal row (Statistics/list, Paymentlist, dataAuditlist, deductionDetail, a room's recent movements). */
export const JournalAnswer = z.object({
  id: z.number(),
  createdAt: text,
  roomId: optNum,
  roomName: optText,
  ownerId: z.number(),
  ownerName: optText,
  wallet: text,
  walletText: text,
  kind: text,
  kindText: text,
  payMethod: text,
  payMethodText: text,
  amount: yuan,
  balanceAfter: yuan,
  refType: text,
  refId: optNum,
  operatorName: text,
  memo: text,
  audited: z.boolean(),
  auditedBy: optText,
  auditedAt: optText,
  auditMemo: text,
  receiptNo: optText,
  /** deductions only: the settlement the row charged */
  meterId: optNum.optional(),
  meterName: optText.optional(),
  address: optText.optional(),
  prevTotal: optText.optional(),
  total: optText.optional(),
  quantity: optText.optional(),
  readAt: optText.optional(),
});

/** RoomInfo/RoomSubsidyList: a room's monthly subsidy plan. */
export const SubsidyPlanAnswer = z.object({
  id: z.number(),
  roomId: z.number(),
  roomName: text,
  ownerName: optText,
  wallet: text,
  walletText: text,
  amount: yuan,
  dayOfMonth: z.number(),
  startMonth: text,
  /** '' = no end */
  endMonth: text,
  enabled: z.boolean(),
  memo: text,
  createdAt: text,
  creditedTimes: z.number(),
});

/** RoomInfo/GetEnergyRoomDetail */
export const RoomDetailAnswer = z.object({
  room: z.object({ id: z.number(), name: text, areaId: z.number(), path: text }),
  owner: z.object({ id: z.number(), name: text, phone: text }).nullable(),
  accounts: z.array(z.object({
    id: z.number(),
    wallet: text,
    walletText: text,
    balance: yuan,
    alarmLevel: z.number(),
    alarmText: text,
    status: z.number(),
    closeDeferred: z.boolean(),
    updatedAt: text,
    supply,
    closeAt: optText,
  })),
  meters: z.array(z.object({
    id: z.number(),
    name: text,
    address: text,
    kind: z.number(),
    plan: z.number(),
    multiplier: text,
    status: z.number(),
    valveState: optNum,
    online: z.boolean(),
    /** 1: switching it off asks the valve-control password (SPEC §4) */
    phaseId: optNum,
    chargingSchemeId: optNum,
    chargingSchemeName: optText,
    alarmSchemeId: optNum,
    alarmSchemeName: optText,
    lastTotal: optText,
    lastReadAt: optText,
    settledTotal: optText,
    settledAt: optText,
    protected: z.boolean(),
    unit: text,
  })),
  journal: z.array(JournalAnswer),
  subsidyPlans: z.array(SubsidyPlanAnswer),
});

/** Energy/Prepay, Refund, Subsidy, settleAccountsPay, businessPay */
export const CounterAnswer = z.object({
  journalId: z.number(),
  receiptId: z.number(),
  receiptNo: text,
  amount: yuan,
  /** the wallet's balance afterwards (not for 综合缴费, which may touch several) */
  balance: yuan.optional(),
  /** true: this requestId was done before; nothing happened now */
  duplicate: z.boolean(),
});

/** CopySettlement/List: one settled reading. */
export const SettlementAnswer = z.object({
  id: z.number(),
  meterId: z.number(),
  meterName: text,
  address: text,
  meterKind: z.number(),
  roomId: optNum,
  roomName: optText,
  ownerId: optNum,
  ownerName: optText,
  prevReadAt: optText,
  readAt: text,
  prevTotal: text,
  total: text,
  multiplier: text,
  quantity: text,
  amount: yuan,
  periodKey: text,
  note: text,
  noteText: text,
  journalId: optNum,
  /** the priced lines (tiers, time-of-use segments) */
  lines: z.array(z.unknown()),
  unit: text,
  settledAt: text,
});

const KindFigures = z.object({ count: z.number(), quantity: text, amount: yuan, vacant: z.number() });
export const SettlementDataAnswer = z.object({
  electric: KindFigures,
  water: KindFigures,
  count: z.number(),
  amount: yuan,
  pendingMeters: z.number(),
  noSchemeMeters: z.number(),
  lastSettledAt: optText,
});

export const SettleNowAnswer = z.object({ meters: z.number(), readings: z.number(), deductions: z.number(), amount: yuan });

/** usersettlementbill/list: an owner's month. */
export const OwnerBillAnswer = z.object({
  month: text,
  ownerId: z.number(),
  ownerName: text,
  ownerPhone: text,
  roomId: optNum,
  roomName: optText,
  electricQuantity: text,
  electricAmount: yuan,
  waterQuantity: text,
  waterAmount: yuan,
  fees: yuan,
  total: yuan,
  prepay: yuan,
  refund: yuan,
  subsidy: yuan,
  electricBalance: yuan,
  waterBalance: yuan,
  arrears: yuan,
  /** 0 欠费待缴, 1 已结清 */
  status: z.number(),
  statusText: text,
});

/** usersettlementbill/energyBill: a meter's month. */
export const MeterBillAnswer = z.object({
  month: text,
  meterId: z.number(),
  meterName: text,
  address: text,
  meterKind: z.number(),
  multiplier: text,
  schemeName: optText,
  roomId: optNum,
  roomName: optText,
  ownerName: optText,
  startTotal: text,
  endTotal: text,
  quantity: text,
  amount: yuan,
  readings: z.number(),
  firstReadAt: text,
  lastReadAt: text,
  unit: text,
});

const Tally = z.object({ key: text, text, count: z.number(), amount: yuan });
/** userpaymentlog/DataSum */
export const AuditSumAnswer = z.object({
  count: z.number(),
  /** money received (cash, WeChat, Alipay, bank): never subsidies, system credits or opening balances */
  income: yuan,
  expense: yuan,
  /** 冲正 of money received (voided counter receipts, signed), inside net */
  reversal: yuan,
  net: yuan,
  subsidy: yuan,
  systemCredit: yuan,
  opening: yuan,
  auditedCount: z.number(),
  audited: yuan,
  unauditedCount: z.number(),
  unaudited: yuan,
  byKind: z.array(Tally),
  byPayMethod: z.array(Tally),
  byWallet: z.array(Tally),
});

const CountAmount = z.object({ count: z.number(), amount: yuan });
/** userpaymentlog/deductionDetailDataSum */
export const DeductionSumAnswer = z.object({
  count: z.number(),
  amount: yuan,
  electric: CountAmount.extend({ quantity: text }),
  water: CountAmount.extend({ quantity: text }),
  fees: CountAmount,
});

export const DataAuditAnswer = z.object({ audited: z.number(), already: z.number() });

/** BillPrinting/List and Paymentlist2: a counter receipt. */
export const ReceiptAnswer = z.object({
  id: z.number(),
  no: text,
  kind: text,
  kindText: text,
  payMethod: text,
  payMethodText: text,
  amount: yuan,
  items: z.array(z.object({ item: text, amount: yuan })),
  printCount: z.number(),
  /** made by an online payment or refund: its money moves through the provider, so it is never voided here */
  online: z.boolean(),
  lastPrintedAt: optText,
  createdAt: text,
  operatorName: text,
  memo: text,
  journalId: z.number(),
  roomId: optNum,
  roomName: optText,
  ownerId: z.number(),
  ownerName: optText,
  ownerPhone: optText,
  companyId: z.number(),
});

/** BillPrinting/Detail: the receipt as printed. */
export const ReceiptDetailAnswer = ReceiptAnswer.extend({
  areaName: optText,
  company: z.object({
    id: z.number(), name: text, address: optText, phone: optText, bankName: text,
    /** the company's 收据抬头 and 收据备注 (sys_config; the title is the company name when none is set) */
    receiptTitle: text, receiptFooter: text,
  }),
  room: z.object({ id: optNum, name: optText, areaName: optText }),
  owner: z.object({ id: z.number(), name: optText, phone: optText }),
  amountChinese: text,
  /** a data URL (PNG) of the receipt's QR code */
  qrCode: text,
});

export const PrintAnswer = z.object({ id: z.number(), printCount: z.number() });

/** AccountOff/List: a closed account and what was refunded. */
export const ClosedAnswer = z.object({
  ownerId: z.number(),
  ownerName: text,
  ownerPhone: text,
  roomId: optNum,
  roomName: optText,
  closedAt: optText,
  operatorName: optText,
  memo: optText,
  refund: yuan,
});

/** AccountCancel/Cancel */
export const CancelAnswer = z.object({
  ownerId: z.number(),
  settledReadings: z.number(),
  refunds: z.array(z.object({ wallet: text, amount: yuan, receiptNo: text })),
  /** the close commands queued (skipped: why none was) */
  valves: z.array(z.object({ meterId: z.number(), name: text, commandId: optNum, skipped: text })),
});

export const ReopenAnswer = z.object({ ownerId: z.number(), roomId: z.number() });

/** SharedMeter/List */
export const SharedMeterAnswer = z.object({
  meterId: z.number(),
  meterName: text,
  address: text,
  meterKind: z.number(),
  areaId: z.number(),
  areaName: optText,
  /** 1 按面积, 2 平均 */
  method: z.number(),
  methodText: text,
  memo: text,
  createdAt: text,
  /** occupied rooms the meter is shared over */
  rooms: z.number(),
});

const Money7 = z.object({ prepay: yuan, refund: yuan, subsidy: yuan, deduction: yuan, fee: yuan, systemCredit: yuan, opening: yuan });
/** Home/BillingSummary: prepay is money received; systemCredit and opening (期初余额) apart. */
export const HomeSummaryAnswer = z.object({
  today: Money7.extend({ payments: z.number() }),
  month: Money7,
  accounts: z.object({
    arrearsCount: z.number(),
    arrears: yuan,
    lowBalanceCount: z.number(),
    /** in arrears and every meter reads back 断 */
    closedByArrearsCount: z.number(),
    /** in arrears, the close waiting for the no-disconnect hours to end (待断电) */
    pendingCloseCount: z.number(),
    electricBalance: yuan,
    waterBalance: yuan,
  }),
  trend: z.array(z.object({ day: text, prepay: yuan, deduction: yuan })),
  /** the journal kinds' Chinese names */
  kinds: z.record(z.string(), z.string()),
});

export type EnergyRoomRow = z.output<typeof EnergyRoomAnswer>;
export type EnergyRoomSum = z.output<typeof EnergyRoomSumAnswer>;
export type JournalRow = z.output<typeof JournalAnswer>;
export type SubsidyPlanRow = z.output<typeof SubsidyPlanAnswer>;
export type RoomDetail = z.output<typeof RoomDetailAnswer>;
export type CounterResult = z.output<typeof CounterAnswer>;
export type SettlementRow = z.output<typeof SettlementAnswer>;
export type SettlementData = z.output<typeof SettlementDataAnswer>;
export type OwnerBillRow = z.output<typeof OwnerBillAnswer>;
export type MeterBillRow = z.output<typeof MeterBillAnswer>;
export type AuditSum = z.output<typeof AuditSumAnswer>;
export type DeductionSum = z.output<typeof DeductionSumAnswer>;
export type ReceiptRow = z.output<typeof ReceiptAnswer>;
export type ReceiptDetail = z.output<typeof ReceiptDetailAnswer>;
export type ClosedRow = z.output<typeof ClosedAnswer>;
export type CancelResult = z.output<typeof CancelAnswer>;
export type SharedMeterRow = z.output<typeof SharedMeterAnswer>;
export type HomeSummary = z.output<typeof HomeSummaryAnswer>;
