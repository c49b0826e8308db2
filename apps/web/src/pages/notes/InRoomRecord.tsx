// 入住记录 (/inRoomRecord): every move of an owner into or out of a room (including 换房, written as
// a move out and a move in), newest first; searched by owner, phone, room, type and time range.
// Names are as they were at the time, so records outlive deleted owners and rooms.
import { useMemo } from 'react';
import { Tag } from 'antd';
import { ownerRoomHistoryResource } from '@meter/contracts';
import type { Paged } from '../../api/request.ts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { columnsFromResource } from '../../components/resourceColumns.tsx';
import { ownerApi, type MoveRow } from '../../api/archive.ts';

type Row = MoveRow & Record<string, unknown>;

/** the time-range search field → startTime / endTime (YYYY-MM-DD, whole days) */
export function timeRange(value: unknown): Record<string, string> {
  if (!Array.isArray(value) || value.length !== 2) return {};
  const day = (v: unknown) => (typeof v === 'string' ? v.slice(0, 10) : (v as { format(f: string): string }).format('YYYY-MM-DD'));
  return { startTime: day(value[0]), endTime: day(value[1]) };
}

export default function InRoomRecord() {
  const columns = useMemo<ResourceColumn<Row>[]>(
    () =>
      columnsFromResource<Row>(
        ownerRoomHistoryResource,
        {
          action: { render: (_d, r) => (r.action === 1 ? <Tag color="success">入住</Tag> : <Tag color="warning">迁出</Tag>) },
          at: { search: false },
          memo: { ellipsis: true },
        },
        [{ title: '时间范围', key: 'range', dataIndex: 'range', valueType: 'dateRange', hideInTable: true, search: { transform: timeRange } }],
      ),
    [],
  );
  return (
    <ResourceTable<Row>
      headerTitle="入住记录"
      columns={columns}
      areaFilter={false}
      list={(q) => ownerApi.history(q) as Promise<Paged<Row>>}
    />
  );
}
