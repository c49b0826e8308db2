import { describe, expect, it } from 'vitest';
import type { AreaNode } from '../api/yewu.ts';
import { mapAreaTree } from './AreaTreePanel.tsx';

/** a node as the server answers it (flags off unless given) */
const node = (n: Omit<AreaNode, 'expand' | 'checked' | 'selected'>): AreaNode => ({ expand: false, checked: false, selected: false, ...n });

describe('area tree mapping', () => {
  it('expands nodes with deep < 2, keeps room and area ids apart, rooms not selectable', () => {
    const m = mapAreaTree([
      node({
        id: 1, Parent: null, name: '阳光园区', deep: 0, areaType: 0, kind: 'area',
        children: [
          node({
            id: 2, Parent: 1, name: '1号楼', deep: 1, areaType: 0, kind: 'area',
            children: [
              node({ id: 3, Parent: 2, name: '1层', deep: 2, areaType: 0, kind: 'area', children: [node({ id: 1, Parent: 3, name: '1-101', deep: 3, areaType: 0, kind: 'room', children: [] })] }),
            ],
          }),
        ],
      }),
    ]);
    expect(m.expanded).toEqual(['area-1', 'area-2']);
    expect(m.byId.get('room-1')?.name).toBe('1-101');
    expect(m.byId.get('area-1')?.name).toBe('阳光园区');
    const floor = m.data[0].children![0].children![0];
    expect(floor.selectable).toBe(true);
    expect(floor.children![0].selectable).toBe(false);
  });
});
