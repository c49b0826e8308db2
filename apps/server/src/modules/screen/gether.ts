import { PAY_METHODS, warningKindText, yuanToFen } from '@meter/contracts';
import type { Ctx } from '../../http/context.ts';
import { notFound } from '../../http/errors.ts';
import { beijingNow, businessMonth, formatBeijing, startOfBeijingMonth } from '../../time.ts';
import { configOf } from '../company/index.ts';
import * as repo from './gether-repo.ts';

// 区域概况 (/gether): one area's figures in one answer, each read in the user's scope.

const LATEST = 10;

export async function gether(ctx: Ctx, areaId: number) {
  const now = beijingNow().toDate();
  const month = startOfBeijingMonth(now);
  const lastMonth = startOfBeijingMonth(now, -1);
  const nextMonth = startOfBeijingMonth(now, 1);
  const area = await ctx.read((r) => repo.area(r, areaId));
  if (!area) throw notFound('区域');
  const lineFen = yuanToFen((await ctx.tx((tx) => configOf(tx, area.companyId))).arrearsLine);
  return ctx.read(async (tx) => {
    const rooms = await repo.rooms(tx, areaId);
    const balance = await repo.balances(tx, areaId, lineFen);
    const thisUsage = await repo.usage(tx, areaId, month, nextMonth);
    const lastUsage = await repo.usage(tx, areaId, lastMonth, month);
    const payments = await repo.payments(tx, areaId, month, LATEST);
    const alarms = await repo.alarms(tx, areaId, LATEST);
    const methods: Record<string, string> = PAY_METHODS;
    return {
      area: { id: area.id, name: area.name, path: area.path, companyName: area.companyName },
      rooms: { ...rooms, vacant: rooms.total - rooms.occupied },
      devices: await repo.devices(tx, areaId),
      balance: { ...balance, arrearsLineFen: lineFen },
      usage: {
        month: businessMonth(now), electric: thisUsage.electric, water: thisUsage.water, amountFen: thisUsage.amountFen,
        lastElectric: lastUsage.electric, lastWater: lastUsage.water, lastAmountFen: lastUsage.amountFen,
      },
      payments: { ...payments, latest: payments.latest.map((p) => ({ ...p, createdAt: formatBeijing(p.createdAt), payMethodText: methods[p.payMethod] ?? p.payMethod })) },
      alarms: { open: alarms.open, latest: alarms.latest.map((a) => ({ ...a, createdAt: formatBeijing(a.createdAt), kindText: warningKindText(a.kind) })) },
      children: await repo.children(tx, areaId, lineFen),
    };
  });
}
