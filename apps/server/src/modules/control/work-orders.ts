import type { Tx } from '../../db/client.ts';
import { closeDeviceOrders, openDeviceOrders } from '../content/index.ts';
import * as repo from './repo/index.ts';

// Where a device warning opens or closes, its 设备工单 opens or closes in the same transaction
// (content module, device-orders.ts): every path that opens a warning goes through `warningsOpened`,
// every path that closes one through the functions below — the system seeing it clear, or a person
// marking it handled.

/** The warnings just opened (not the refreshed ones): their work orders. */
export function warningsOpened(tx: Tx, opened: repo.WarningRow[]) {
  return opened.length ? openDeviceOrders(tx, opened) : Promise.resolve(0);
}

/** Closes a device's (or these meters') open warnings of these kinds the system saw resolved, and their work orders. */
export async function clearWarnings(tx: Tx, t: { meterId?: number; meterIds?: number[]; collectorId?: number; kinds: string[]; memo: string }) {
  const closed = await repo.resolveWarnings(tx, t);
  if (closed.length) {
    const meterIds = t.meterIds ? closed.flatMap((id) => (id !== null ? [id] : [])) : t.meterId !== undefined ? [t.meterId] : undefined;
    await closeDeviceOrders(tx, { kinds: t.kinds, meterIds, collectorIds: t.collectorId !== undefined ? [t.collectorId] : undefined }, `异常已消除：${t.memo}`);
  }
  return closed.length;
}

/** Devices back online: their offline warnings and work orders close. */
export async function clearOfflineWarnings(tx: Tx, collectorIds: number[], meterIds: number[], memo: string) {
  const n = await repo.resolveOfflineWarnings(tx, collectorIds, meterIds, memo);
  if (n) await closeDeviceOrders(tx, { kinds: ['offline'], collectorIds, meterIds }, `异常已消除：${memo}`);
  return n;
}

/** Warnings a person marked handled: their devices' orders of those kinds close with the person's note. */
export async function warningsHandled(tx: Tx, done: { meterId: number | null; collectorId: number | null; kind: string }[], by: string, memo: string) {
  for (const kind of new Set(done.map((w) => w.kind))) {
    const of = done.filter((w) => w.kind === kind);
    await closeDeviceOrders(tx, {
      kinds: [kind],
      meterIds: of.flatMap((w) => (w.meterId != null ? [w.meterId] : [])),
      collectorIds: of.flatMap((w) => (w.meterId == null && w.collectorId != null ? [w.collectorId] : [])),
    }, `预警已由 ${by} 处理${memo ? `：${memo}` : ''}`);
  }
}
