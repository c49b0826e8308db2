// A room picker for billing forms: searches the rooms with an owner living in them by name
// (GetEnergyRoom) and shows where they are, who lives there and the balances.
import { useEffect, useRef, useState } from 'react';
import { Select } from 'antd';
import { billingApi, type EnergyRoomRow } from './billingApi.ts';
import { money } from './money.ts';

export function roomOptionLabel(r: EnergyRoomRow): string {
  const where = r.areaName ? `${r.areaName}/${r.roomName}` : r.roomName;
  return `${where}（${r.ownerName ?? '空置'}，电 ${money(r.electricBalance)} / 水 ${money(r.waterBalance)}）`;
}

export interface OccupiedRoomSelectProps {
  value?: number;
  onChange?(v: number | undefined, row?: EnergyRoomRow): void;
  company?: string;
  placeholder?: string;
}

export function OccupiedRoomSelect({ value, onChange, company, placeholder = '输入房间名称搜索在住房间' }: OccupiedRoomSelectProps) {
  const [rows, setRows] = useState<EnergyRoomRow[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const search = (name: string) => {
    const mine = ++seq.current;
    setLoading(true);
    billingApi
      .energyRooms({ index: 1, size: 50, roomName: name.trim(), searchCompanyID: company })
      .then((res) => {
        if (mine === seq.current) setRows(res.data.filter((r) => r.ownerId != null));
      })
      .catch(() => {})
      .finally(() => {
        if (mine === seq.current) setLoading(false);
      });
  };

  useEffect(() => {
    search('');
    return () => clearTimeout(timer.current);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [company]);

  return (
    <Select
      value={value}
      showSearch
      allowClear
      filterOption={false}
      loading={loading}
      placeholder={placeholder}
      notFoundContent={loading ? '正在查找…' : '没有找到在住房间'}
      options={rows.map((r) => ({ value: r.roomId, label: roomOptionLabel(r) }))}
      onSearch={(text) => {
        clearTimeout(timer.current);
        timer.current = setTimeout(() => search(text), 300);
      }}
      onChange={(v) => onChange?.(v ?? undefined, rows.find((r) => r.roomId === v))}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}
