import { boolean, integer, jsonb, numeric, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { ref, tenantKey, createdAt, timestamps, ts, memo, blank, rowName, archiveTail } from './common.ts';

/** 收费类型 (ChargingType): what a room is charged for, e.g. 住宅用电, 商铺用水. */
export const chargingTypes = pgTable('charging_types', {
  ...tenantKey(),
  name: rowName(),
  /** ChargeTypeEnum: 1 电费, 2 水费, 3 物业费, 4 公摊费, 5 其他 */
  chargeType: integer('charge_type').notNull().default(1),
  /** status 1 在用, 0 停用 */
  ...archiveTail(),
}, (t) => [uniqueIndex('charging_types_company_name').on(t.companyId, t.name)]);

/**
 * 收费方案. The pricing itself lives in versions, each with an effective date, so a price change
 * splits consumption at the change.
 */
export const chargingSchemes = pgTable('charging_schemes', {
  ...tenantKey(),
  name: rowName(),
  /** 1 电, 2 水 */
  kind: integer('kind').notNull().default(1),
  /** 阶梯 accumulation: null none, 1 月累计, 2 年累计 */
  chargingMonthType: integer('charging_month_type'),
  ...archiveTail(),
}, (t) => [uniqueIndex('charging_schemes_company_name').on(t.companyId, t.name)]);

/**
 * One version of a scheme's prices, effective from a moment. mode: flat | tiered | tou.
 * unit_price in 元 with 4 decimals; tiers [{upTo: kWh|m³ or null, price}]; tou
 * {periods: [{name: 尖|峰|平|谷, price, ranges: ['HH:mm-HH:mm']}]}; fees in 分.
 */
export const chargingSchemeVersions = pgTable('charging_scheme_versions', {
  ...tenantKey(),
  schemeId: ref('scheme_id').notNull().references(() => chargingSchemes.id, { onDelete: 'cascade' }),
  effectiveFrom: ts('effective_from').notNull(),
  mode: varchar('mode', { length: 8 }).notNull().default('flat'),
  unitPrice: numeric('unit_price', { precision: 12, scale: 4 }).notNull().default('0'),
  tiers: jsonb('tiers').$type<{ upTo: string | null; price: string }[]>().notNull().default([]),
  tou: jsonb('tou').$type<{ periods: { name: string; price: string; ranges: string[] }[] }>().notNull().default({ periods: [] }),
  monthlyFeeFen: integer('monthly_fee_fen').notNull().default(0),
  minimumChargeFen: integer('minimum_charge_fen').notNull().default(0),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('charging_scheme_versions_scheme_from').on(t.schemeId, t.effectiveFrom)]);

/** 收费码 (sys_companychargecode). */
export const companyChargeCodes = pgTable('company_charge_codes', {
  ...tenantKey(),
  code: varchar('code', { length: 32 }).notNull(),
  name: rowName(),
  /** SchemeEnum: 1 电费, 2 水费, 3 物业费, 4 公摊费, 5 其他 */
  schemeType: integer('scheme_type').notNull().default(1),
  amountFen: integer('amount_fen').notNull().default(0),
  memo: memo(),
  ...timestamps(),
}, (t) => [uniqueIndex('company_charge_codes_code').on(t.companyId, t.code)]);

/** 报警方案: balance thresholds in 分, channels and no-disconnect hours. */
export const alarmSchemes = pgTable('alarm_schemes', {
  ...tenantKey(),
  name: rowName(),
  /** 1 电, 2 水 */
  kind: integer('kind').notNull().default(1),
  alarm1Fen: integer('alarm1_fen').notNull().default(2000),
  alarm2Fen: integer('alarm2_fen').notNull().default(1000),
  closeFen: integer('close_fen').notNull().default(0),
  overdraftFen: integer('overdraft_fen').notNull().default(0),
  notifySms: boolean('notify_sms').notNull().default(true),
  notifyPhone: boolean('notify_phone').notNull().default(false),
  /** no automatic close between these local times (HH:mm), e.g. 22:00–08:00; empty = none */
  noCloseStart: blank('no_close_start', 5),
  noCloseEnd: blank('no_close_end', 5),
  noCloseWeekend: boolean('no_close_weekend').notNull().default(false),
  ...archiveTail(),
}, (t) => [uniqueIndex('alarm_schemes_company_name').on(t.companyId, t.name)]);

