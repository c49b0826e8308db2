// Pure helpers of the device-permission dialog (CompanyDevicePermiss): per-group select all / none,
// and the state a group's "select all" box shows.

/** The selection with every value of the group added (all = true) or removed. */
export function toggleGroup(selected: number[], group: number[], all: boolean): number[] {
  const set = new Set(selected);
  for (const v of group) {
    if (all) set.add(v);
    else set.delete(v);
  }
  return [...set].sort((a, b) => a - b);
}

/** 'all' | 'some' | 'none' of the group's values are selected. */
export function groupState(selected: number[], group: number[]): 'all' | 'some' | 'none' {
  const n = group.filter((v) => selected.includes(v)).length;
  return n === 0 ? 'none' : n === group.length ? 'all' : 'some';
}

/** The selection kept to known codes, distinct and sorted (what the server accepts). */
export function normalisePlans(selected: number[], known: number[]): number[] {
  return [...new Set(selected.filter((v) => known.includes(v)))].sort((a, b) => a - b);
}
