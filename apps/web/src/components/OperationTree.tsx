// The operation-permission editor of a role: PERMISSION_TREE as a checkable tree; the value holds leaf
// operation keys only (the group keys are not operations).
import { Tree } from 'antd';
import { OPERATION_KEYS, PERMISSION_TREE, type PermissionNode } from '@meter/contracts';

interface Node {
  key: string;
  title: string;
  disabled?: boolean;
  children?: Node[];
}
const toTree = (nodes: PermissionNode[]): Node[] =>
  nodes.map((n) => ({ key: n.key, title: n.title, children: n.children ? toTree(n.children) : undefined }));
const TREE = toTree(PERMISSION_TREE);
const LEAVES = new Set(OPERATION_KEYS);

export function onlyOperationKeys(keys: readonly unknown[]): string[] {
  const set = new Set(keys.map(String));
  return OPERATION_KEYS.filter((k) => set.has(k));
}

export function OperationTree(props: { value?: string[]; onChange?: (v: string[]) => void; allowed?: string[] }) {
  const { onChange, allowed } = props;
  const value = (props.value ?? []).filter((k) => LEAVES.has(k));
  const allow = allowed ? new Set(allowed) : null;
  const data = allow
    ? TREE.map((g) => ({ ...g, children: g.children?.map((c) => ({ ...c, disabled: !allow.has(c.key) })) }))
    : TREE;
  return (
    <Tree
      checkable
      defaultExpandAll
      selectable={false}
      treeData={data}
      checkedKeys={value}
      onCheck={(checked) => {
        const keys = Array.isArray(checked) ? checked : checked.checked;
        onChange?.(onlyOperationKeys(keys));
      }}
    />
  );
}
