import { APPEAL_STATUSES, warningKindText } from '@meter/contracts';
import type { Ctx } from '../../http/context.ts';
import type { Reader } from '../../db/client.ts';
import { now } from '../../clock.ts';
import { addDays, businessDate, startOfBeijingDay, startOfBeijingMonth } from '../../time.ts';
import * as repo from './repo.ts';
import type { CreditWatch } from './live.ts';

// 大屏可视化: every figure of /screen in one answer. The days before today change rarely (a late
// reading settled afterwards), so their sums are kept per scope for HISTORY_TTL_MS; today's are read
// on every call. A call also keeps the credit watch running (live.ts), which tells the screens of a
// company about each top-up over the websocket.

export const HISTORY_TTL_MS = 10 * 60_000;
const HISTORY_MAX = 200;
const LIST_LIMIT = 20;
const TOP = 10;
const ELECTRIC = 1;
const WATER = 2;

export const CHANNELS: Record<string, string> = { cash: '现金', wechat: '微信', alipay: '支付宝', bank: '银行' };

interface History {
  at: number;
  days: repo.Consumption[];
  rooms: repo.RoomConsumption[];
}
const history = new Map<string, History>();

/** Forget the cached days (tests; a deployment never needs it). */
export function clearScreenHistory() {
  history.clear();
}

const round = (v: number, digits = 2) => Math.round(v * 10 ** digits) / 10 ** digits;
const daysIn = (monthStart: Date) => Number(businessDate(addDays(startOfBeijingMonth(monthStart, 1), -1)).slice(8));

async function pastDays(r: Reader, key: string, f: repo.ScreenFilter, lastMonth: Date, month: Date, today: Date): Promise<History> {
  const k = `${key}|${businessDate(today)}`;
  const hit = history.get(k);
  if (hit && Date.now() - hit.at < HISTORY_TTL_MS) return hit;
  const h: History = {
    at: Date.now(),
    days: await repo.consumption(r, f, lastMonth, today, false),
    rooms: month < today ? await repo.roomConsumption(r, f, month, today) : [],
  };
  if (history.size >= HISTORY_MAX) history.delete(history.keys().next().value!);
  history.set(k, h);
  return h;
}

function series(rows: repo.Consumption[], kind: number, length: number, slot: (r: repo.Consumption) => number | null): number[] {
  const out = new Array<number>(length).fill(0);
  for (const r of rows) {
    if (r.kind !== kind) continue;
    const i = slot(r);
    if (i != null && i >= 0 && i < length) out[i] += r.quantity;
  }
  return out.map((v) => round(v));
}

async function topRooms(r: Reader, rows: repo.RoomConsumption[], kind: number) {
  const sums = new Map<number, number>();
  for (const x of rows) if (x.kind === kind) sums.set(x.roomId, (sums.get(x.roomId) ?? 0) + x.quantity);
  const top = [...sums].sort((a, b) => b[1] - a[1] || a[0] - b[0]).slice(0, TOP);
  const names = await repo.roomNames(r, top.map(([id]) => id));
  return top.map(([roomId, q]) => ({ roomId, roomName: names.get(roomId)?.roomName ?? '', areaName: names.get(roomId)?.areaName ?? '', quantity: round(q) }));
}

export async function summary(ctx: Ctx, watch?: CreditWatch) {
  watch?.touch();
  const at = now();
  const today = startOfBeijingDay(at);
  const tomorrow = addDays(today, 1);
  const month = startOfBeijingMonth(at);
  const lastMonth = startOfBeijingMonth(at, -1);
  const { scope } = ctx;
  const key = JSON.stringify([scope.companyId, scope.allCompanies, scope.areaIds]);
  return ctx.read(async (r) => {
    const companies = await repo.companyIds(r, scope.allCompanies ? null : scope.companyId);
    const f: repo.ScreenFilter = { companyIds: companies.ids, areaRestricted: scope.areaIds != null, areaIds: scope.areaIds };
    const past = await pastDays(r, key, f, lastMonth, month, today);
    const hours = await repo.consumption(r, f, today, tomorrow, true);
    const roomsToday = await repo.roomConsumption(r, f, today, tomorrow);
    const devices = await repo.devices(r, f);
    const supply = await repo.supplyToday(r, f, today);
    const paid = await repo.paymentsSince(r, f, today);
    const appeals = await repo.openAppeals(r, f, at, LIST_LIMIT);
    const warnings = await repo.openWarnings(r, f, LIST_LIMIT);
    const arrears = await repo.arrears(r, f);

    const thisKey = businessDate(month).slice(0, 7);
    const dayOfMonth = Number(businessDate(at).slice(8));
    const lastKey = businessDate(lastMonth).slice(0, 7);
    const days = [...past.days, ...hours];
    const dayOf = (prefix: string) => (x: repo.Consumption) => (x.day.startsWith(prefix) ? Number(x.day.slice(8)) - 1 : null);
    const monthRows = [...past.rooms, ...roomsToday];
    const byChannel = Object.keys(CHANNELS).map((channel) => {
      const p = paid.find((x) => x.channel === channel);
      return { channel, label: CHANNELS[channel], amountFen: p?.amountFen ?? 0, count: p?.count ?? 0 };
    });
    return {
      generatedAt: at,
      scopeName: companies.name,
      hourly: {
        electric: series(hours, ELECTRIC, 24, (x) => x.hour),
        water: series(hours, WATER, 24, (x) => x.hour),
      },
      thisMonth: {
        electric: series(days, ELECTRIC, dayOfMonth, dayOf(thisKey)),
        water: series(days, WATER, dayOfMonth, dayOf(thisKey)),
      },
      lastMonth: {
        electric: series(days, ELECTRIC, daysIn(lastMonth), dayOf(lastKey)),
        water: series(days, WATER, daysIn(lastMonth), dayOf(lastKey)),
      },
      topRooms: { electric: await topRooms(r, monthRows, ELECTRIC), water: await topRooms(r, monthRows, WATER) },
      devices: {
        collectors: { total: devices.collectors, online: devices.collectorsOnline },
        electric: { total: devices.electric, online: devices.electricOnline },
        water: { total: devices.water, online: devices.waterOnline },
      },
      supply: { cutToday: supply.cut, restoredToday: supply.restored, offNow: devices.offNow },
      payments: {
        totalFen: byChannel.reduce((s, c) => s + c.amountFen, 0),
        count: byChannel.reduce((s, c) => s + c.count, 0),
        byChannel,
      },
      workOrders: {
        open: appeals.open,
        overdue: appeals.overdue,
        latest: appeals.latest.map((a) => ({
          id: a.id, kind: a.kind, title: a.title, roomName: a.roomName, status: a.status, statusText: APPEAL_STATUSES[a.status] ?? '',
          overdue: a.deadlineAt < at, createdAt: a.createdAt,
        })),
      },
      alarms: {
        open: warnings.byKind.reduce((s, k) => s + k.count, 0),
        byKind: warnings.byKind.map((k) => ({ ...k, kindText: warningKindText(k.kind) })),
        latest: warnings.latest.map((w) => ({ ...w, kindText: warningKindText(w.kind) })),
      },
      arrears,
    };
  });
}
