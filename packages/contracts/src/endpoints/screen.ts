import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { num } from '../input.ts';
import { CompanyQuery, wireTime, ref, coded } from '../query.ts';

// 大屏可视化 (/screen): one answer with every figure of the dashboard, for the signed-in company (its
// areas, for a user bound to areas) or, for a platform administrator, every company or the one picked
// in the header (searchCompanyID). Quantities are kWh / m³ (settled consumption), money integer 分,
// hours and days in Beijing time.

const Pair = z.object({ electric: z.array(z.number()), water: z.array(z.number()) });

export const ScreenRoomRow = z.object({
  ...ref('room'),
  areaName: z.string(),
  quantity: z.number(),
});

export const ScreenWorkOrderRow = z.object({
  id: z.number(),
  /** 1 业主诉求, 2 平台诉求 */
  kind: z.number(),
  title: z.string(),
  roomName: z.string(),
  ...coded('status', z.number()),
  overdue: z.boolean(),
  createdAt: wireTime,
});

export const ScreenAlarmRow = z.object({
  id: z.number(),
  ...coded('kind', z.string()),
  device: z.string(),
  areaName: z.string(),
  createdAt: wireTime,
});

const Online = z.object({ total: z.number(), online: z.number() });

export const ScreenSummary = z.object({
  generatedAt: wireTime,
  /** the company shown, or 全部单位 */
  scopeName: z.string(),
  /** today, 24 values each (index = Beijing hour) */
  hourly: Pair,
  /** this month up to today and last month whole, by day (index = day − 1) */
  thisMonth: Pair,
  lastMonth: Pair,
  /** this month's largest consumers, 10 each */
  topRooms: z.object({ electric: z.array(ScreenRoomRow), water: z.array(ScreenRoomRow) }),
  devices: z.object({ collectors: Online, electric: Online, water: Online }),
  /** 今日断电/关阀 and 复电/开阀 that succeeded; meters whose supply is off now */
  supply: z.object({ cutToday: z.number(), restoredToday: z.number(), offNow: z.number() }),
  /** today's top-ups received (现金, 微信, 支付宝, 银行) */
  payments: z.object({
    totalFen: z.number(),
    count: z.number(),
    byChannel: z.array(z.object({ channel: z.string(), label: z.string(), amountFen: z.number(), count: z.number() })),
  }),
  /** appeals 待受理 / 处理中, the newest first (at most 20) */
  workOrders: z.object({ open: z.number(), overdue: z.number(), latest: z.array(ScreenWorkOrderRow) }),
  /** open device warnings, the newest first (at most 20) */
  alarms: z.object({
    open: z.number(),
    byKind: z.array(z.object({ kind: z.string(), kindText: z.string(), count: z.number() })),
    latest: z.array(ScreenAlarmRow),
  }),
  /** owners whose electricity or water wallet is below zero (and the sum owed), or at an alarm level */
  arrears: z.object({ owners: z.number(), owedFen: z.number(), lowOwners: z.number() }),
});

// 区域概况 (/gether): one area and everything below it — rooms, devices and how many are online,
// balances and arrears (below the company's 欠费线, sys_config), this month's usage against last
// month's, the latest payments and open device alarms, and the child areas with their own counts.
// The area must be visible to the user (area-bound users see their areas only).

export const GetherQuery = z.object({
  areaId: num(z.number({ error: '请选择区域' }).int().positive('请选择区域'), '请选择区域'),
});

export const GetherPaymentRow = z.object({
  id: z.number(),
  roomName: z.string(),
  ownerName: z.string(),
  amountFen: z.number(),
  ...coded('payMethod', z.string()),
  createdAt: wireTime,
});

export const GetherChildRow = z.object({
  id: z.number(),
  name: z.string(),
  rooms: z.number(),
  meters: z.number(),
  online: z.number(),
  arrearsRooms: z.number(),
});

export const GetherSummary = z.object({
  area: z.object({ id: z.number(), name: z.string(), path: z.string(), companyName: z.string() }),
  rooms: z.object({ total: z.number(), occupied: z.number(), vacant: z.number() }),
  devices: z.object({ collectors: Online, electric: Online, water: Online, offNow: z.number() }),
  balance: z.object({
    electricFen: z.number(),
    waterFen: z.number(),
    /** the company's 欠费线 (sys_config arrearsLine) in 分 */
    arrearsLineFen: z.number(),
    arrearsRooms: z.number(),
    /** how far the rooms in arrears are below the line, summed (分) */
    arrearsFen: z.number(),
  }),
  /** settled consumption (kWh, m³) and amounts (分), this month and last */
  usage: z.object({
    month: z.string(),
    electric: z.number(),
    water: z.number(),
    amountFen: z.number(),
    lastElectric: z.number(),
    lastWater: z.number(),
    lastAmountFen: z.number(),
  }),
  payments: z.object({ monthFen: z.number(), monthCount: z.number(), latest: z.array(GetherPaymentRow) }),
  alarms: z.object({ open: z.number(), latest: z.array(ScreenAlarmRow) }),
  children: z.array(GetherChildRow),
});

const tags = ['大屏可视化'];

export const screenEndpoints = {
  summary: endpoint({
    method: 'GET', path: '/yewu/api/Screen/Summary', summary: '大屏数据', perm: { routes: ['screen'] },
    query: CompanyQuery, response: ScreenSummary, tags,
  }),
  gether: endpoint({
    method: 'GET', path: '/yewu/api/Area/Gether', summary: '区域概况', perm: {}, query: GetherQuery, response: GetherSummary, tags: ['区域'],
  }),
};

export type ScreenSummaryData = z.output<typeof ScreenSummary>;
export type ScreenRoom = z.output<typeof ScreenRoomRow>;
export type ScreenWorkOrder = z.output<typeof ScreenWorkOrderRow>;
export type ScreenAlarm = z.output<typeof ScreenAlarmRow>;
export type GetherData = z.output<typeof GetherSummary>;
export type GetherPayment = z.output<typeof GetherPaymentRow>;
export type GetherChild = z.output<typeof GetherChildRow>;
