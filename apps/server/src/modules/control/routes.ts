import type { FastifyInstance } from 'fastify';
import { IdQuery } from '../../http/paging.ts';
import { routes } from '../../http/routes.ts';
import * as S from './schema.ts';
import { reviewReading } from './review.ts';
import * as svc from './service.ts';
import type { ControlApi } from './service.ts';

// Device control (SPEC §7 device service): commands, readings, read tasks, exceptions.
const V1 = '/device/api/v1';

const VALVE_PAGES = ['longRange', 'casualCopy', 'recordsTable', 'keepElectric', 'keepWater'];
const CONFIG_PAGES = ['constant', 'advConfig', 'recordsTable', 'notesConfig'];
const WARN_PAGES = ['warnElectricOff', 'warnWaterOff', 'warnElectricError', 'warnWaterValveError', 'warnElectricRateError', 'warnCopyReadError', 'deviceNoRead', 'home'];
const READ_PAGES = ['casualCopy', 'recordsTable', 'longRange'];
/** Marking warnings handled is a write: a warning page (not the always-allowed home) and its own operation key. */
export const DEAL = { routes: WARN_PAGES.filter((k) => k !== 'home'), op: 'device.edit' };

export default function controlRoutes(app: FastifyInstance, api: ControlApi) {
  const r = routes(app);
  const tags = ['设备控制'];

  // ---- commands ------------------------------------------------------------------------------
  r.post(`${V1}/device/order/open`, { summary: '合闸/拉闸（开阀/关阀）', perm: { routes: VALVE_PAGES, op: 'device.valve' }, body: S.OpenBody, tags }, ({ body }, ctx) =>
    svc.valve(ctx, api, body));
  r.post(`${V1}/device/order/limit`, { summary: '透支限额下发', perm: { routes: [...VALVE_PAGES, ...CONFIG_PAGES], op: 'device.overdraft' }, body: S.LimitBody, tags }, ({ body }, ctx) =>
    svc.limit(ctx, api, body));
  r.post(`${V1}/device/order/update/no`, { summary: '修改表号', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, body: S.UpdateNoBody, tags }, ({ body }, ctx) =>
    svc.updateNo(ctx, api, body));
  r.post(`${V1}/device/order/read`, { summary: '随机抄表（按表具）', perm: { routes: READ_PAGES, op: 'device.readEnergy' }, body: S.ReadBody, tags }, ({ body }, ctx) =>
    svc.read(ctx, api, body));
  r.post(`${V1}/device/order/time/sync`, { summary: '校时', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, body: S.IdBody, tags }, ({ body }, ctx) =>
    svc.timeSync(ctx, api, body.id));
  r.post(`${V1}/device/order/lora/list`, { summary: 'LoRa 表具列表（含最近参数）', perm: { routes: CONFIG_PAGES }, body: S.LoraListBody, action: '查询LoRa表具', tags }, ({ body }, ctx) =>
    svc.loraList(ctx, body));
  r.post(`${V1}/device/order/lora/config/read`, { summary: 'LoRa 表参数读取', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, query: IdQuery, tags }, ({ query }, ctx) =>
    svc.configRead(ctx, api, query.id));
  r.post(`${V1}/device/order/lora/config/set`, { summary: 'LoRa 表参数设置', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, body: S.ConfigSetBody, tags }, ({ body }, ctx) =>
    svc.configSet(ctx, api, body, 'lora'));
  r.post(`${V1}/device/order/nb/config/set`, { summary: 'NB 表参数设置', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, body: S.ConfigSetBody, tags }, ({ body }, ctx) =>
    svc.configSet(ctx, api, body, 'nb'));
  r.post(`${V1}/device/order/config/set`, { summary: '表具参数设置', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, body: S.ConfigSetBody, tags }, ({ body }, ctx) =>
    svc.configSet(ctx, api, body));
  r.post(`${V1}/device/read/config`, { summary: '表具参数读取', perm: { routes: CONFIG_PAGES, op: 'device.constant' }, body: S.IdOrIdsBody, tags }, ({ body }, ctx) =>
    svc.configReadMany(ctx, api, body));
  r.get(`${V1}/device/order/list`, { summary: '指令记录（阀控记录）', perm: { routes: ['notesControl', 'notesElectricity', 'notesConfig', 'longRange', 'casualCopy', 'task'] }, query: S.CommandListQuery, tags }, ({ query }, ctx) =>
    svc.listCommands(ctx, query));
  r.get(`${V1}/device/order`, { summary: '指令详情', perm: { routes: ['notesControl', 'notesElectricity', 'notesConfig', 'longRange', 'casualCopy', 'task', 'constant', 'advConfig'] }, query: IdQuery, tags }, ({ query }, ctx) =>
    svc.getCommand(ctx, query.id));

  // ---- readings and reading tasks ------------------------------------------------------------
  r.get(`${V1}/device/read/task/list`, { summary: '抄表任务列表', perm: { routes: ['task', 'casualCopy', 'copyLog'] }, query: S.ReadTaskQuery, tags }, ({ query }, ctx) =>
    svc.readTasks(ctx, query));
  r.get(`${V1}/device/read/fail/list`, { summary: '连续抄表失败的表具', perm: { routes: WARN_PAGES }, query: S.FailListQuery, tags }, ({ query }, ctx) =>
    svc.readFails(ctx, query));
  r.get(`${V1}/device/read/unread/list`, { summary: '未抄读的表具', perm: { routes: WARN_PAGES }, query: S.UnreadQuery, tags }, ({ query }, ctx) =>
    svc.unread(ctx, query));
  r.get(`${V1}/device/nopower/list`, { summary: '断电/关阀的表具', perm: { routes: WARN_PAGES }, query: S.MeterListQuery, tags }, ({ query }, ctx) =>
    svc.noPower(ctx, query));
  r.get(`${V1}/device/reading/list`, { summary: '抄表记录', perm: { routes: ['notesCopy', 'rgNotesCopy', 'copyLog', 'copyread', 'casualCopy', 'peopleCasualCopy'] }, query: S.ReadingListQuery, tags }, ({ query }, ctx) =>
    svc.readings(ctx, query));
  r.get(`${V1}/device/report/list`, { summary: '设备上报日志（原始报文）', perm: { routes: ['deviceReportLog'] }, query: S.ReportListQuery, tags }, ({ query }, ctx) =>
    svc.reports(ctx, query));
  r.get(`${V1}/user/bill/by/device`, { summary: '房间/业主的表具读数与用量', perm: { routes: ['energy', 'compre', 'copyread', 'recordsRoom', 'recordsOwner', 'billprint'] }, query: S.BillByDeviceQuery, tags }, ({ query }, ctx) =>
    svc.billByDevice(ctx, query));

  // ---- exceptions ----------------------------------------------------------------------------
  r.get(`${V1}/device/unusual/list`, { summary: '设备异常列表', perm: { routes: WARN_PAGES }, query: S.UnusualQuery, tags }, ({ query }, ctx) =>
    svc.unusual(ctx, query));
  r.put(`${V1}/device/unusual/deal`, { summary: '处理设备异常', perm: DEAL, body: S.DealBody, tags }, ({ body }, ctx) =>
    svc.deal(ctx, api, body));
  r.put(`${V1}/device/unusual/reading/accept`, { summary: '接受异常跳变读数（按该读数计费）', perm: { routes: WARN_PAGES, op: 'device.manualRead' }, body: S.ReviewBody, tags }, ({ body }, ctx) =>
    reviewReading(ctx, api, body, true));
  r.put(`${V1}/device/unusual/reading/reject`, { summary: '驳回异常跳变读数（不计费）', perm: { routes: WARN_PAGES, op: 'device.manualRead' }, body: S.ReviewBody, tags }, ({ body }, ctx) =>
    reviewReading(ctx, api, body, false));
  r.get(`${V1}/device/unusual/open/list`, { summary: '阀门/继电器异常（未处理）', perm: { routes: WARN_PAGES }, query: S.UnusualQuery, tags }, ({ query }, ctx) =>
    svc.unusualOpen(ctx, query));
  r.get(`${V1}/device/power/report`, { summary: '功率记录', perm: { routes: ['notesPower', 'home'] }, query: S.PowerReportQuery, tags }, ({ query }, ctx) =>
    svc.powerReport(ctx, query));

  // ---- third-party settings ------------------------------------------------------------------
  r.get(`${V1}/company/third`, { summary: '第三方配置', perm: { routes: ['belongs', 'systemSend'] }, tags }, (_i, ctx) => svc.getThird(ctx));
  r.post(`${V1}/company/third`, { summary: '保存第三方配置', perm: { routes: ['belongs', 'systemSend'] }, body: S.ThirdBody, tags }, ({ body }, ctx) =>
    svc.saveThird(ctx, body as Record<string, unknown>));
}
