import { z } from 'zod';
import { num } from './input.ts';
import { fromBeijing } from './time.ts';

// Query and body pieces that many endpoint declarations share (SPEC §9 paging, DESIGN §4 area filter).

/** Paged query: index is 1-based, size the page length. */
export const PageQuery = z.object({
  index: num(z.number().int().min(1)).default(1),
  size: num(z.number().int().min(1).max(1000)).default(20),
});
export type PageQuery = z.infer<typeof PageQuery>;

/** Query fields every area-filtered page may add. */
export const AreaFilter = z.object({
  searchArea: num(z.number().int().positive()).optional(),
  searchClassify: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
  areaName: z.string().trim().max(64).optional(),
});

/** Optional text filter: blank becomes undefined. */
export const optText = (max = 64) =>
  z.string().trim().max(max).optional().transform((v) => (v ? v : undefined));

/** An id in the query string (?id=) or the path (/:id). */
export const IdQuery = z.object({ id: num(z.number().int().positive()) });
export const IdParams = z.object({ id: num(z.number().int().positive()) });
export const IdsBody = z.object({ ids: z.array(num(z.number().int().positive())).min(1).max(1000) });

/** A filter time as the pages send it, Beijing time: YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss] ('' = none). */
export const BeijingTime = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '时间格式应为 YYYY-MM-DD HH:mm:ss')
  .transform((s) => fromBeijing(s));
export const optBeijingTime = () =>
  z.union([z.literal('').transform(() => undefined), BeijingTime]).optional();

/** A filter time kept as the text sent (YYYY-MM-DD or YYYY-MM-DD HH:mm[:ss]; '' = none): the service reads it. */
export const optTimeText = z
  .string()
  .trim()
  .regex(/^\d{4}-\d{2}-\d{2}( \d{2}:\d{2}(:\d{2})?)?$/, '格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss')
  .optional()
  .or(z.literal('').transform(() => undefined));
/** startTime/endTime as optTimeText. */
export const TimeTextRange = z.object({ startTime: optTimeText, endTime: optTimeText });

/**
 * A timestamp in an answer: the server hands a Date, the wire carries its ISO text, the web reads a
 * string. Declared this way the same schema checks the server's answer and types the web's.
 */
export const wireTime = z.union([z.date().transform((d) => d.toISOString()), z.string()]);
export const wireTimeOrNull = wireTime.nullable();

type Ref<K extends string, N extends z.ZodType, S extends z.ZodType> = { [P in `${K}Id`]: N } & { [P in `${K}Name`]: S };
/**
 * A record a row refers to, answered as its id and its name: `...ref('company')` is
 * `companyId: z.number(), companyName: z.string()`; `optionalRef` when the row may have none (both null), `blankRef` when it may have none and answers '' for its name.
 */
export function ref<K extends string>(key: K): Ref<K, z.ZodNumber, z.ZodString> {
  return { [`${key}Id`]: z.number(), [`${key}Name`]: z.string() } as Ref<K, z.ZodNumber, z.ZodString>;
}
export function optionalRef<K extends string>(key: K): Ref<K, z.ZodNullable<z.ZodNumber>, z.ZodNullable<z.ZodString>> {
  return { [`${key}Id`]: z.number().nullable(), [`${key}Name`]: z.string().nullable() } as Ref<K, z.ZodNullable<z.ZodNumber>, z.ZodNullable<z.ZodString>>;
}
/** As optionalRef, but the name is '' (not null) when there is none. */
export function blankRef<K extends string>(key: K): Ref<K, z.ZodNullable<z.ZodNumber>, z.ZodString> {
  return { [`${key}Id`]: z.number().nullable(), [`${key}Name`]: z.string() } as Ref<K, z.ZodNullable<z.ZodNumber>, z.ZodString>;
}

type Coded<K extends string, C extends z.ZodType> = { [P in K]: C } & { [P in `${K}Text`]: z.ZodString };
/**
 * A code answered with its Chinese text: `...coded('status', z.number())` is
 * `status: z.number(), statusText: z.string()` (the page shows the text, filters and colours by the code).
 */
export function coded<K extends string, C extends z.ZodType>(key: K, code: C): Coded<K, C> {
  return { [key]: code, [`${key}Text`]: z.string() } as Coded<K, C>;
}

/**
 * The company a platform administrator works in (?searchCompanyID=, read by the session for every
 * call); declared on the endpoints that take nothing else in the query so the web may send it.
 */
export const CompanyQuery = z.object({ searchCompanyID: num(z.number().int().positive()).optional() });

/** How a withdrawal (a bank sub-merchant's or a payment application's) ended, and who asked for it. */
export const withdrawalEnd = {
  /** why a failed withdrawal failed */
  reason: z.string(),
  memo: z.string(),
  operatorName: z.string(),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
};
