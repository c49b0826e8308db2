import { bigint, bigserial, integer, text, timestamp, varchar } from 'drizzle-orm/pg-core';

// Column helpers shared by every domain schema. Ids are bigint read as JS numbers.
export const id = () => bigserial('id', { mode: 'number' }).primaryKey();
export const ref = (name: string) => bigint(name, { mode: 'number' });
/** the tenant column: every tenant-owned row carries it, and row-level security filters on it */
export const companyId = () => bigint('company_id', { mode: 'number' }).notNull();
/** the head of a tenant-owned table: its id and the tenant column */
export const tenantKey = () => ({ id: id(), companyId: companyId() });
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const createdAt = () => ts('created_at').notNull().defaultNow();
export const updatedAt = () => ts('updated_at').notNull().defaultNow();
/** when a row was written and last changed */
export const timestamps = () => ({ createdAt: createdAt(), updatedAt: updatedAt() });
/** a text column that holds '' when unset (never NULL) */
export const blank = (name: string, length: number) => varchar(name, { length }).notNull().default('');
export const blankText = (name: string) => text(name).notNull().default('');
/** free text a person wrote about the row */
export const memo = () => blankText('memo');
/** a row's name (dictionaries, areas, rooms, owners, devices, schemes…) */
export const rowName = () => varchar('name', { length: 64 }).notNull();
/** status 1 (在用/启用/open) unless set: 0 is off; some tables add states of their own */
export const inUse = () => integer('status').notNull().default(1);
/** the tail of an archive row (dictionaries, rooms, schemes…): in use or not (status), a memo, written and changed */
export const archiveTail = () => ({ status: inUse(), memo: memo(), ...timestamps() });
/** who did it: the account (null when the system did) and its name as it was then */
export const operator = () => ({
  operatorId: ref('operator_id'),
  operatorName: blank('operator_name', 64),
});
/** where a request came from (sessions, login attempts, login codes) */
export const clientIp = () => blank('ip', 64);
/** a session's life: opened, last used, expiring, revoked (back-office and owner sessions alike) */
export const sessionLife = () => ({
  ip: clientIp(),
  userAgent: blankText('user_agent'),
  createdAt: createdAt(),
  lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
  expiresAt: ts('expires_at').notNull(),
  revokedAt: ts('revoked_at'),
});
/** how a withdrawal ended (bank sub-account and pay-application withdrawals): why, a note, who asked, when */
export const withdrawalOutcome = () => ({
  reason: blankText('reason'),
  memo: memo(),
  ...operator(),
  finishedAt: ts('finished_at'),
  createdAt: createdAt(),
});
