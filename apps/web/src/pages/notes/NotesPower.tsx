// 功率记录 (/notesPower): power, voltage and current read from electric meters (GET device/power/report;
// the last 7 days unless a range is picked).
import { LogTable } from '../../components/LogTable.tsx';
import type { ListQuery, ResourceColumn } from '../../components/ResourceTable.tsx';
import { controlApi, type PowerReading } from '../control/api.ts';
import { SOURCE_ENUM } from './ReadingLog.tsx';
import { keywordColumn, meterColumns, rangeColumn, timeText } from '../control/shared.tsx';

type PowerRow = PowerReading & { __key: string };

const POWER_PARAMS = { kind: 1 };
const num = (v: unknown, unit: string) => (v == null || v === '' ? '-' : `${String(v)} ${unit}`);

const COLUMNS: ResourceColumn<PowerRow>[] = [
  keywordColumn(),
  ...meterColumns<PowerRow>('meterName'),
  { title: '房间', dataIndex: 'roomName' },
  { title: '区域', dataIndex: 'areaName' },
  { title: '有功功率', dataIndex: 'activePower', align: 'right', render: (_d, r) => num(r.activePower, 'kW') },
  { title: 'A相电压', dataIndex: 'voltageA', align: 'right', render: (_d, r) => num(r.voltageA, 'V') },
  { title: 'A相电流', dataIndex: 'currentA', align: 'right', render: (_d, r) => num(r.currentA, 'A') },
  { title: '总电量', dataIndex: 'total', align: 'right', render: (_d, r) => `${r.total} kWh` },
  { title: '来源', dataIndex: 'source', valueEnum: SOURCE_ENUM, width: 90 },
  { title: '抄读时间', dataIndex: 'readAt', width: 170, render: (_d, r) => timeText(r.readAt) },
  rangeColumn<PowerRow>('抄读时间'),
];

/** a reading is keyed by its meter and time */
async function list(q: ListQuery) {
  const r = await controlApi.power(q);
  return { ...r, data: r.data.map((x): PowerRow => ({ ...x, __key: `${String(x.meterId)}@${String(x.readAt)}` })) };
}

export default function NotesPower() {
  return <LogTable<PowerRow> title="功率记录" rowKey="__key" columns={COLUMNS} params={POWER_PARAMS} list={list} />;
}
