import { z } from 'zod';
import { ALL_COLLECTOR_PLANS, ALL_ELECTRIC_PLANS, ALL_WATER_PLANS, companyResource, formSchema, listQuerySchema, num } from '@meter/contracts';

// Input of the company calls. The company form is derived from its declared resource.

export const CompanyBody = formSchema(companyResource);
export const CompanyUpdateBody = CompanyBody.extend({ id: num(z.number().int().positive()) });
export const CompanyListQuery = listQuerySchema(companyResource);

const planList = (all: number[], label: string) =>
  z
    .array(num(z.number().int()))
    .max(100)
    .default([])
    .refine((a) => a.every((v) => all.includes(v)), `${label}包含无效的类型代码`)
    .transform((a) => [...new Set(a)].sort((x, y) => x - y));

export const DevicePermissQuery = z.object({
  companyId: num(z.number().int().positive()).optional(),
  searchCompanyID: num(z.number().int().positive()).optional(),
});

export const DevicePermissBody = z.object({
  companyId: num(z.number().int().positive()),
  deviceCheck: z.boolean(),
  collectorPlans: planList(ALL_COLLECTOR_PLANS, '采集器类型'),
  electricPlans: planList(ALL_ELECTRIC_PLANS, '电表类型'),
  waterPlans: planList(ALL_WATER_PLANS, '水表类型'),
});

/** The valve-control password typed in the dialog (compared on the server). */
export const ValvePwdCheckBody = z.object({ password: z.string({ error: '请输入阀控密码' }).max(64, '阀控密码最多 32 位') });
/** A company admin sets the valve-control password. */
export const ValvePwdSetBody = z.object({
  password: z.string({ error: '请输入阀控密码' }).trim().min(4, '阀控密码至少 4 位').max(32, '阀控密码最多 32 位').regex(/^\S+$/, '阀控密码不能包含空格'),
  /** the password in use, when one is set */
  currentPassword: z.string().max(64, '阀控密码最多 32 位').optional(),
});
