import { bigint, bigserial, timestamp, varchar } from 'drizzle-orm/pg-core';

// Column helpers shared by every domain schema. Ids are bigint read as JS numbers.
export const id = () => bigserial('id', { mode: 'number' }).primaryKey();
export const ref = (name: string) => bigint(name, { mode: 'number' });
/** the tenant column: every tenant-owned row carries it, and row-level security filters on it */
export const companyId = () => bigint('company_id', { mode: 'number' }).notNull();
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
/** who did it: the account (null when the system did) and its name as it was then */
export const operator = () => ({
  operatorId: ref('operator_id'),
  operatorName: varchar('operator_name', { length: 64 }).notNull().default(''),
});
