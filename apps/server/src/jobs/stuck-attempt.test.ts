import { describe, expect, it } from 'vitest';
import { stuckAttemptMs } from './worker.ts';
import { withQueueWait } from '../gateway/start.ts';
import type { Gateway } from '../gateway/gateway.ts';

// A request waiting its turn in a gateway connection's queue must never be taken for a stuck attempt:
// housekeeping would re-queue it and the meter would get the command twice.

describe('the stuck-attempt limit', () => {
  it('covers the whole queue wait plus the tries on the wire, whatever GATEWAY_QUEUE_WAIT_SECONDS says', () => {
    for (const [T, R, Q] of [[3000, 2, 60_000], [3000, 2, 300_000], [8000, 1, 170_000], [10_000, 2, 600_000], [500, 0, 0]]) {
      const limit = stuckAttemptMs({ replyTimeoutMs: T, retries: R, queueWaitMs: Q });
      expect(limit, `T=${T} R=${R} Q=${Q}`).toBeGreaterThan(Q + T * (R + 1) + 2_000);
      expect(limit).toBeGreaterThanOrEqual(60_000);
    }
  });

  it('is unchanged for short queue waits (3 s × 3 tries → 120 s)', () => {
    expect(stuckAttemptMs({ replyTimeoutMs: 3000, retries: 2, queueWaitMs: 60_000 })).toBe(120_000);
    expect(stuckAttemptMs({ replyTimeoutMs: 3000, retries: 2, queueWaitMs: 300_000 })).toBe(341_000);
  });

  it("the worker's own in-process gateway gets the same queue wait on every request", async () => {
    const seen: unknown[] = [];
    const gateway: Pick<Gateway, 'transact'> = {
      transact: async (_route, _req, opts) => {
        seen.push(opts);
        return null;
      },
    };
    const [route, req] = [{} as Parameters<Gateway['transact']>[0], {} as Parameters<Gateway['transact']>[1]];
    await withQueueWait(gateway, 45_000).transact(route, req);
    expect(seen).toEqual([{ queueMs: 45_000 }]);
  });
});
