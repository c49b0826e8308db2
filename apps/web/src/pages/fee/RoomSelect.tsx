// A room picker for billing forms: searches the rooms with an owner living in them by name
// (GetEnergyRoom) and shows where they are, who lives there and the balances.
import { SearchSelect } from '../../components/SearchSelect.tsx';
import { useRemoteSearch } from '../../components/useRemoteSearch.ts';
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
  const { items: rows, loading, onSearch } = useRemoteSearch(
    async (name) => (await billingApi.energyRooms({ index: 1, size: 50, roomName: name, searchCompanyID: company })).data.filter((r) => r.ownerId != null),
    company,
  );

  return (
    <SearchSelect<number>
      value={value}
      loading={loading}
      searching="正在查找…"
      none="没有找到在住房间"
      placeholder={placeholder}
      options={rows.map((r) => ({ value: r.roomId, label: roomOptionLabel(r) }))}
      onSearch={onSearch}
      onChange={(v) => onChange?.(v ?? undefined, rows.find((r) => r.roomId === v))}
      popupMatchSelectWidth={false}
    />
  );
}
