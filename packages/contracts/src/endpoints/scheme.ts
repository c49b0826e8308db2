import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, wireTime } from '../query.ts';
import { listQuerySchema } from '../resource.ts';
import {
  CHARGING_SCHEME_OP, ChargingSchemeBody, ChargingSchemeUpdateBody, chargingSchemeResource,
} from '../resources/scheme.ts';
import { PRICE_MODES, type PriceMode } from '../resources/pricing.ts';

// 收费方案 (/yewu/api/chargingscheme, /recordsFees): charging schemes with their price versions, and
// the charge-code category list. Charge codes and alarm schemes themselves are registered from their
// declared resources (http/crud.ts). Money: 元 strings on the wire (resources/scheme.ts).

const tags = ['收费与报警方案'];
// pickers on the meter archive (/recordsTable) read schemes too
const feesRead = { routes: ['recordsFees', 'recordsTable'] };
const feesWrite = { routes: ['recordsFees'], op: CHARGING_SCHEME_OP };

export const SchemeListQuery = listQuerySchema(chargingSchemeResource);

/** GetListByType?type: 1 电费, 2 水费 (the SchemeEnum numbers). */
export const SchemeTypeQuery = CompanyQuery.extend({
  type: num(z.number({ error: '请指定方案类型' }).int().refine((v) => v === 1 || v === 2, '方案类型须为 1（电费）或 2（水费）'), '请指定方案类型'),
});

export const SchemeIdParams = z.object({ id: num(z.number({ error: '收费方案 id 无效' }).int().positive('收费方案 id 无效'), '收费方案 id 无效') });

export const SchemeDeleteBody = z.object({
  ids: z.array(num(z.number().int().positive()), { error: '请选择要删除的记录' }).min(1, '请选择要删除的记录').max(1000),
});

const monthType = z.union([z.literal(1), z.literal(2)]).nullable();

/** A price version in an answer: prices 4 decimals, fees 元 with 2 decimals. */
export const ChargingSchemeVersionRow = z.object({
  id: z.number(),
  /** 'YYYY-MM-DD HH:mm:ss', Asia/Shanghai */
  effectiveFrom: z.string(),
  mode: z.enum(Object.keys(PRICE_MODES) as [PriceMode, ...PriceMode[]]),
  unitPrice: z.string(),
  /** upTo: the tier's upper limit in kWh / m³; null = open-ended (last tier) */
  tiers: z.array(z.object({ upTo: z.string().nullable(), price: z.string() })),
  /** ranges: 'HH:mm-HH:mm', a range may wrap midnight */
  tou: z.object({ periods: z.array(z.object({ name: z.string(), price: z.string(), ranges: z.array(z.string()) })) }),
  monthlyFee: z.string(),
  minimumCharge: z.string(),
});

const schemeFields = {
  id: z.number(),
  companyId: z.number(),
  name: z.string(),
  /** 1 电费, 2 水费 */
  kind: z.number(),
  /** 阶梯 accumulation: 1 月累计, 2 年累计, null none */
  chargingMonthType: monthType,
  status: z.number(),
  memo: z.string(),
  createdAt: wireTime,
  updatedAt: wireTime,
};

/** GET chargingscheme/detail/{id}: the scheme with all its versions. */
export const ChargingSchemeDetailRow = z.object({ ...schemeFields, versions: z.array(ChargingSchemeVersionRow) });

/** A row of chargingscheme/list: the scheme, the version in effect now and the next change. */
export const ChargingSchemeListRow = z.object({
  ...schemeFields,
  versionCount: z.number(),
  current: ChargingSchemeVersionRow.nullable(),
  /** effectiveFrom of the next version not yet in effect, or null */
  nextChangeAt: z.string().nullable(),
});

/** GetAllUsingList / GetListByType: the schemes in use (status 1), for pickers. */
export const ChargingSchemeOptionRow = z.object({ id: z.number(), name: z.string(), kind: z.number(), chargingMonthType: monthType });

const C = '/yewu/api/chargingscheme';

export const schemeEndpoints = {
  using: endpoint({
    method: 'GET', path: `${C}/GetAllUsingList`, summary: '在用收费方案（全部）', perm: feesRead, query: CompanyQuery,
    response: z.array(ChargingSchemeOptionRow), tags,
  }),
  byType: endpoint({
    method: 'GET', path: `${C}/GetListByType`, summary: '按类型取在用收费方案', perm: feesRead, query: SchemeTypeQuery,
    response: z.array(ChargingSchemeOptionRow), tags,
  }),
  list: endpoint({
    method: 'GET', path: `${C}/list`, summary: '收费方案列表', perm: feesRead, query: SchemeListQuery,
    response: ChargingSchemeListRow, paged: true, tags,
  }),
  detail: endpoint({
    method: 'GET', path: `${C}/detail/:id`, summary: '收费方案详情（含价格版本）', perm: feesRead, query: CompanyQuery, params: SchemeIdParams,
    response: ChargingSchemeDetailRow, tags,
  }),
  create: endpoint({
    method: 'POST', path: `${C}/detail`, summary: '新增收费方案', perm: feesWrite, query: CompanyQuery, body: ChargingSchemeBody,
    response: z.object({ id: z.number() }), tags,
  }),
  update: endpoint({
    method: 'PUT', path: `${C}/detail`, summary: '编辑收费方案', perm: feesWrite, query: CompanyQuery, body: ChargingSchemeUpdateBody,
    response: z.null(), tags,
  }),
  remove: endpoint({
    method: 'DELETE', path: `${C}/detail`, summary: '删除收费方案', perm: feesWrite, query: CompanyQuery, body: SchemeDeleteBody,
    response: z.null(), tags,
  }),
  schemeEnum: endpoint({
    method: 'GET', path: '/yewu/api/sys_companychargecode/SchemeEnum', summary: '收费类别枚举', perm: {},
    response: z.array(z.object({ id: z.number(), name: z.string() })), tags,
  }),
};

export type ChargingSchemeVersion = z.output<typeof ChargingSchemeVersionRow>;
export type ChargingScheme = z.output<typeof ChargingSchemeDetailRow>;
export type ChargingSchemeRow = z.output<typeof ChargingSchemeListRow>;
export type ChargingSchemeOption = z.output<typeof ChargingSchemeOptionRow>;
