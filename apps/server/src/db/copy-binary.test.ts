import { describe, expect, it } from 'vitest';
import { BinaryCopyWriter, flatJson } from './copy-binary.ts';

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
  { ['k'.repeat(300)]: 'v'.repeat(500), after: 'é' },
  { '1': 'numeric key first', a: 'b', '0': 0 },
];

describe('flatJson', () => {
  it('is JSON.stringify for the flat objects readings carry', () => {
    for (const c of cases) expect(flatJson(c)).toBe(JSON.stringify(c));
  });
});

describe('BinaryCopyWriter.jsonbFlat', () => {
  it('writes the bytes of jsonb(flatJson(o)), also when the buffer grows mid-object or an object falls back', () => {
    const direct = new BinaryCopyWriter(64);
    const viaText = new BinaryCopyWriter(64);
    for (let round = 0; round < 3; round++) {
      for (const c of cases) {
        direct.row(2).jsonbFlat(c).int4(round);
        viaText.row(2).jsonb(flatJson(c)).int4(round);
      }
    }
    expect(direct.finish().equals(viaText.finish())).toBe(true);
  });
});
