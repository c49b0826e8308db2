import { z } from 'zod';
import { chargingSchemeResource, listQuerySchema, num } from '@meter/contracts';

// Query and body shapes of the scheme routes that are not declared resources. The charging-scheme
// bodies (ChargingSchemeBody, ChargingSchemeUpdateBody) come from @meter/contracts.

export const SchemeListQuery = listQuerySchema(chargingSchemeResource);

/** GetListByType?type: 1 电费, 2 水费 (the SchemeEnum numbers). */
export const SchemeTypeQuery = z.object({
  type: num(z.number({ error: '请指定方案类型' }).int().refine((v) => v === 1 || v === 2, '方案类型须为 1（电费）或 2（水费）'), '请指定方案类型'),
});

export const SchemeIdParams = z.object({ id: num(z.number({ error: '收费方案 id 无效' }).int().positive('收费方案 id 无效'), '收费方案 id 无效') });

export const DeleteBody = z.object({
  ids: z.array(num(z.number().int().positive()), { error: '请选择要删除的记录' }).min(1, '请选择要删除的记录').max(1000),
});
