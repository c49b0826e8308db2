// 绑定区域: which areas an account is restricted to (it then sees only those and what lies below).
// For the account pages (/systemRecords, /administrator): open it from a row action with the user.
// 保留原有绑定 (notReplace) adds the choice to the current bindings and offers only the areas the
// account cannot see yet; otherwise the choice replaces them (the current ones start checked), and
// saving with nothing chosen lifts the restriction.
import { useEffect, useMemo, useState } from 'react';
import { Alert, Empty, Input, Select, Space, Spin, Switch, Tree, type TreeDataNode } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { areaPermissionApi, userAreaApi, type TreeNodeV2 } from '../api/area.ts';
import { toast } from '../app/feedback.tsx';
import { FormDialog } from './FormDialog.tsx';

export interface BindTarget {
  id: number;
  username: string;
  realName?: string;
}

/** Tree nodes → antd tree data, and the ids the server marked checked. */
export function bindTreeData(nodes: TreeNodeV2[]): { data: TreeDataNode[]; checked: number[] } {
  const checked: number[] = [];
  const walk = (list: TreeNodeV2[]): TreeDataNode[] =>
    list.map((n) => {
      if (n.checked) checked.push(n.id);
      return { key: n.id, title: n.name, children: n.children?.length ? walk(n.children) : undefined };
    });
  return { data: walk(nodes ?? []), checked };
}

export default function UserAreaBindModal({ user, onClose }: { user: BindTarget | null; onClose(saved: boolean): void }) {
  const [notReplace, setNotReplace] = useState(false);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [checked, setChecked] = useState<number[] | null>(null);
  const [sets, setSets] = useState<number[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setNotReplace(false);
    setText('');
    setSearch('');
    setChecked(null);
    setSets([]);
  }, [user]);

  const { data, isFetching } = useQuery({
    queryKey: ['bindableTree', user?.id, notReplace, search],
    queryFn: () => userAreaApi.bindableTree(user!.id, notReplace, search),
    enabled: !!user,
  });
  const { data: using } = useQuery({ queryKey: ['areaPermissionUsing'], queryFn: () => areaPermissionApi.using(undefined), enabled: !!user });
  const tree = useMemo(() => bindTreeData(data ?? []), [data]);
  // the current bindings start checked in replace mode (taken from the unfiltered tree only)
  useEffect(() => {
    if (data && checked === null && !search) setChecked(notReplace ? [] : tree.checked);
  }, [data, tree, checked, notReplace, search]);

  const save = async () => {
    if (!user) return;
    setSaving(true);
    try {
      const r = await userAreaApi.bind({ userId: user.id, areaIds: checked ?? [], areaPermissionIds: sets, notReplace });
      toast.success(r.areaIds.length ? `已绑定 ${r.areaIds.length} 个区域` : '已解除区域限制，该账号可查看全部区域');
      onClose(true);
    } catch {
      // the request wrapper showed why
    } finally {
      setSaving(false);
    }
  };

  return (
    <FormDialog
      title={user ? `绑定区域 — ${user.realName || user.username}` : '绑定区域'}
      open={!!user}
      width={560}
      confirmLoading={saving}
      onOk={() => void save()}
      onCancel={() => onClose(false)}
    >
      <Space direction="vertical" style={{ width: '100%' }}>
        <Space>
          <span>保留原有绑定</span>
          <Switch
            checked={notReplace}
            checkedChildren="追加"
            unCheckedChildren="替换"
            onChange={(v) => {
              setNotReplace(v);
              setChecked(null);
            }}
          />
        </Space>
        <Alert
          type="info"
          showIcon
          message={notReplace ? '只列出该账号尚不能查看的区域，勾选的区域将追加到原有绑定。' : '勾选的区域将替换原有绑定；不勾选任何区域并保存，表示该账号可查看全部区域。'}
        />
        <Select
          mode="multiple"
          allowClear
          style={{ width: '100%' }}
          placeholder="按区域权限批量选择（可选）"
          value={sets}
          onChange={setSets}
          options={(using ?? []).map((s) => ({ value: s.id, label: `${s.name}（${s.areaNames.join('、') || '无区域'}）` }))}
        />
        <Input.Search
          allowClear
          placeholder="搜索区域"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onSearch={(v) => {
            setText(v.trim());
            setSearch(v.trim());
          }}
        />
        <div style={{ maxHeight: 360, overflow: 'auto', border: '1px solid #f0f0f0', borderRadius: 6, padding: 8 }}>
          <Spin spinning={isFetching} size="small">
            {tree.data.length ? (
              <Tree
                checkable
                checkStrictly
                defaultExpandAll
                treeData={tree.data}
                checkedKeys={checked ?? []}
                onCheck={(_keys, info) => {
                  // toggle just this node: areas hidden by the search keep their state
                  const id = Number(info.node.key);
                  setChecked((c) => (info.checked ? [...new Set([...(c ?? []), id])] : (c ?? []).filter((x) => x !== id)));
                }}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={notReplace ? '该账号已可查看全部区域' : '暂无区域'} />
            )}
          </Spin>
        </div>
      </Space>
    </FormDialog>
  );
}
