import { memo, useMemo, useState } from 'react';
import { Empty, Input, Spin, Tree, type TreeDataNode } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { areaApi, type AreaNode } from '../api/yewu.ts';
import { areaSelections, companyPick, EMPTY_SELECTION, setAreaSelection } from './page.tsx';
import { useStore } from './store.ts';

interface Mapped {
  data: TreeDataNode[];
  expanded: string[];
  byId: Map<string, AreaNode>;
}

/** The tree key of a node: rooms and areas have separate id spaces. */
export const nodeKey = (n: AreaNode) => `${n.kind === 'room' ? 'room' : 'area'}-${n.id}`;

/**
 * Tree data for antd and the keys to expand: every node with deep < 2 (SPEC §3). Only area nodes
 * with areaType 0 filter the page (rooms and ignored nodes are shown but not selectable).
 */
export function mapAreaTree(nodes: AreaNode[]): Mapped {
  const expanded: string[] = [];
  const byId = new Map<string, AreaNode>();
  const walk = (list: AreaNode[]): TreeDataNode[] =>
    list.map((n) => {
      const key = nodeKey(n);
      byId.set(key, n);
      if (n.deep < 2 && n.children?.length) expanded.push(key);
      return {
        key,
        title: n.name,
        selectable: n.kind !== 'room' && n.areaType !== 1,
        children: n.children?.length ? walk(n.children) : undefined,
      };
    });
  return { data: walk(nodes ?? []), expanded, byId };
}

/** The area tree beside area-filtered pages: trimmed search, picking a node filters the page (memoised:
 * the shell renders again on every navigation, the tree only when its route or data change). */
function AreaTreePanel({ routeKey }: { routeKey: string }) {
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const company = useStore(companyPick);
  const selections = useStore(areaSelections);
  const selected = selections[routeKey]?.searchArea;
  const { data, isFetching } = useQuery({
    queryKey: ['areaTree', search, company],
    queryFn: () => areaApi.tree(search, company || undefined),
  });
  const mapped = useMemo(() => mapAreaTree(data ?? []), [data]);
  const [expandedKeys, setExpandedKeys] = useState<React.Key[] | null>(null);
  const expanded = expandedKeys ?? mapped.expanded;

  return (
    <aside className="area-tree" aria-label="区域树">
      <div className="area-tree-title">区域</div>
      <Input.Search
        size="small"
        allowClear
        placeholder="搜索区域"
        value={text}
        onChange={(e) => setText(e.target.value)}
        onSearch={(v) => {
          const trimmed = v.trim();
          setText(trimmed);
          setSearch(trimmed);
          setExpandedKeys(null);
        }}
      />
      <div className="area-tree-body">
        <Spin spinning={isFetching} size="small">
          {mapped.data.length ? (
            <Tree
              blockNode
              treeData={mapped.data}
              expandedKeys={expanded}
              onExpand={(keys) => setExpandedKeys(keys)}
              selectedKeys={selected ? [`area-${selected}`] : []}
              onSelect={(keys) => {
                const key = keys[0] == null ? '' : String(keys[0]);
                const node = key ? mapped.byId.get(key) : undefined;
                // picking a node filters the current page; picking it again clears the filter
                setAreaSelection(
                  routeKey,
                  node ? { searchArea: String(node.id), searchClassify: '', areaName: node.name } : EMPTY_SELECTION,
                );
              }}
            />
          ) : (
            !isFetching && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无区域" />
          )}
        </Spin>
      </div>
    </aside>
  );
}

export default memo(AreaTreePanel);
