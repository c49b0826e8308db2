// 收费类型 (/systemFees): what rooms are charged for (住宅用电, 商铺用水, 物业费…), each of one
// 费用类别 (ChargeTypeEnum). Rooms pick one; a type still used by rooms cannot be deleted.
import { useMemo } from 'react';
import { Tag } from 'antd';
import { CHARGE_TYPES, chargingTypeResource } from '@meter/contracts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { columnsFromResource } from '../../components/resourceColumns.tsx';
import { chargingTypeApi, type ChargingTypeRow } from '../../api/archive.ts';
import { useCompany } from '../records/deviceFields.tsx';

type Row = ChargingTypeRow & Record<string, unknown>;

const TYPE_COLORS: Record<number, string> = { 1: 'gold', 2: 'blue', 3: 'green', 4: 'purple', 5: 'default' };

export function chargingTypeBody(v: Record<string, unknown>) {
  return { name: String(v.name ?? '').trim(), chargeType: v.chargeType, status: v.status ?? 1, memo: String(v.memo ?? '').trim() };
}

export default function SystemFees() {
  const company = useCompany();
  const columns = useMemo<ResourceColumn<Row>[]>(
    () =>
      columnsFromResource<Row>(chargingTypeResource, {
        chargeType: { render: (_d, r) => <Tag color={TYPE_COLORS[r.chargeType]}>{CHARGE_TYPES[r.chargeType] ?? r.chargeType}</Tag> },
        status: { render: (_d, r) => (r.status === 1 ? <Tag color="success">在用</Tag> : <Tag>停用</Tag>) },
        createdAt: { hideInForm: true },
      }),
    [],
  );
  return (
    <ResourceTable<Row>
      entityName="收费类型"
      headerTitle="收费类型"
      rowKey="id"
      columns={columns}
      areaFilter={false}
      list={(q) => chargingTypeApi.list(q) as Promise<{ code: string; data: Row[]; count: number }>}
      create={(v) => chargingTypeApi.create(chargingTypeBody(v), company)}
      update={(r, v) => chargingTypeApi.update(r.id, chargingTypeBody(v), company)}
      remove={(r) => chargingTypeApi.remove([r.id], company)}
      toForm={(r) => ({ ...r, chargeType: String(r.chargeType), status: String(r.status) })}
      createDefaults={{ chargeType: '1', status: '1' }}
      formColumns={1}
      modalWidth={480}
    />
  );
}
