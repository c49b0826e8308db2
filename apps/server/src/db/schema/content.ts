import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, primaryKey, smallint, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, ref, companyId, tenantKey, createdAt, timestamps, ts, blank, blankText, rowName, archiveTail } from './common.ts';

// 增值服务: the company's notice/appeal/work-order type dictionaries and the appeals themselves
// (owner → company on /addedAppeal, company → platform on /systemAppeal), with their history.

const typeColumns = () => ({
  ...tenantKey(),
  name: rowName(),
  sort: integer('sort').notNull().default(0),
  /** status 1 在用, 0 停用 */
  ...archiveTail(),
});

/** 公告类型 (NoticeType). */
export const noticeTypes = pgTable('notice_types', typeColumns(), (t) => [index('notice_types_company').on(t.companyId)]);

/** 诉求类型 (AppealType): limit_hours = the time an appeal of this type has before it is overdue. */
export const appealTypes = pgTable('appeal_types', {
  ...typeColumns(),
  limitHours: integer('limit_hours').notNull().default(24),
}, (t) => [index('appeal_types_company').on(t.companyId)]);

/** 工单类型 (WorkOrderType). */
export const workOrderTypes = pgTable('work_order_types', {
  ...typeColumns(),
  limitHours: integer('limit_hours').notNull().default(24),
}, (t) => [index('work_order_types_company').on(t.companyId)]);

/**
 * 诉求: kind 1 业主诉求 (an owner asks the company), 2 平台诉求 (the company asks the platform),
 * 3 设备工单 (opened and closed by the system on a device exception, modules/content/device-orders.ts).
 * status 0 待受理 → 1 处理中 → 2 已完成 | 3 已驳回. Names are copied at write time: the platform's
 * admins and the company's staff cannot read each other's account rows.
 */
export const appeals = pgTable('appeals', {
  ...tenantKey(),
  kind: smallint('kind').notNull(),
  typeId: ref('type_id'),
  typeName: blank('type_name', 64),
  title: varchar('title', { length: 100 }).notNull(),
  content: blankText('content'),
  status: smallint('status').notNull().default(0),
  areaId: ref('area_id'),
  roomId: ref('room_id'),
  ownerId: ref('owner_id'),
  contactName: blank('contact_name', 64),
  contactPhone: blank('contact_phone', 20),
  assigneeId: ref('assignee_id'),
  assigneeName: blank('assignee_name', 64),
  deadlineAt: ts('deadline_at').notNull(),
  finishedAt: ts('finished_at'),
  createdById: ref('created_by_id'),
  createdByName: blank('created_by_name', 64),
  /** kind 3 设备工单: the device and the exception (device_warnings.kind) that opened it */
  meterId: ref('meter_id'),
  collectorId: ref('collector_id'),
  exceptionKind: varchar('exception_kind', { length: 24 }),
  /** 业主端: private upload keys of the room's photos the owner attached */
  photos: text('photos').array().notNull().default([]),
  ...timestamps(),
}, (t) => [
  index('appeals_company_kind_status').on(t.companyId, t.kind, t.status),
  index('appeals_area').on(t.areaId),
  // one open device work order per device and exception, however often (and concurrently) it is reported
  uniqueIndex('appeals_one_open_device_order')
    .on(sql`coalesce(${t.meterId}, 0)`, sql`coalesce(${t.collectorId}, 0)`, t.exceptionKind)
    .where(sql`kind = 3 AND status IN (0, 1)`),
]);

/** 诉求记录: a state change (from → to) or a reply; append-only. */
export const appealEvents = pgTable('appeal_events', {
  ...tenantKey(),
  appealId: ref('appeal_id').notNull().references(() => appeals.id, { onDelete: 'cascade' }),
  /** 'create' | 'accept' | 'assign' | 'reply' | 'complete' | 'reject' */
  action: varchar('action', { length: 16 }).notNull(),
  fromStatus: smallint('from_status'),
  toStatus: smallint('to_status'),
  content: blankText('content'),
  byId: ref('by_id'),
  byName: blank('by_name', 64),
  /** 0 platform, 1 company */
  byAccess: smallint('by_access').notNull().default(1),
  createdAt: createdAt(),
}, (t) => [index('appeal_events_appeal').on(t.appealId)]);

/** What both kinds of notice carry after their own columns: when published/withdrawn, by whom, when written. */
const noticeLifecycle = () => ({
  publishedAt: ts('published_at'),
  withdrawnAt: ts('withdrawn_at'),
  createdById: ref('created_by_id'),
  createdByName: blank('created_by_name', 64),
  ...timestamps(),
});

/**
 * 系统公告 (/systemNotice): the platform's notices to every company. Platform-wide like the SMS
 * templates (no tenant column): only the platform's endpoints write it, companies read the published.
 * status 0 草稿 → 1 已发布 → 2 已撤回 (a withdrawn one may be published again). content: sanitized HTML.
 */
export const systemNotices = pgTable('system_notices', {
  id: id(),
  category: smallint('category').notNull().default(1),
  title: varchar('title', { length: 100 }).notNull(),
  content: blankText('content'),
  status: smallint('status').notNull().default(0),
  pinned: boolean('pinned').notNull().default(false),
  ...noticeLifecycle(),
}, (t) => [index('system_notices_status').on(t.status, t.publishedAt)]);

/** A company user who opened a system notice (the platform counts the companies, the badge the user). */
export const systemNoticeReads = pgTable('system_notice_reads', {
  noticeId: ref('notice_id').notNull().references(() => systemNotices.id, { onDelete: 'cascade' }),
  userId: ref('user_id').notNull(),
  companyId: companyId(),
  readAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.noticeId, t.userId] }), index('system_notice_reads_company').on(t.companyId, t.noticeId)]);

/**
 * 物业公告 (/addedNotice): a company's notice to its owners, all of them or those living in the areas
 * named (and below). Same states as the system notices; send_sms: publishing queues one SMS per owner
 * addressed (notify outbox, key notice:<id>:<owner>).
 */
export const notices = pgTable('notices', {
  ...tenantKey(),
  typeId: ref('type_id'),
  typeName: blank('type_name', 64),
  title: varchar('title', { length: 100 }).notNull(),
  content: blankText('content'),
  /** empty = every owner of the company */
  areaIds: bigint('area_ids', { mode: 'number' }).array().notNull().default(sql`'{}'::bigint[]`),
  status: smallint('status').notNull().default(0),
  pinned: boolean('pinned').notNull().default(false),
  sendSms: boolean('send_sms').notNull().default(false),
  smsCount: integer('sms_count').notNull().default(0),
  ...noticeLifecycle(),
}, (t) => [index('notices_company_status').on(t.companyId, t.status, t.publishedAt)]);

/** An owner who opened a company notice (owner app). */
export const noticeReads = pgTable('notice_reads', {
  noticeId: ref('notice_id').notNull().references(() => notices.id, { onDelete: 'cascade' }),
  ownerId: ref('owner_id').notNull(),
  companyId: companyId(),
  readAt: createdAt(),
}, (t) => [primaryKey({ columns: [t.noticeId, t.ownerId] })]);
