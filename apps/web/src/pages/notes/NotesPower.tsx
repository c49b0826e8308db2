// 功率记录 (/notesPower): power, voltage and current read from electric meters (GET device/power/report;
// the last 7 days unless a range is picked).
import { useMemo } from 'react';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { controlApi, type PowerReading } from '../control/api.ts';
import { SOURCE_ENUM } from './ReadingLog.tsx';
import { rangeColumn, timeText } from '../control/shared.tsx';

type PowerRow = PowerReading & { __key: string };

const POWER_PARAMS = { kind: 1 };
const num = (v: unknown, unit: string) => (v == null || v === '' ? '-' : `${String(v)} ${unit}`);

export default function NotesPower() {
  const columns = useMemo<ResourceColumn<PowerRow>[]>(
    () => [
      { title: '关键字', dataIndex: 'kw', hideInTable: true, search: true, fieldProps: { placeholder: '表号 / 名称 / 房间' } },
      { title: '表号', dataIndex: 'address', copyable: true, width: 150 },
      { title: '名称', dataIndex: 'meterName' },
      { title: '房间', dataIndex: 'roomName' },
      { title: '区域', dataIndex: 'areaName' },
      { title: '有功功率', dataIndex: 'activePower', align: 'right', render: (_d, r) => num(r.activePower, 'kW') },
      { title: 'A相电压', dataIndex: 'voltageA', align: 'right', render: (_d, r) => num(r.voltageA, 'V') },
      { title: 'A相电流', dataIndex: 'currentA', align: 'right', render: (_d, r) => num(r.currentA, 'A') },
      { title: '总电量', dataIndex: 'total', align: 'right', render: (_d, r) => `${r.total} kWh` },
      { title: '来源', dataIndex: 'source', valueEnum: SOURCE_ENUM, width: 90 },
      { title: '抄读时间', dataIndex: 'readAt', width: 170, render: (_d, r) => timeText(r.readAt) },
      rangeColumn<PowerRow>('抄读时间'),
    ],
    [],
  );
  return (
    <ResourceTable<PowerRow>
      headerTitle="功率记录"
      rowKey="__key"
      columns={columns}
      pageSize={20}
      params={POWER_PARAMS}
      list={async (q) => {
        const r = await controlApi.power(q);
        return { ...r, data: r.data.map((x): PowerRow => ({ ...x, __key: `${String(x.meterId)}@${String(x.readAt)}` })) };
      }}
    />
  );
}
