import { bigint, pgTable } from 'drizzle-orm/pg-core';
import { ref, companyId } from './common.ts';
import { areas } from './area.ts';

/**
 * How many rooms each area holds directly, kept by statement-level triggers on `rooms` (migration
 * room_counts_security). The room list's total for "this area and below" is a sum over the visible
 * areas of the subtree instead of a count over up to millions of rooms.
 */
export const roomAreaCounts = pgTable('room_area_counts', {
  areaId: ref('area_id').primaryKey().references(() => areas.id, { onDelete: 'cascade' }),
  companyId: companyId(),
  n: bigint('n', { mode: 'number' }).notNull().default(0),
});
