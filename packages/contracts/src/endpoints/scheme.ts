import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, wireTime } from '../query.ts';
import { CHARGING_SCHEME_OP } from '../resources/scheme.ts';
import { PRICE_MODES, type PriceMode } from '../resources/pricing.ts';

// 收费方案 (/yewu/api/chargingscheme, /recordsFees): the pickers' lists of schemes in use, the answers of
// the charging schemes with their price versions, and the charge-code category list. The schemes' five
// CRUD endpoints, the charge codes and the alarm schemes are declared resources (./crud.ts).
// Money: 元 strings on the wire (resources/scheme.ts).

export const schemeTags = ['收费与报警方案'];
const tags = schemeTags;
// pickers on the meter archive (/recordsTable) read schemes too
export const schemeRead = { routes: ['recordsFees', 'recordsTable'] };
export const schemeWrite = { routes: ['recordsFees'], op: CHARGING_SCHEME_OP };

/** GetListByType?type: 1 电费, 2 水费 (the SchemeEnum numbers). */
export const SchemeTypeQuery = CompanyQuery.extend({
  type: num(z.number({ error: '请指定方案类型' }).int().refine((v) => v === 1 || v === 2, '方案类型须为 1（电费）或 2（水费）'), '请指定方案类型'),
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

export const SCHEME_PATH = '/yewu/api/chargingscheme';
const C = SCHEME_PATH;

/** besides the schemes' five (the registry's `scheme` group, ./crud.ts) */
export const schemeEndpoints = {
  using: endpoint({
    method: 'GET', path: `${C}/GetAllUsingList`, summary: '在用收费方案（全部）', perm: schemeRead, query: CompanyQuery,
    response: z.array(ChargingSchemeOptionRow), tags,
  }),
  byType: endpoint({
    method: 'GET', path: `${C}/GetListByType`, summary: '按类型取在用收费方案', perm: schemeRead, query: SchemeTypeQuery,
    response: z.array(ChargingSchemeOptionRow), tags,
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
