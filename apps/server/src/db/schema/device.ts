import { sql } from 'drizzle-orm';
import { boolean, index, integer, numeric, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, ref, companyId, tenantKey, createdAt, timestamps, ts, memo, blank, blankText, rowName, inUse } from './common.ts';
import { areas, rooms } from './area.ts';
import { alarmSchemes, chargingSchemes } from './billing.ts';

/**
 * Device dictionaries (SPEC §7 lookups): one platform-wide table, one `kind` per list:
 * protocol, baud, phase, gateway, port, brand, caliber, type.
 */
export const deviceLookups = pgTable('device_lookups', {
  id: id(),
  kind: varchar('kind', { length: 16 }).notNull(),
  name: rowName(),
  code: blank('code', 32),
  sort: integer('sort').notNull().default(0),
  memo: memo(),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('device_lookups_kind_name').on(t.kind, t.name)]);

/** 采集器 (gather): a DTU, LoRa gateway or concentrator that meters talk through. */
export const collectors = pgTable('collectors', {
  ...tenantKey(),
  areaId: ref('area_id').references(() => areas.id),
  name: rowName(),
  imei: varchar('imei', { length: 32 }).notNull(),
  /** 0 4G, 1 Lora, 4 多用户, 5 新4G, 6 k3多用户 */
  plan: integer('plan').notNull().default(0),
  simNo: blank('sim_no', 32),
  installAddress: blankText('install_address'),
  online: boolean('online').notNull().default(false),
  lastSeenAt: ts('last_seen_at'),
  memo: memo(),
  /** registration secret: the collector registers with `REG <imei> <secret>` (docs/DEVICE-WIRE.md) */
  regSecret: varchar('reg_secret', { length: 64 }).notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
  ...timestamps(),
}, (t) => [uniqueIndex('collectors_imei').on(t.imei), index('collectors_company_area').on(t.companyId, t.areaId)]);

/** 表具 (device): an electricity or water meter in a room, optionally behind a collector. */
export const meters = pgTable('meters', {
  ...tenantKey(),
  roomId: ref('room_id').references(() => rooms.id),
  /** the room's area, kept in step with the room: row-level area scope and area filters use it */
  areaId: ref('area_id').references(() => areas.id),
  collectorId: ref('collector_id').references(() => collectors.id),
  name: blank('name', 64),
  /** 1 电表, 2 水表 */
  kind: integer('kind').notNull(),
  /** plan code of SPEC §3 (electric or water plan values) */
  plan: integer('plan').notNull(),
  /** meter address (DL/T 645: 12 digits; CJ/T 188: 14 digits) */
  address: varchar('address', { length: 16 }).notNull(),
  imei: blank('imei', 32),
  protocolId: ref('protocol_id').references(() => deviceLookups.id),
  baudId: ref('baud_id').references(() => deviceLookups.id),
  /** 1 = single-phase valve meters that ask for the valve-control password (SPEC §4) */
  phaseId: ref('phase_id').references(() => deviceLookups.id),
  gatewayId: ref('gateway_id').references(() => deviceLookups.id),
  portId: ref('port_id').references(() => deviceLookups.id),
  brandId: ref('brand_id').references(() => deviceLookups.id),
  caliberId: ref('caliber_id').references(() => deviceLookups.id),
  typeId: ref('type_id').references(() => deviceLookups.id),
  /** CT/PT multiplier (倍率) */
  multiplier: numeric('multiplier', { precision: 10, scale: 2 }).notNull().default('1'),
  chargingSchemeId: ref('charging_scheme_id').references(() => chargingSchemes.id),
  alarmSchemeId: ref('alarm_scheme_id').references(() => alarmSchemes.id),
  initialReading: numeric('initial_reading', { precision: 14, scale: 2 }).notNull().default('0'),
  installDate: blank('install_date', 10),
  /** 1 在用, 0 停用, 2 已销表 */
  status: inUse(),
  /** device side: online, relay/valve state (1 open/通, 0 closed/断), last contact */
  online: boolean('online').notNull().default(false),
  valveState: integer('valve_state'),
  lastSeenAt: ts('last_seen_at'),
  /**
   * minutes between the meter's own reports (0: by its channel — NB plans the configured NB interval,
   * others their connection's heartbeat); a directly connected meter goes offline after 3 of them
   */
  reportIntervalMinutes: integer('report_interval_minutes').notNull().default(0),
  memo: memo(),
  ...timestamps(),
}, (t) => [
  uniqueIndex('meters_address').on(t.address),
  /** NB/4G meters register with their IMEI: one meter per IMEI (blank for meters behind a collector) */
  uniqueIndex('meters_imei').on(t.imei).where(sql`imei <> ''`),
  index('meters_company_area').on(t.companyId, t.areaId),
  index('meters_room').on(t.roomId),
  index('meters_collector').on(t.collectorId),
  // the in-use checks of a scheme's delete, and the keys' own checks
  index('meters_charging_scheme').on(t.chargingSchemeId),
  index('meters_alarm_scheme').on(t.alarmSchemeId),
]);

/**
 * The head of a row kept per meter (gone with the meter): the meter as its key, the tenant, and the
 * reading the row stands at (meter_latest: the latest good one; settle_cursors: the last settled one).
 */
export const meterReadingKey = () => ({
  meterId: ref('meter_id').primaryKey().references(() => meters.id, { onDelete: 'cascade' }),
  companyId: companyId(),
  readAt: ts('read_at').notNull(),
  total: numeric('total', { precision: 14, scale: 2 }).notNull(),
});

/** 关注设备. */
export const focusDevices = pgTable('focus_devices', {
  ...tenantKey(),
  meterId: ref('meter_id').notNull().references(() => meters.id, { onDelete: 'cascade' }),
  memo: memo(),
  createdBy: ref('created_by'),
  createdAt: createdAt(),
}, (t) => [uniqueIndex('focus_devices_meter').on(t.companyId, t.meterId)]);
