import type { FastifyInstance } from 'fastify';
import { API, deviceLookupResource, LOOKUP_KINDS, type LookupKind } from '@meter/contracts';
import { routes, type Perm } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { IdQuery } from '../../http/paging.ts';
import { deviceLookups } from '../../db/schema/index.ts';
import * as device from './service.ts';
import {
  AnyBody, CollectorBody, CollectorListQuery, CollectorUpdateBody, FocusBody, FocusListQuery, FocusUpdateBody,
  LookupPageQuery, MeterBody, MeterListQuery, MeterUpdateBody,
} from './schema.ts';

// Device service (SPEC §7, /device/api/v1): collectors (gather), meters (device), focus devices and
// the device dictionaries. Pages: /recordsCollect (采集器档案) and /recordsTable (表具档案).

const V1 = '/device/api/v1';

/** Pages that read collectors / meters; other pages' own endpoints serve their lists. */
export const COLLECTOR_READ: Perm = { routes: ['recordsCollect', 'recordsTable'] };
export const METER_READ: Perm = { routes: ['recordsTable'] };
const collectorOp = (op: string): Perm => ({ routes: ['recordsCollect'], op });
const meterOp = (op: string): Perm => ({ routes: ['recordsTable'], op });

export default function deviceRoutes(app: FastifyInstance) {
  const r = routes(app);

  // ---- 采集器 (gather) ----
  let tags = ['采集器'];
  r.get(`${V1}/gather/list`, { summary: '采集器列表', perm: COLLECTOR_READ, query: CollectorListQuery, tags }, ({ query }, ctx) =>
    device.listCollectors(ctx, query));
  r.get(`${V1}/gather`, { summary: '采集器详情', perm: COLLECTOR_READ, query: IdQuery, tags }, ({ query }, ctx) =>
    device.getCollector(ctx, query.id));
  r.post(`${V1}/gather`, { summary: '新增采集器', perm: collectorOp('device.collectorAdd'), body: CollectorBody, tags }, ({ body }, ctx) =>
    device.createCollector(ctx, body));
  r.put(`${V1}/gather`, { summary: '编辑采集器', perm: collectorOp('device.collectorEdit'), body: CollectorUpdateBody, tags }, ({ body }, ctx) =>
    device.updateCollector(ctx, body.id, body));
  r.get(`${V1}/gather/secret`, { summary: '采集器注册密钥', perm: collectorOp('device.collectorEdit'), query: IdQuery, tags }, ({ query }, ctx) =>
    device.getCollectorSecret(ctx, query.id));
  r.post(`${V1}/gather/secret/reset`, { summary: '重置采集器注册密钥', perm: collectorOp('device.collectorEdit'), query: IdQuery, tags }, ({ query }, ctx) =>
    device.resetCollectorSecret(ctx, query.id));
  r.delete(`${V1}/gather`, { summary: '删除采集器', perm: collectorOp('device.collectorDelete'), query: IdQuery, tags }, ({ query }, ctx) =>
    device.deleteCollector(ctx, query.id));

  // ---- 表具 (device) ----
  tags = ['表具'];
  r.get(`${V1}/device/list`, { summary: '表具列表', perm: METER_READ, query: MeterListQuery, tags }, ({ query }, ctx) =>
    device.listMeters(ctx, query));
  r.post(`${V1}/device/list`, { summary: '表具列表（条件在请求体）', perm: METER_READ, body: MeterListQuery, action: false, tags }, ({ body }, ctx) =>
    device.listMeters(ctx, body));
  r.get(`${V1}/device/plans`, { summary: '本单位可用的设备方案', perm: { routes: ['recordsTable', 'recordsCollect'] }, tags }, (_i, ctx) =>
    device.allowedPlans(ctx));
  r.get(`${V1}/device`, { summary: '表具详情', perm: METER_READ, query: IdQuery, tags }, ({ query }, ctx) =>
    device.getMeter(ctx, query.id));
  r.post(`${V1}/device`, { summary: '新增表具', perm: meterOp('device.add'), body: MeterBody, tags }, ({ body }, ctx) =>
    device.createMeter(ctx, body));
  r.put(`${V1}/device`, { summary: '编辑表具', perm: meterOp('device.edit'), body: MeterUpdateBody, tags }, ({ body }, ctx) =>
    device.updateMeter(ctx, body.id, body));
  r.delete(`${V1}/device`, { summary: '删除表具', perm: meterOp('device.delete'), query: IdQuery, tags }, ({ query }, ctx) =>
    device.deleteMeter(ctx, query.id));
  r.post(`${V1}/device/list/group`, { summary: '表具分组（已停用）', perm: METER_READ, body: AnyBody, tags }, () =>
    device.groupSuspended());
  r.post(`${V1}/device/list/group2`, { summary: '表具分组 2（已停用）', perm: METER_READ, body: AnyBody, tags }, () =>
    device.groupSuspended());

  // ---- 关注设备 (focus) ----
  tags = ['关注设备'];
  r.get(`${V1}/focus/list`, { summary: '关注设备列表', perm: METER_READ, query: FocusListQuery, tags }, ({ query }, ctx) =>
    device.listFocus(ctx, query));
  r.get(`${V1}/focus`, { summary: '关注设备详情', perm: METER_READ, query: IdQuery, tags }, ({ query }, ctx) =>
    device.getFocus(ctx, query.id));
  r.post(`${V1}/focus`, { summary: '关注表具', perm: METER_READ, body: FocusBody, tags }, ({ body }, ctx) =>
    device.createFocus(ctx, body));
  r.put(`${V1}/focus`, { summary: '编辑关注设备', perm: METER_READ, body: FocusUpdateBody, tags }, ({ body }, ctx) =>
    device.updateFocus(ctx, body.id, body));
  r.delete(`${V1}/focus`, { summary: '取消关注', perm: METER_READ, query: IdQuery, tags }, ({ query }, ctx) =>
    device.deleteFocus(ctx, query.id));

  // ---- 设备字典: option lists for every signed-in user (phase and brand paged, SPEC §7) ----
  tags = ['设备字典'];
  const plain: LookupKind[] = ['protocol', 'baud', 'gateway', 'port', 'caliber', 'type'];
  for (const kind of plain) {
    r.get(`${V1}/${kind}/list`, { summary: `${LOOKUP_KINDS[kind]}列表`, perm: {}, tags }, (_i, ctx) =>
      device.lookupList(ctx, kind));
  }
  for (const kind of ['phase', 'brand'] as LookupKind[]) {
    r.get(`${V1}/${kind}/list`, { summary: `${LOOKUP_KINDS[kind]}列表（分页）`, perm: {}, query: LookupPageQuery, tags }, ({ query }, ctx) =>
      device.lookupList(ctx, kind, query));
  }
  // platform admins maintain the dictionaries
  registerCrud(app, {
    def: deviceLookupResource,
    endpoints: API.deviceLookup,
    table: deviceLookups,
    tenancy: 'platform',
    beforeWrite: device.lookupHooks.beforeWrite,
    beforeDelete: device.lookupHooks.beforeDelete,
    label: (row) => `设备字典 ${String(row.name ?? row.id)}`,
  });
}
