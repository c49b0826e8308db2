import { bigint, index, integer, pgTable } from 'drizzle-orm/pg-core';
import { ref, tenantKey, timestamps, ts, memo, operator, blank, blankText, rowName, inUse, archiveTail } from './common.ts';

/** 区域 tree: park → building → floor (rooms hang below). deep 0 is the top level. */
export const areas = pgTable('areas', {
  ...tenantKey(),
  parentId: ref('parent_id'),
  name: rowName(),
  /** 0 selectable node, 1 ignored */
  areaType: integer('area_type').notNull().default(0),
  deep: integer('deep').notNull().default(0),
  classifyId: ref('classify_id'),
  province: blank('province', 32),
  city: blank('city', 32),
  district: blank('district', 32),
  town: blank('town', 32),
  sort: integer('sort').notNull().default(0),
  ...timestamps(),
}, (t) => [index('areas_company_parent').on(t.companyId, t.parentId)]);

/** 房间. */
export const rooms = pgTable('rooms', {
  ...tenantKey(),
  areaId: ref('area_id').notNull().references(() => areas.id),
  name: rowName(),
  decoration: integer('decoration').notNull().default(0),
  orientation: integer('orientation').notNull().default(0),
  chargingTypeId: ref('charging_type_id'),
  sizeM2: blank('size_m2', 16),
  /** status 1 在用, 0 停用 */
  ...archiveTail(),
}, (t) => [index('rooms_company_area').on(t.companyId, t.areaId)]);

/** 业主 (the occupant who pays). */
export const owners = pgTable('owners', {
  ...tenantKey(),
  roomId: ref('room_id').references(() => rooms.id),
  name: rowName(),
  phone: blank('phone', 20),
  idNumber: blank('id_number', 18),
  /** 0 未知, 1 男, 2 女 */
  gender: integer('gender').notNull().default(0),
  email: blank('email', 64),
  /** owner app/portal login password (resetPwd) */
  passwordHash: blankText('password_hash'),
  movedInAt: ts('moved_in_at'),
  memo: memo(),
  /** 1 在住, 0 已迁出, 2 已销户 */
  status: inUse(),
  ...timestamps(),
}, (t) => [index('owners_company_room').on(t.companyId, t.roomId)]);

/**
 * Owners moving into and out of rooms (/inRoomRecord). Names are kept as written at the time, so a
 * record outlives the owner or room it mentions (their ids then become NULL).
 */
export const ownerRoomHistory = pgTable('owner_room_history', {
  ...tenantKey(),
  ownerId: ref('owner_id').references(() => owners.id, { onDelete: 'set null' }),
  roomId: ref('room_id').references(() => rooms.id, { onDelete: 'set null' }),
  /** the room's area at the time: the area filter and the user's area scope follow it */
  areaId: ref('area_id'),
  ownerName: blank('owner_name', 64),
  ownerPhone: blank('owner_phone', 20),
  /** area path and room name, e.g. 阳光园区/1号楼/1层/1-101 */
  roomName: blank('room_name', 400),
  /** 1 入住, 2 迁出 */
  action: integer('action').notNull(),
  at: ts('at').notNull().defaultNow(),
  ...operator(),
  memo: memo(),
}, (t) => [
  index('owner_room_history_room').on(t.companyId, t.roomId),
  index('owner_room_history_company_at').on(t.companyId, t.at),
  index('owner_room_history_owner').on(t.ownerId),
]);

/** 区域权限: a named set of areas that can be bound to admin users. */
export const areaPermissions = pgTable('area_permissions', {
  ...tenantKey(),
  name: rowName(),
  areaIds: bigint('area_ids', { mode: 'number' }).array().notNull().default([]),
  /** status 1 在用, 0 停用 */
  ...archiveTail(),
});
