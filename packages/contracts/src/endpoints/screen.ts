import { z } from 'zod';
import { endpoint } from '../endpoint.ts';
import { CompanyQuery, wireTime } from '../query.ts';

// 大屏可视化 (/screen): one answer with every figure of the dashboard, for the signed-in company (its
// areas, for a user bound to areas) or, for a platform administrator, every company or the one picked
// in the header (searchCompanyID). Quantities are kWh / m³ (settled consumption), money integer 分,
// hours and days in Beijing time.

const Pair = z.object({ electric: z.array(z.number()), water: z.array(z.number()) });

export const ScreenRoomRow = z.object({
  roomId: z.number(),
  roomName: z.string(),
  areaName: z.string(),
  quantity: z.number(),
});

export const ScreenWorkOrderRow = z.object({
  id: z.number(),
  /** 1 业主诉求, 2 平台诉求 */
  kind: z.number(),
  title: z.string(),
  roomName: z.string(),
  status: z.number(),
  statusText: z.string(),
  overdue: z.boolean(),
  createdAt: wireTime,
});

export const ScreenAlarmRow = z.object({
  id: z.number(),
  kind: z.string(),
  kindText: z.string(),
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

const tags = ['大屏可视化'];

export const screenEndpoints = {
  summary: endpoint({
    method: 'GET', path: '/yewu/api/Screen/Summary', summary: '大屏数据', perm: { routes: ['screen'] },
    query: CompanyQuery, response: ScreenSummary, tags,
  }),
};

export type ScreenSummaryData = z.output<typeof ScreenSummary>;
export type ScreenRoom = z.output<typeof ScreenRoomRow>;
export type ScreenWorkOrder = z.output<typeof ScreenWorkOrderRow>;
export type ScreenAlarm = z.output<typeof ScreenAlarmRow>;
