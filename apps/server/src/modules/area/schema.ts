import { z } from 'zod';
import { areaResource, formSchema, num } from '@meter/contracts';
import { AreaFilter, PageQuery, optText } from '../../http/paging.ts';

// Input of the area calls. The area form is derived from its declared resource.

const id = num(z.number().int().positive());
const flag = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0', ''])])
  .optional()
  .transform((v) => v === true || v === 'true' || v === '1');

export const TreeQuery = z.object({
  searchArea: z.string().trim().max(64).optional(),
  searchCompanyID: id.optional(),
});

export const ChildAreaQuery = PageQuery.merge(AreaFilter).extend({ name: optText() });

export const AreaBody = formSchema(areaResource);
export const AreaUpdateBody = AreaBody.extend({ id });

export const UserTreeQuery = z.object({ userId: id, searchArea: z.string().trim().max(64).optional() });

export const NoBindTreeQuery = UserTreeQuery.extend({ notReplace: flag });

export const BindUserBody = z.object({
  userId: id,
  areaIds: z.array(id).max(2000).default([]),
  /** area-permission sets whose areas are bound too */
  areaPermissionIds: z.array(id).max(100).default([]),
  /** true: add to the user's bindings; false: the new list replaces them */
  notReplace: z.boolean().default(false),
});
