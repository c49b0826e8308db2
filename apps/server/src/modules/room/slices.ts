// Paging over per-area room counts (pure). The room list is ordered by (area_id, id); with the number
// of rooms per area known, the rows [offset, offset + limit) are a few contiguous slices of one or two
// areas, each read with a small offset inside its area — so the cost of a page is bounded by the size
// of an area, not by how deep the page lies in a million rooms.

export interface AreaCount {
  areaId: number;
  n: number;
}

export interface Slice {
  areaId: number;
  /** rows of the area, in (id) order, to skip and to take */
  offset: number;
  limit: number;
  /** the area's size: a slice in the back half of a big area is read from its end */
  n: number;
}

/** `counts` in area_id order. */
export function slicesOf(counts: AreaCount[], offset: number, limit: number): Slice[] {
  const out: Slice[] = [];
  let want = limit;
  let skip = offset;
  for (const c of counts) {
    if (want <= 0) break;
    if (c.n <= 0) continue;
    if (skip >= c.n) {
      skip -= c.n;
      continue;
    }
    const take = Math.min(want, c.n - skip);
    out.push({ areaId: c.areaId, offset: skip, limit: take, n: c.n });
    want -= take;
    skip = 0;
  }
  return out;
}

/**
 * Offset paging over `total` rows read from whichever end is nearer: pages in the back half run in
 * reverse with the mirrored offset (and are turned around by the caller's ORDER BY).
 */
export function nearerEnd(total: number, offset: number, limit: number) {
  const take = Math.max(0, Math.min(limit, total - offset));
  if (offset * 2 + take <= total) return { reverse: false, offset, limit: take };
  return { reverse: true, offset: Math.max(0, total - offset - take), limit: take };
}
