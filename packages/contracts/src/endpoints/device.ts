import { z, type ZodType } from 'zod';
import { endpoint, type EndpointPerm } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, IdQuery, PageQuery, wireTime, optionalRef } from '../query.ts';
import { formSchema, listQuerySchema, typed } from '../resource.ts';
import {
  LOOKUP_KINDS, collectorResource, focusResource, meterResource, type LookupKind, type PlanOption,
} from '../resources/device.ts';

// Device service (SPEC §7, /device/api/v1): collectors (gather), meters (device), focus devices, the
// company's allowed device plans and the device dictionaries as option lists. Pages: /recordsCollect
// (采集器档案) and /recordsTable (表具档案). The platform admins' dictionary CRUD (lookup) is registered
// from its declared resource (http/crud.ts).

/** Pages that read collectors / meters; other pages' own endpoints serve their lists. */
const collectorRead = { routes: ['recordsCollect', 'recordsTable'] };
const meterRead = { routes: ['recordsTable'] };
const collectorOp = (op: string) => ({ routes: ['recordsCollect'], op });
const meterOp = (op: string) => ({ routes: ['recordsTable'], op });

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

const id = num(z.number().int().positive());

const collectorForm = formSchema(collectorResource);
export const CollectorBody = typed<CollectorInput>(collectorForm);
export const CollectorUpdateBody = typed<CollectorInput & { id: number }>(collectorForm.extend({ id }));
/** the resource's search fields, read as CollectorListInput (a ZodObject: paged declarations check its shape) */
export const CollectorListQuery = listQuerySchema(collectorResource);

const meterForm = formSchema(meterResource);
export const MeterBody = typed<MeterInput>(meterForm);
export const MeterUpdateBody = typed<MeterInput & { id: number }>(meterForm.extend({ id }));
/** GET device/list (query) and POST device/list (the same filters in a JSON body) */
export const MeterListQuery = listQuerySchema(meterResource);

const focusForm = formSchema(focusResource);
export const FocusBody = typed<FocusInput>(focusForm);
export const FocusUpdateBody = typed<FocusInput & { id: number }>(focusForm.extend({ id }));
export const FocusListQuery = listQuerySchema(focusResource);

/** ?id= of one collector, meter or focus row, in the company a platform admin picked */
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

const created = z.object({ id: z.number() });

// ---- declarations ----------------------------------------------------------------------------------

const V1 = '/device/api/v1';
const gatherTags = ['采集器'];
const meterTags = ['表具'];
const focusTags = ['关注设备'];
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

/**
 * One device kind's list (paged), detail, create, update and delete under `${V1}/${seg}`: the id as
 * ?id=, the company as ?companyId= on writes. Summaries are `${name}列表` … `删除${name}` unless given.
 */
function deviceCrud<LQ extends ZodType, LR extends ZodType, DR extends ZodType, CB extends ZodType, UB extends ZodType>(d: {
  seg: string; name: string; tags: string[]; read: EndpointPerm; writes: [add: EndpointPerm, edit: EndpointPerm, remove: EndpointPerm];
  listQuery: LQ; row: LR; detailRow: DR; body: CB; updateBody: UB; createSummary?: string; removeSummary?: string;
}) {
  const path = `${V1}/${d.seg}`;
  const [add, edit, remove] = d.writes;
  return {
    list: endpoint({ method: 'GET', path: `${path}/list`, summary: `${d.name}列表`, perm: d.read, query: d.listQuery, response: d.row, paged: true, tags: d.tags }),
    detail: endpoint({ method: 'GET', path, summary: `${d.name}详情`, perm: d.read, query: DeviceIdQuery, response: d.detailRow, tags: d.tags }),
    create: endpoint({
      method: 'POST', path, summary: d.createSummary ?? `新增${d.name}`, perm: add, query: CompanyQuery, body: d.body, response: created, tags: d.tags,
    }),
    update: endpoint({
      method: 'PUT', path, summary: `编辑${d.name}`, perm: edit, query: CompanyQuery, body: d.updateBody, response: z.null(), tags: d.tags,
    }),
    remove: endpoint({
      method: 'DELETE', path, summary: d.removeSummary ?? `删除${d.name}`, perm: remove, query: DeviceIdQuery, response: z.null(), tags: d.tags,
    }),
  };
}

