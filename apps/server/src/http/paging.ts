import { z } from 'zod';
import { num } from '@meter/contracts';

/** Paged query (SPEC §9: index is 1-based, size the page length). */
export const PageQuery = z.object({
  index: num(z.number().int().min(1)).default(1),
  size: num(z.number().int().min(1).max(1000)).default(20),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** Query fields every area-filtered page may add (DESIGN §4). */
export const AreaFilter = z.object({
  searchArea: num(z.number().int().positive()).optional(),
  searchClassify: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
  areaName: z.string().trim().max(64).optional(),
});

export const offsetOf = (q: PageQuery) => (q.index - 1) * q.size;

/** Optional text filter: blank becomes undefined. */
export const optText = (max = 64) =>
  z.string().trim().max(max).optional().transform((v) => (v ? v : undefined));

/** An id in the query string (?id=). */
export const IdQuery = z.object({ id: num(z.number().int().positive()) });
export const IdParams = z.object({ id: num(z.number().int().positive()) });
export const IdsBody = z.object({ ids: z.array(num(z.number().int().positive())).min(1).max(1000) });
