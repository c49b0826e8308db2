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
import { rangeColumn } from '../fee/common.tsx';

type Row = MoveRow & Record<string, unknown>;

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
        [rangeColumn<Row>()],
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
