import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { nearerEnd, slicesOf, type AreaCount } from './slices.ts';

/** The rows a page should hold, by brute force: (areaId, k) for every room k of every area. */
function expected(counts: AreaCount[], offset: number, limit: number) {
  const all = counts.flatMap((c) => Array.from({ length: Math.max(0, c.n) }, (_, k) => `${c.areaId}:${k}`));
  return all.slice(offset, offset + limit);
}

const fromSlices = (counts: AreaCount[], offset: number, limit: number) =>
  slicesOf(counts, offset, limit).flatMap((s) => Array.from({ length: s.limit }, (_, k) => `${s.areaId}:${s.offset + k}`));

describe('slicesOf', () => {
  it('a page inside one area, across areas, past the end', () => {
    const counts = [{ areaId: 1, n: 5 }, { areaId: 2, n: 0 }, { areaId: 3, n: 3 }, { areaId: 7, n: 10 }];
    expect(slicesOf(counts, 0, 4)).toEqual([{ areaId: 1, offset: 0, limit: 4, n: 5 }]);
    expect(slicesOf(counts, 4, 5)).toEqual([{ areaId: 1, offset: 4, limit: 1, n: 5 }, { areaId: 3, offset: 0, limit: 3, n: 3 }, { areaId: 7, offset: 0, limit: 1, n: 10 }]);
    expect(slicesOf(counts, 16, 5)).toEqual([{ areaId: 7, offset: 8, limit: 2, n: 10 }]);
    expect(slicesOf(counts, 18, 5)).toEqual([]);
    expect(slicesOf([], 0, 20)).toEqual([]);
  });

  it('every page equals the same page of the flattened list', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ areaId: fc.integer({ min: 1, max: 1e6 }), n: fc.integer({ min: 0, max: 40 }) }), { maxLength: 30 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 1, max: 50 }),
        (raw, offset, limit) => {
          const counts = [...new Map(raw.map((c) => [c.areaId, c])).values()].sort((a, b) => a.areaId - b.areaId);
          expect(fromSlices(counts, offset, limit)).toEqual(expected(counts, offset, limit));
        },
      ),
    );
  });
});

describe('nearerEnd', () => {
  it('reads the back half from the end with the mirrored offset', () => {
    expect(nearerEnd(100, 0, 20)).toEqual({ reverse: false, offset: 0, limit: 20 });
    expect(nearerEnd(100, 80, 20)).toEqual({ reverse: true, offset: 0, limit: 20 });
    expect(nearerEnd(95, 80, 20)).toEqual({ reverse: true, offset: 0, limit: 15 });
    expect(nearerEnd(100, 60, 20)).toEqual({ reverse: true, offset: 20, limit: 20 });
    expect(nearerEnd(100, 100, 20).limit).toBe(0);
  });

  it('the reversed window holds the same rows', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 500 }), fc.integer({ min: 0, max: 600 }), fc.integer({ min: 1, max: 60 }), (total, offset, limit) => {
        const rows = Array.from({ length: total }, (_, i) => i);
        const p = nearerEnd(total, offset, limit);
        const got = p.reverse ? [...rows].reverse().slice(p.offset, p.offset + p.limit).reverse() : rows.slice(p.offset, p.offset + p.limit);
        expect(got).toEqual(rows.slice(offset, offset + limit));
      }),
    );
  });
});
