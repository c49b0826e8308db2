import type { Tx } from '../../db/client.ts';
import type { DeviceEvent } from '../realtime/index.ts';
import { raiseWarnings } from './ingest.ts';
import * as repo from './repo/index.ts';
import { FINAL, type CommandStatus } from './rules.ts';
import { clearWarnings } from './work-orders.ts';

// 连续抄表失败: a meter whose reads keep failing (each after its own retries) is warned about, with a
// 设备工单, instead of only turning up in the live list on 抄表异常; a good read closes both.

/** Reads that failed this many times in a row raise the warning. */
export const READ_FAIL_WARN_AFTER = 3;

/**
 * After commands ended (the worker's batch of outcomes): meters whose last READ_FAIL_WARN_AFTER reads
 * all failed get a read_fail warning, refreshed with the streak while it grows; a read that succeeded
 * closes it. Returns the events of the warnings it opened.
 */
export async function readsEnded(tx: Tx, ended: { meterId: number | null; kind: string; status: CommandStatus }[]): Promise<DeviceEvent[]> {
  const reads = ended.filter((c) => c.kind === 'read' && c.meterId !== null && FINAL.includes(c.status));
  const meters = (ok: boolean) => [...new Set(reads.filter((c) => (c.status === 'succeeded') === ok).map((c) => c.meterId!))];
  const good = meters(true);
  if (good.length) await clearWarnings(tx, { meterIds: good, kinds: ['read_fail'], memo: '抄表已成功（自动）' });
  return raiseWarnings(tx, await repo.readFailStreaks(tx, meters(false), READ_FAIL_WARN_AFTER));
}
