import { bigint, index, integer, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { id, companyId, createdAt, ts, clientIp, sessionLife, blank } from './common.ts';
import { owners } from './area.ts';

/**
 * 业主端 sessions (modules/ownerapp): a token kind of their own, apart from the back-office's
 * `sessions` — an owner token answers only the owner endpoints, a back-office token none of them.
 * `phone` set (an SMS login): the owner sees every room of their company registered with that phone;
 * empty (room + password): only the room of `owner_id`.
 */
export const ownerSessions = pgTable('owner_sessions', {
  id: id(),
  tokenHash: varchar('token_hash', { length: 64 }).notNull(),
  ownerId: bigint('owner_id', { mode: 'number' }).notNull().references(() => owners.id, { onDelete: 'cascade' }),
  companyId: companyId(),
  phone: blank('phone', 20),
  /** 'sms' | 'password' */
  via: varchar('via', { length: 8 }).notNull(),
  ...sessionLife(),
}, (t) => [uniqueIndex('owner_sessions_token').on(t.tokenHash), index('owner_sessions_owner').on(t.ownerId)]);

/** SMS login codes: only a hash kept; expiring, a few tries each, their sending rate-limited per phone and IP. */
export const ownerLoginCodes = pgTable('owner_login_codes', {
  id: id(),
  phone: varchar('phone', { length: 20 }).notNull(),
  codeHash: varchar('code_hash', { length: 64 }).notNull(),
  ip: clientIp(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
  usedAt: ts('used_at'),
}, (t) => [index('owner_login_codes_phone').on(t.phone, t.createdAt), index('owner_login_codes_ip').on(t.ip, t.createdAt)]);
