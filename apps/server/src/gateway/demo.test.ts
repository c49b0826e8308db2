import { describe, expect, it } from 'vitest';
import { createFleet } from '@meter/simulator';
import { demoFaultPlan, demoFleetDefinition } from './demo.ts';
import type { DemoDeviceRow } from './repo.ts';

// The demo fleet's faults: which devices, and that the fleet accepts the plan (default off elsewhere).

const row = (meterId: number, companyId: number, collectorId: number | null, kind = 1): DemoDeviceRow => ({
  meterId, companyId, address: kind === 1 ? String(100000000000 + meterId) : String(20000000000000 + meterId), kind, plan: kind === 1 ? 0 : 100, imei: '', protocolId: null, collectorId,
  collectorImei: collectorId ? String(860000000000000 + collectorId) : null, collectorName: `c${collectorId}`, collectorSecret: 's', total: '1', valveState: 1,
});
const secrets = { fourG: () => 'x' };

describe('demoFaultPlan', () => {
  const rows = [
    ...[1, 2, 3].map((id) => row(id, 5, 10)), // the first collector of the demo company: offline
    ...[4, 5, 6, 7, 8].map((id) => row(id, 5, 11)),
    row(9, 5, 11, 2), // a water meter behind it is not picked
    row(20, 7, 30), // another demo company's meter is not picked
  ];

  it('the demo company\'s first collector goes offline and returns; the last electric meters behind the others get a stuck relay, a wrong CT ratio, a reversed register', () => {
    const { plan, stuckMeterId } = demoFaultPlan(rows);
    expect(plan).toEqual([
      { target: '860000000000010', fault: 'offline', afterMs: 0, forMs: 75 * 60_000, everyMs: 360 * 60_000 },
      { target: '100000000008', fault: 'stuckValve' },
      { target: '100000000007', fault: 'rateError', value: 80 },
      { target: '100000000006', fault: 'reversed', value: 2, afterMs: 600_000, everyMs: 240 * 60_000 },
    ]);
    expect(stuckMeterId).toBe(8);
    // the fleet built from the same rows takes the plan
    const fleet = createFleet({ ...demoFleetDefinition(rows, secrets), nbMeters: [], gateway: { host: '127.0.0.1', port: 1 }, faults: plan });
    expect(fleet.definition.faults).toHaveLength(4);
  });

  it('nothing to pick: no plan', () => {
    expect(demoFaultPlan([])).toEqual({ plan: [], stuckMeterId: null });
    expect(demoFaultPlan([row(1, 5, null)]).plan).toEqual([]);
  });
});
