import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { CompanyQuery, IdQuery, PageQuery, wireTime, optionalRef } from '../query.ts';
import { listQuerySchema } from '../resource.ts';
import { LOOKUP_KINDS, meterResource, type LookupKind, type PlanOption } from '../resources/device.ts';

// Device service (SPEC §7, /device/api/v1): the rows collectors (gather), meters (device) and focus
// devices answer, their actions beside the five CRUD ones (注册密钥, the list in a body, the allowed
// plans), and the device dictionaries as option lists. Pages: /recordsCollect (采集器档案) and
// /recordsTable (表具档案). The five CRUD endpoints of collector, meter, focus and the platform admins'
// dictionary (deviceLookup) are declared resources (./crud.ts), registered with registerCrud.

/** Pages that read collectors / meters; other pages' own endpoints serve their lists. */
export const collectorRead = { routes: ['recordsCollect', 'recordsTable'] };
export const meterRead = { routes: ['recordsTable'] };
export const collectorOp = (op: string) => ({ routes: ['recordsCollect'], op });
export const meterOp = (op: string) => ({ routes: ['recordsTable'], op });

// ---- inputs ----------------------------------------------------------------------------------------

export interface CollectorInput {
  name: string;
  imei: string;
  plan: number;
  areaId: number;
  simNo: string;
  installAddress: string;
  memo: string;
}

export interface MeterInput {
  name: string;
  kind: number;
  plan: number;
  address: string;
  roomId: number;
  collectorId: number | null;
  imei: string;
  protocolId: number | null;
  baudId: number | null;
  phaseId: number | null;
  gatewayId: number | null;
  portId: number | null;
  brandId: number | null;
  caliberId: number | null;
  typeId: number | null;
  multiplier: string;
  initialReading: string;
  chargingSchemeId: number | null;
  alarmSchemeId: number | null;
  installDate: string | null;
  reportInterval: number;
  status: number;
  memo: string;
}

export interface FocusInput {
  meterId: number;
  memo: string;
}

interface Paging {
  index: number;
  size: number;
  searchArea?: number;
  searchClassify?: number;
}

/** gather/list: the collector resource's search fields */
export interface CollectorListInput extends Paging {
  name?: string;
  imei?: string;
  plan?: number;
  online?: boolean;
}

/** device/list (GET query or POST body): the meter resource's search fields */
export interface MeterListInput extends Paging {
  name?: string;
  kind?: number;
  plan?: number;
  address?: string;
  roomId?: number;
  roomName?: string;
  collectorId?: number;
  online?: boolean;
  status?: number;
}

/** focus/list: the focus resource's search fields */
export interface FocusListInput extends Paging {
  address?: string;
  kind?: number;
}

/** GET device/list (query) and POST device/list (the same filters in a JSON body) */
export const MeterListQuery = listQuerySchema(meterResource);

/** ?id= of one collector, in the company a platform admin picked */
export const DeviceIdQuery = IdQuery.extend(CompanyQuery.shape);

/** The legacy group calls accept any object: they are refused whatever they carry (SPEC §8). */
export const AnyBody = z.record(z.string(), z.unknown()).optional();

// ---- answers ---------------------------------------------------------------------------------------

/** A device dictionary row (通讯协议, 波特率, 相位, …). */
export const LookupInfoRow = z.object({
  id: z.number(),
  kind: z.enum(Object.keys(LOOKUP_KINDS) as [LookupKind, ...LookupKind[]]),
  name: z.string(),
  code: z.string(),
  sort: z.number(),
  memo: z.string(),
});

export const CollectorInfoRow = z.object({
  id: z.number(),
  companyId: z.number(),
  ...optionalRef('area'),
  /** 阳光园区/1号楼/1层 */
  areaPath: z.string().nullable(),
  name: z.string(),
  imei: z.string(),
  plan: z.number(),
  simNo: z.string(),
  installAddress: z.string(),
  online: z.boolean(),
  lastSeenAt: wireTime.nullable(),
  memo: z.string(),
  meterCount: z.number(),
  createdAt: wireTime,
});

/** The registration secret a collector sends (`REG <imei> <secret>`). */
export const CollectorSecretRow = z.object({ id: z.number(), imei: z.string(), secret: z.string() });

export const MeterInfoRow = z.object({
  id: z.number(),
  companyId: z.number(),
  ...optionalRef('room'),
  ...optionalRef('area'),
  /** 阳光园区/1号楼/1层 */
  areaPath: z.string().nullable(),
  ownerName: z.string().nullable(),
  ...optionalRef('collector'),
  collectorImei: z.string().nullable(),
  name: z.string(),
  kind: z.number(),
  plan: z.number(),
  planName: z.string(),
  address: z.string(),
  imei: z.string(),
  protocolId: z.number().nullable(),
  baudId: z.number().nullable(),
  phaseId: z.number().nullable(),
  gatewayId: z.number().nullable(),
  portId: z.number().nullable(),
  brandId: z.number().nullable(),
  caliberId: z.number().nullable(),
  typeId: z.number().nullable(),
  protocolName: z.string().nullable(),
  baudName: z.string().nullable(),
  phaseName: z.string().nullable(),
  gatewayName: z.string().nullable(),
  portName: z.string().nullable(),
  brandName: z.string().nullable(),
  caliberName: z.string().nullable(),
  typeName: z.string().nullable(),
  multiplier: z.string(),
  initialReading: z.string(),
  chargingSchemeId: z.number().nullable(),
  alarmSchemeId: z.number().nullable(),
  installDate: z.string(),
  /** minutes between the meter's own reports (0: by its channel) */
  reportInterval: z.number(),
  status: z.number(),
  online: z.boolean(),
  valveState: z.number().nullable(),
  lastSeenAt: wireTime.nullable(),
  memo: z.string(),
  focused: z.boolean(),
  /** the focus row's id while focused (for 取消关注) */
  focusId: z.number().nullable(),
  createdAt: wireTime,
});

