// Builds the area tree in the node shape of SPEC §3 from flat rows. Pure; tested beside.

export interface AreaRow {
  id: number;
  parentId: number | null;
  name: string;
  deep: number;
  areaType: number;
}

export interface TreeNode {
  id: number;
  Parent: number | null;
  name: string;
  deep: number;
  areaType: number;
  /** 'area' or 'room' */
  kind: 'area' | 'room';
  children: TreeNode[];
  expand: boolean;
  checked: boolean;
  selected: boolean;
  /** V2 trees only: whether the node may be picked (areaType 0); grouping nodes stay for structure */
  selectable?: boolean;
  disableCheckbox?: boolean;
}

/**
 * Rows whose parent is not among the rows become roots (a user bound to a building sees that
 * building as a root). `search` keeps the nodes whose name contains it, with their ancestors.
 */
export function buildTree(rows: AreaRow[], opts: { search?: string; rooms?: { id: number; areaId: number; name: string }[] } = {}): TreeNode[] {
  const nodes = new Map<number, TreeNode>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      Parent: r.parentId,
      name: r.name,
      deep: r.deep,
      areaType: r.areaType,
      kind: 'area',
      children: [],
      expand: r.deep < 2,
      checked: false,
      selected: false,
    });
  }
  const roots: TreeNode[] = [];
  for (const r of rows) {
    const n = nodes.get(r.id)!;
    const p = r.parentId != null ? nodes.get(r.parentId) : undefined;
    if (p) p.children.push(n);
    else roots.push(n);
  }
  for (const room of opts.rooms ?? []) {
    const p = nodes.get(room.areaId);
    if (!p) continue;
    p.children.push({
      id: room.id,
      Parent: room.areaId,
      name: room.name,
      deep: p.deep + 1,
      areaType: 0,
      kind: 'room',
      children: [],
      expand: false,
      checked: false,
      selected: false,
    });
  }
  const q = opts.search?.trim();
  if (!q) return roots;
  const keep = (n: TreeNode): TreeNode | null => {
    if (n.name.includes(q)) return { ...n, expand: true };
    const children = n.children.map(keep).filter((c): c is TreeNode => c !== null);
    return children.length ? { ...n, children, expand: true } : null;
  };
  return roots.map(keep).filter((c): c is TreeNode => c !== null);
}

/** Walks every node (depth first). */
export function walk(nodes: TreeNode[], fn: (n: TreeNode) => void): void {
  for (const n of nodes) {
    fn(n);
    walk(n.children, fn);
  }
}

/**
 * GetAreaTreeNoRoomV2: every node stays (the structure is needed to reach deeper nodes), but only
 * areaType 0 nodes are selectable or checkable; areaType 1 (grouping) nodes are not.
 */
export function markSelectable(nodes: TreeNode[]): TreeNode[] {
  walk(nodes, (n) => {
    n.selectable = n.areaType === 0;
    n.disableCheckbox = n.areaType !== 0;
  });
  return nodes;
}

/** Sets `checked` on the nodes whose id is in the set (the areas bound to a user). */
export function markChecked(nodes: TreeNode[], ids: Set<number>): TreeNode[] {
  walk(nodes, (n) => {
    n.checked = n.kind === 'area' && ids.has(n.id);
  });
  return nodes;
}

/** Drops the given areas and everything below them (areas a user can already see). */
export function withoutSubtrees<R extends { id: number; parentId: number | null }>(rows: R[], ids: Set<number>): R[] {
  const gone = new Set(ids);
  // rows arrive parents first (ordered by deep), so one pass finds every descendant
  const out: R[] = [];
  for (const r of rows) {
    if (gone.has(r.id) || (r.parentId != null && gone.has(r.parentId))) gone.add(r.id);
    else out.push(r);
  }
  return out;
}
