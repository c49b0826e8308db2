import { describe, expect, it } from 'vitest';
import { flatJson } from './copy-binary.ts';

describe('flatJson', () => {
  it('is JSON.stringify for the flat objects readings carry', () => {
    const cases: Record<string, unknown>[] = [
      {},
      { valve: 1 },
      { valve: 0, batteryLow: false },
      { statusST: 4, settlementFlow: '123.45', batteryLow: true, valve: 1 },
      { voltageA: 220.5, n: -0, big: 1e21, small: 1e-7, neg: -3 },
      { skipped: undefined, kept: 'x' },
      { text: '含中文', quote: 'a"b', back: 'a\\b', ctl: 'a\nb' },
      { 'key"q': 1 },
      { nan: NaN, inf: Infinity },
      { nested: { a: 1 } },
      { list: [1, 2] },
      { nil: null },
    ];
    for (const c of cases) expect(flatJson(c)).toBe(JSON.stringify(c));
  });
});
