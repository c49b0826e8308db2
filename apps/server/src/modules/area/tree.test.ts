import { describe, expect, it } from 'vitest';
import { buildTree, markChecked, markSelectable, withoutSubtrees } from './tree.ts';

const rows = [
  { id: 1, parentId: null, name: '阳光园区', deep: 0, areaType: 0 },
  { id: 2, parentId: 1, name: '1号楼', deep: 1, areaType: 0 },
  { id: 3, parentId: 2, name: '1层', deep: 2, areaType: 0 },
  { id: 4, parentId: 1, name: '2号楼', deep: 1, areaType: 0 },
];

describe('buildTree', () => {
  it('nests by parent and expands nodes with deep < 2', () => {
    const t = buildTree(rows);
    expect(t).toHaveLength(1);
    expect(t[0].children.map((c) => c.name)).toEqual(['1号楼', '2号楼']);
    expect(t[0].expand).toBe(true);
    expect(t[0].children[0].expand).toBe(true);
    expect(t[0].children[0].children[0].expand).toBe(false);
    expect(t[0].children[0].children[0]).toMatchObject({ Parent: 2, checked: false, selected: false });
  });
  it('makes orphans roots (a user bound below the top)', () => {
    const t = buildTree(rows.slice(1));
    expect(t.map((n) => n.name)).toEqual(['1号楼', '2号楼']);
  });
  it('search keeps matches with their ancestors', () => {
    const t = buildTree(rows, { search: ' 1层 ' });
    expect(t[0].children.map((c) => c.name)).toEqual(['1号楼']);
    expect(t[0].children[0].children[0].name).toBe('1层');
  });
  it('hangs rooms under their area', () => {
    const t = buildTree(rows, { rooms: [{ id: 9, areaId: 3, name: '101' }] });
    expect(t[0].children[0].children[0].children[0]).toMatchObject({ id: 9, kind: 'room', deep: 3 });
  });
});

describe('tree helpers', () => {
  it('V2 marks only areaType 0 selectable', () => {
    const t = markSelectable(buildTree([...rows, { id: 5, parentId: 1, name: '配电房', deep: 1, areaType: 1 }]));
    const group = t[0].children.find((c) => c.id === 5)!;
    expect(group).toMatchObject({ selectable: false, disableCheckbox: true });
    expect(t[0]).toMatchObject({ selectable: true, disableCheckbox: false });
  });
  it('checks the bound areas only', () => {
    const t = markChecked(buildTree(rows), new Set([2]));
    expect(t[0].checked).toBe(false);
    expect(t[0].children[0].checked).toBe(true);
    expect(t[0].children[0].children[0].checked).toBe(false);
  });
  it('drops bound areas with what lies below them, keeps the rest', () => {
    const kept = withoutSubtrees(rows, new Set([2]));
    expect(kept.map((r) => r.id)).toEqual([1, 4]);
  });
});
