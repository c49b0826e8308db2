import { bigint, index, integer, pgTable, text, varchar } from 'drizzle-orm/pg-core';
import { companyId, createdAt, id, ref, ts, updatedAt, operator } from './common.ts';

/** 区域 tree: park → building → floor (rooms hang below). deep 0 is the top level. */
export const areas = pgTable('areas', {
  id: id(),
  companyId: companyId(),
  parentId: ref('parent_id'),
  name: varchar('name', { length: 64 }).notNull(),
  /** 0 selectable node, 1 ignored */
  areaType: integer('area_type').notNull().default(0),
  deep: integer('deep').notNull().default(0),
  classifyId: ref('classify_id'),
  province: varchar('province', { length: 32 }).notNull().default(''),
  city: varchar('city', { length: 32 }).notNull().default(''),
  district: varchar('district', { length: 32 }).notNull().default(''),
  town: varchar('town', { length: 32 }).notNull().default(''),
  sort: integer('sort').notNull().default(0),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('areas_company_parent').on(t.companyId, t.parentId)]);

/** 房间. */
export const rooms = pgTable('rooms', {
  id: id(),
  companyId: companyId(),
  areaId: ref('area_id').notNull().references(() => areas.id),
  name: varchar('name', { length: 64 }).notNull(),
  decoration: integer('decoration').notNull().default(0),
  orientation: integer('orientation').notNull().default(0),
  chargingTypeId: ref('charging_type_id'),
  sizeM2: varchar('size_m2', { length: 16 }).notNull().default(''),
  /** 1 在用, 0 停用 */
  status: integer('status').notNull().default(1),
  memo: text('memo').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('rooms_company_area').on(t.companyId, t.areaId)]);

/** 业主 (the occupant who pays). */
export const owners = pgTable('owners', {
  id: id(),
  companyId: companyId(),
  roomId: ref('room_id').references(() => rooms.id),
  name: varchar('name', { length: 64 }).notNull(),
  phone: varchar('phone', { length: 20 }).notNull().default(''),
  idNumber: varchar('id_number', { length: 18 }).notNull().default(''),
  /** 0 未知, 1 男, 2 女 */
  gender: integer('gender').notNull().default(0),
  email: varchar('email', { length: 64 }).notNull().default(''),
  /** owner app/portal login password (resetPwd) */
  passwordHash: text('password_hash').notNull().default(''),
  movedInAt: ts('moved_in_at'),
  memo: text('memo').notNull().default(''),
  /** 1 在住, 0 已迁出, 2 已销户 */
  status: integer('status').notNull().default(1),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
}, (t) => [index('owners_company_room').on(t.companyId, t.roomId)]);

/**
 * Owners moving into and out of rooms (/inRoomRecord). Names are kept as written at the time, so a
 * record outlives the owner or room it mentions (their ids then become NULL).
 */
export const ownerRoomHistory = pgTable('owner_room_history', {
  id: id(),
  companyId: companyId(),
  ownerId: ref('owner_id').references(() => owners.id, { onDelete: 'set null' }),
  roomId: ref('room_id').references(() => rooms.id, { onDelete: 'set null' }),
  /** the room's area at the time: the area filter and the user's area scope follow it */
  areaId: ref('area_id'),
  ownerName: varchar('owner_name', { length: 64 }).notNull().default(''),
  ownerPhone: varchar('owner_phone', { length: 20 }).notNull().default(''),
  /** area path and room name, e.g. 阳光园区/1号楼/1层/1-101 */
  roomName: varchar('room_name', { length: 400 }).notNull().default(''),
  /** 1 入住, 2 迁出 */
  action: integer('action').notNull(),
  at: ts('at').notNull().defaultNow(),
  ...operator(),
  memo: text('memo').notNull().default(''),
}, (t) => [
  index('owner_room_history_room').on(t.companyId, t.roomId),
  index('owner_room_history_company_at').on(t.companyId, t.at),
  index('owner_room_history_owner').on(t.ownerId),
]);

/** 区域权限: a named set of areas that can be bound to admin users. */
export const areaPermissions = pgTable('area_permissions', {
  id: id(),
  companyId: companyId(),
  name: varchar('name', { length: 64 }).notNull(),
  areaIds: bigint('area_ids', { mode: 'number' }).array().notNull().default([]),
  /** 1 在用, 0 停用 */
  status: integer('status').notNull().default(1),
  memo: text('memo').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
