import { DEVICE_ORDER_EXCEPTIONS } from '@meter/contracts';
import { now } from '../../clock.ts';
import type { Tx } from '../../db/client.ts';
import * as repo from './device-orders-repo.ts';

// 设备工单: a device exception opens a work order by itself and its clearing closes it. Called by the
// control module in the transaction that opens or closes the warning (control/work-orders.ts), so an
// order exists exactly while its exception is open; the unique partial index on open orders keeps it
// one per device and exception however often, and however concurrently, the exception is reported.
// Assigned by area: the user bound to the device's area (区域权限), else the nearest area above it
// with one, else left 待指派. Due after the company's matching 工单类型 time limit (24 h without one).

const DEFAULT_HOURS = 24;

export interface DeviceException {
  companyId: number;
  meterId: number | null;
  collectorId: number | null;
  areaId: number | null;
  kind: string;
}

/** Opens the orders of these newly opened exceptions (other kinds are ignored); answers how many opened. */
export async function openDeviceOrders(tx: Tx, rows: DeviceException[]): Promise<number> {
  let opened = 0;
  for (const w of rows) {
    const what = DEVICE_ORDER_EXCEPTIONS[w.kind];
    if (!what || (w.meterId == null && w.collectorId == null)) continue;
    const dev = await repo.device(tx, w.meterId, w.collectorId);
    if (!dev) continue;
    const areaId = dev.areaId ?? w.areaId;
    const type = await repo.orderType(tx, w.companyId, what.types);
    const handler = areaId != null ? await repo.areaHandler(tx, areaId) : undefined;
    const device = `${w.meterId != null ? '表具' : '采集器'}「${dev.name || dev.code}」${dev.code && dev.name ? `（${dev.code}）` : ''}`;
    const where = [dev.areaName, dev.roomName].filter(Boolean).join(' ');
    const id = await repo.open(tx, {
      companyId: w.companyId, meterId: w.meterId, collectorId: w.collectorId, exceptionKind: w.kind,
      typeId: type?.id ?? null, typeName: type?.name ?? what.label,
      title: `${what.label}：${dev.name || dev.code}`.slice(0, 100),
      content: `系统检测到${device}${where ? `（${where}）` : ''}${what.label}，已自动生成工单。`,
      areaId, roomId: dev.roomId, assigneeId: handler?.id ?? null, assigneeName: handler?.name ?? '',
      deadlineAt: new Date(now().getTime() + (type?.limitHours ?? DEFAULT_HOURS) * 3600_000),
    });
    if (id !== undefined) opened++;
  }
  return opened;
}

/** Closes the open orders of these devices' exceptions with the note; answers how many closed. */
export function closeDeviceOrders(tx: Tx, t: repo.ClearTarget, note: string): Promise<number> {
  return repo.close(tx, { ...t, kinds: t.kinds.filter((k) => k in DEVICE_ORDER_EXCEPTIONS) }, note);
}
