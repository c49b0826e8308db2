// 房间档案 (/recordsRoom), labelled 出租屋 or 物业 by the company's edition: rooms beside the area tree
// (the picked area and everything below it), searched by name and by the owner living there;
// create / edit / delete with the operation key room.basic. A room moved to another area takes its
// meters along; a room with an owner living in it or with meters is not deleted (the server says why).
import { useMemo } from 'react';
import { Tag } from 'antd';
import { DECORATIONS, ORIENTATIONS, roomResource } from '@meter/contracts';
import type { CrudPageProps } from '../../components/CrudPage.tsx';
import { chargingTypeApi, type RoomRow } from '../../api/archive.ts';
import { E } from '../../api/endpoints.gen.ts';
import { ArchivePage } from './ArchivePage.tsx';
import { useCompany } from './deviceFields.tsx';
import { RoomAreaPicker, useUnitLabel } from './roomFields.tsx';

type Row = RoomRow & Record<string, unknown>;

const ORDER = [
  'name', 'areaName', 'ownerName', 'ownerPhone', 'chargingTypeId', 'decoration', 'orientation', 'sizeM2', 'meterCount', 'status',
  'areaId', 'memo', 'createdAt',
];

const text = (v: unknown) => String(v ?? '').trim();

export function roomBody(v: Record<string, unknown>): Record<string, unknown> {
  return {
    name: text(v.name),
    areaId: v.areaId,
    decoration: v.decoration ?? 0,
    orientation: v.orientation ?? 0,
    chargingTypeId: v.chargingTypeId ?? null,
    sizeM2: v.sizeM2 == null || v.sizeM2 === '' ? null : String(v.sizeM2),
    status: v.status ?? 1,
    memo: text(v.memo),
  };
}

export default function RecordsRoom() {
  const company = useCompany();
  const unit = useUnitLabel();

  const overrides = useMemo<CrudPageProps<Row>['overrides']>(
    () => ({
      name: { title: `${unit}名称` },
      areaId: {
        hideInTable: true,
        valueType: 'treeSelect',
        request: undefined,
        fieldProps: undefined,
        renderFormItem: () => <RoomAreaPicker />,
      },
      chargingTypeId: {
        request: async () => (await chargingTypeApi.using(company)).map((c) => ({ label: c.name, value: c.id })),
        params: { company },
        render: (_d, r) => r.chargingTypeName ?? '-',
      },
      ownerName: { render: (_d, r) => r.ownerName ?? <Tag>空置</Tag> },
      decoration: { render: (_d, r) => DECORATIONS[r.decoration] ?? r.decoration },
      orientation: { render: (_d, r) => ORIENTATIONS[r.orientation] ?? r.orientation },
      sizeM2: { render: (_d, r) => r.sizeM2 || '-' },
      meterCount: { width: 80 },
      status: { render: (_d, r) => (r.status === 1 ? <Tag color="success">在用</Tag> : <Tag>停用</Tag>) },
      createdAt: { hideInTable: true },
    }),
    [unit, company],
  );

  return (
    <ArchivePage<Row>
      importKind="room"
      resource={roomResource}
      api={E.room}
      entityName={unit}
      overrides={overrides}
      order={ORDER}
      loadDetail
      fromForm={roomBody}
      toForm={(r) => ({
        ...r,
        decoration: String(r.decoration),
        orientation: String(r.orientation),
        status: String(r.status),
        sizeM2: r.sizeM2 === '' ? undefined : Number(r.sizeM2),
        chargingTypeId: r.chargingTypeId ?? undefined,
      })}
      createDefaults={{ decoration: '0', orientation: '0', status: '1' }}
    />
  );
}