const gather = deviceCrud({
  seg: 'gather', name: '采集器', tags: gatherTags, read: collectorRead,
  writes: [collectorOp('device.collectorAdd'), collectorOp('device.collectorEdit'), collectorOp('device.collectorDelete')],
  listQuery: CollectorListQuery, row: CollectorInfoRow, detailRow: CollectorInfoRow, body: CollectorBody, updateBody: CollectorUpdateBody,
});
const meter = deviceCrud({
  seg: 'device', name: '表具', tags: meterTags, read: meterRead,
  writes: [meterOp('device.add'), meterOp('device.edit'), meterOp('device.delete')],
  listQuery: MeterListQuery, row: MeterInfoRow, detailRow: MeterInfoRow, body: MeterBody, updateBody: MeterUpdateBody,
});
// anyone who may read meters keeps their own focus list
const focus = deviceCrud({
  seg: 'focus', name: '关注设备', tags: focusTags, read: meterRead, writes: [meterRead, meterRead, meterRead],
  listQuery: FocusListQuery, row: FocusInfoRow, detailRow: FocusDetailRow, body: FocusBody, updateBody: FocusUpdateBody,
  createSummary: '关注表具', removeSummary: '取消关注',
});

export const deviceEndpoints = {
  // ---- 采集器 (gather) ----
  collectors: gather.list,
  collector: gather.detail,
  createCollector: gather.create,
  updateCollector: gather.update,
  collectorSecret: endpoint({
    method: 'GET', path: `${V1}/gather/secret`, summary: '采集器注册密钥', perm: collectorOp('device.collectorEdit'), query: DeviceIdQuery,
    response: CollectorSecretRow, tags: gatherTags,
  }),
  resetCollectorSecret: endpoint({
    method: 'POST', path: `${V1}/gather/secret/reset`, summary: '重置采集器注册密钥', perm: collectorOp('device.collectorEdit'), query: DeviceIdQuery,
    response: CollectorSecretRow, tags: gatherTags,
  }),
  deleteCollector: gather.remove,

  // ---- 表具 (device) ----
  meters: meter.list,
  /** the same filters and paging (index, size) in a JSON body: a query sent as POST, not audited; answered as a page */
  metersByBody: endpoint({
    method: 'POST', path: `${V1}/device/list`, summary: '表具列表（条件在请求体）', perm: { routes: ['recordsTable'] }, action: false, body: MeterListQuery,
    response: z.array(MeterInfoRow), tags: meterTags,
  }),
  plans: endpoint({
    method: 'GET', path: `${V1}/device/plans`, summary: '本单位可用的设备方案', perm: { routes: ['recordsTable', 'recordsCollect'] }, query: CompanyQuery,
    response: AllowedPlansRow, tags: meterTags,
  }),
  meter: meter.detail,
  createMeter: meter.create,
  updateMeter: meter.update,
  deleteMeter: meter.remove,
  /** withdrawn (SPEC §8): always refused with FEATURE_SUSPENDED */
  group: endpoint({
    method: 'POST', path: `${V1}/device/list/group`, summary: '表具分组（已停用）', perm: meterRead, body: AnyBody, response: z.null(), tags: meterTags,
  }),
  group2: endpoint({
    method: 'POST', path: `${V1}/device/list/group2`, summary: '表具分组 2（已停用）', perm: meterRead, body: AnyBody, response: z.null(), tags: meterTags,
  }),

  // ---- 关注设备 (focus) ----
  focusList: focus.list,
  focus: focus.detail,
  createFocus: focus.create,
  updateFocus: focus.update,
  deleteFocus: focus.remove,

  // ---- 设备字典: option lists (phase and brand paged) ----
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