/** A focus row with its meter (focus/detail answers it without the area path). */
const focusFields = {
  id: z.number(),
  meterId: z.number(),
  memo: z.string(),
  address: z.string(),
  meterName: z.string(),
  kind: z.number(),
  plan: z.number(),
  ...optionalRef('room'),
  ...optionalRef('area'),
  online: z.boolean(),
  valveState: z.number().nullable(),
  lastSeenAt: wireTime.nullable(),
  createdAt: wireTime,
};
export const FocusDetailRow = z.object(focusFields);
export const FocusInfoRow = z.object({ ...focusFields, areaPath: z.string().nullable() });

const planOption: z.ZodType<PlanOption> = z.object({ value: z.number(), label: z.string() });
/** The plans a company may use (all of them when its device check is off). */
export const AllowedPlansRow = z.object({
  deviceCheck: z.boolean(),
  collector: z.array(planOption),
  electric: z.array(planOption),
  water: z.array(planOption),
});

// ---- declarations ----------------------------------------------------------------------------------

export const V1 = '/device/api/v1';
export const gatherTags = ['采集器'];
export const meterTags = ['表具'];
export const focusTags = ['关注设备'];
const dictTags = ['设备字典'];

/** A dictionary as options for every signed-in user (SPEC §7). */
const lookupList = (kind: LookupKind) =>
  endpoint({
    method: 'GET', path: `${V1}/${kind}/list`, summary: `${LOOKUP_KINDS[kind]}列表`, perm: {}, response: z.array(LookupInfoRow), tags: dictTags,
  });
/** phase and brand are paged (SPEC §7) */
const lookupPage = (kind: LookupKind) =>
  endpoint({
    method: 'GET', path: `${V1}/${kind}/list`, summary: `${LOOKUP_KINDS[kind]}列表（分页）`, perm: {}, query: PageQuery,
    response: LookupInfoRow, paged: true, tags: dictTags,
  });

/** 采集器 beside its five CRUD endpoints (crudApi.collector): the registration secret. */
export const collectorEndpoints = {
  secret: endpoint({
    method: 'GET', path: `${V1}/gather/secret`, summary: '采集器注册密钥', perm: collectorOp('device.collectorEdit'), query: DeviceIdQuery,
    response: CollectorSecretRow, tags: gatherTags,
  }),
  resetSecret: endpoint({
    method: 'POST', path: `${V1}/gather/secret/reset`, summary: '重置采集器注册密钥', perm: collectorOp('device.collectorEdit'), query: DeviceIdQuery,
    response: CollectorSecretRow, tags: gatherTags,
  }),
};

/** 表具 beside its five CRUD endpoints (crudApi.meter): the list in a body, the allowed plans, the withdrawn groups. */
export const meterEndpoints = {
  /** the same filters and paging (index, size) in a JSON body: a query sent as POST, not audited; answered as a page */
  listByBody: endpoint({
    method: 'POST', path: `${V1}/device/list`, summary: '表具列表（条件在请求体）', perm: { routes: ['recordsTable'] }, action: false, body: MeterListQuery,
    response: z.array(MeterInfoRow), tags: meterTags,
  }),
  plans: endpoint({
    method: 'GET', path: `${V1}/device/plans`, summary: '本单位可用的设备方案', perm: { routes: ['recordsTable', 'recordsCollect'] }, query: CompanyQuery,
    response: AllowedPlansRow, tags: meterTags,
  }),
  /** withdrawn (SPEC §8): always refused with FEATURE_SUSPENDED */
  group: endpoint({
    method: 'POST', path: `${V1}/device/list/group`, summary: '表具分组（已停用）', perm: meterRead, body: AnyBody, response: z.null(), tags: meterTags,
  }),
  group2: endpoint({
    method: 'POST', path: `${V1}/device/list/group2`, summary: '表具分组 2（已停用）', perm: meterRead, body: AnyBody, response: z.null(), tags: meterTags,
  }),
};

/** 设备字典: option lists (phase and brand paged) */
export const deviceEndpoints = {
  protocolList: lookupList('protocol'),
  baudList: lookupList('baud'),
  gatewayList: lookupList('gateway'),
  portList: lookupList('port'),
  caliberList: lookupList('caliber'),
  typeList: lookupList('type'),
  phaseList: lookupPage('phase'),
  brandList: lookupPage('brand'),
};

export type LookupRow = z.output<typeof LookupInfoRow>;
export type CollectorRow = z.output<typeof CollectorInfoRow>;
export type CollectorSecret = z.output<typeof CollectorSecretRow>;
export type MeterRow = z.output<typeof MeterInfoRow>;
export type FocusRow = z.output<typeof FocusInfoRow>;
export type AllowedPlans = z.output<typeof AllowedPlansRow>;
