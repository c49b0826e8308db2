import { bigint, index, integer, pgTable, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, ref, createdAt, blank, blankText, inUse } from './common.ts';

/**
 * An uploaded file (modules/files): where its bytes are (the store's key `<kind>/<key>`), what it is
 * (the type read from its first bytes) and whose it is. A private file is served only to its company
 * (and, later, to the owners of `room_id`); a platform upload has no company.
 */
export const files = pgTable('files', {
  id: id(),
  /** 32 hex characters and the detected extension; the URL's last segment */
  key: varchar('key', { length: 40 }).notNull(),
  /** 'Public' or 'Private' (the token's kind) */
  kind: varchar('kind', { length: 8 }).notNull(),
  /** null: uploaded by the platform */
  companyId: bigint('company_id', { mode: 'number' }),
  roomId: ref('room_id'),
  /** image, video, document */
  category: varchar('category', { length: 16 }).notNull(),
  name: blank('name', 200),
  mime: varchar('mime', { length: 100 }).notNull(),
  size: bigint('size', { mode: 'number' }).notNull(),
  /** 'local' or 's3': the store it was written to */
  store: varchar('store', { length: 8 }).notNull(),
  uploadedBy: ref('uploaded_by'),
  /** 业主端: the owner who uploaded it (an appeal photo) */
  uploadedByOwner: ref('uploaded_by_owner'),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('files_key').on(t.key),
  index('files_company_time').on(t.companyId, t.createdAt),
]);

/** 教学视频 (SPEC §7 Sys_TeachingVideo): the platform's video and text tutorials shown on /headQuestion. */
export const teachingVideos = pgTable('teaching_videos', {
  id: id(),
  title: varchar('title', { length: 100 }).notNull(),
  /** 1 视频教程, 2 文字教程 */
  mode: integer('mode').notNull().default(1),
  /** file keys (Public uploads): the video, the pictures of a text tutorial */
  video: text('video').array().notNull().default([]),
  images: text('images').array().notNull().default([]),
  content: blankText('content'),
  sort: integer('sort').notNull().default(0),
  status: inUse(),
  createdAt: createdAt(),
});
