import { index, integer, pgTable, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { tenantKey, createdAt, operator, blank } from './common.ts';

/**
 * One committed Excel import (modules/imports): which file (its sha-256), of which kind, how many
 * rows, by whom. The same file is imported once per company and kind (the unique index).
 */
export const importBatches = pgTable('import_batches', {
  ...tenantKey(),
  /** area, room, owner, collector, meter, opening */
  kind: varchar('kind', { length: 16 }).notNull(),
  fileHash: varchar('file_hash', { length: 64 }).notNull(),
  fileName: blank('file_name', 200),
  rows: integer('rows').notNull(),
  ...operator(),
  createdAt: createdAt(),
}, (t) => [
  uniqueIndex('import_batches_file').on(t.companyId, t.kind, t.fileHash),
  index('import_batches_company_time').on(t.companyId, t.createdAt),
]);
