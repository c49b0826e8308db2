import type { FastifyInstance } from 'fastify';
import { routes } from '../../http/routes.ts';
import type { ControlApi } from '../control/index.ts';
import * as S from './schema.ts';
import * as svc from './service.ts';

// Metering (SPEC §2 control, records and archive pages): the meter list of the control pages, 人工抄表,
// 保电/保水, 定时阀控 and the meter-parameter log. Reading, command, task, report and warning lists are
// the control module's (device/reading/list, device/order/list, device/read/task/list, …).
const V1 = '/device/api/v1';

/** Pages that pick meters to act on. */
export const CONTROL_PAGES = ['casualCopy', 'longRange', 'peopleCasualCopy', 'timeChangeControl', 'keepElectric', 'keepWater', 'constant', 'advConfig'];
const PROTECT_PAGES = ['keepElectric', 'keepWater'];

export default function meteringRoutes(app: FastifyInstance, api: ControlApi) {
  const r = routes(app);
  let tags = ['表具控制'];
  r.get(`${V1}/control/meter/list`, { summary: '控制页面的表具列表（读数、通断、保电状态）', perm: { routes: CONTROL_PAGES }, query: S.ControlMeterQuery, tags }, ({ query }, ctx) =>
    svc.controlMeters(ctx, query));

  tags = ['人工抄表'];
  r.post(`${V1}/manual/reading`, { summary: '人工抄表（与上次读数核对；换表/纠正须填原因）', perm: { routes: ['peopleCasualCopy'], op: 'device.manualRead' }, body: S.ManualReadingBody, action: '人工抄表', tags }, ({ body }, ctx) =>
    svc.manualReading(ctx, api.bus, body));

  tags = ['保电保水'];
  r.post(`${V1}/protect/start`, { summary: '开启保电/保水（按表具、房间或区域）', perm: { routes: PROTECT_PAGES, op: 'device.protect' }, body: S.ProtectStartBody, tags }, ({ body }, ctx) =>
    svc.protectStart(ctx, api, body));
  r.post(`${V1}/protect/end`, { summary: '解除保电/保水（按表具、房间或区域）', perm: { routes: PROTECT_PAGES, op: 'device.protect' }, body: S.ProtectEndBody, tags }, ({ body }, ctx) =>
    svc.protectEnd(ctx, api, body));
  r.get(`${V1}/protect/list`, { summary: '保电/保水列表与记录', perm: { routes: [...PROTECT_PAGES, 'notesKeepElectric', 'notesKeepWater'] }, query: S.ProtectListQuery, tags }, ({ query }, ctx) =>
    svc.protections(ctx, query));

  tags = ['定时阀控'];
  const timedWrite = { routes: ['timeChangeControl'], op: 'device.timedValve' };
  r.get(`${V1}/timed/list`, { summary: '定时阀控任务列表', perm: { routes: ['timeChangeControl'] }, query: S.TimedListQuery, tags }, ({ query }, ctx) =>
    svc.timedList(ctx, query));
  r.post(`${V1}/timed`, { summary: '新增定时阀控', perm: timedWrite, body: S.TimedCreateBody, tags }, ({ body }, ctx) =>
    svc.timedCreate(ctx, body));
  r.put(`${V1}/timed`, { summary: '编辑定时阀控', perm: timedWrite, body: S.TimedUpdateBody, tags }, ({ body }, ctx) =>
    svc.timedUpdate(ctx, body));
  r.post(`${V1}/timed/enable`, { summary: '启用/停用定时阀控', perm: timedWrite, body: S.TimedEnableBody, tags }, ({ body }, ctx) =>
    svc.timedEnable(ctx, body));
  r.delete(`${V1}/timed`, { summary: '删除定时阀控', perm: timedWrite, body: S.TimedDeleteBody, tags }, ({ body }, ctx) =>
    svc.timedDelete(ctx, body));

  tags = ['表具参数'];
  r.get(`${V1}/config/list`, { summary: '表具参数读取/设置记录', perm: { routes: ['notesConfig', 'constant', 'advConfig'] }, query: S.ConfigListQuery, tags }, ({ query }, ctx) =>
    svc.configs(ctx, query));
}
