// Pieces shared by the room and owner archives (/recordsRoom, /recordsOwner): the building-unit label
// by edition (SPEC §1: 出租屋 or 物业) and a vacant-room picker searched on the server.
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { UNIT_LABELS } from '@meter/contracts';
import { SearchSelect } from '../../components/SearchSelect.tsx';
import { useRemoteSearch } from '../../components/useRemoteSearch.ts';
import { roomApi, type RoomRow } from '../../api/archive.ts';
import { areaArchiveApi } from '../../api/area.ts';
import { useSession } from '../../app/session.ts';
import { IdTreeSelect, treeOptions, useCompany } from './deviceFields.tsx';

/** 出租屋 / 物业: the building-unit label of the signed-in company's edition. */
export function useUnitLabel(): string {
  const session = useSession();
  return UNIT_LABELS[session?.company?.edition ?? 0] ?? UNIT_LABELS[0];
}

export const roomLabel = (r: Pick<RoomRow, 'areaName' | 'name'>) => (r.areaName ? `${r.areaName}/${r.name}` : r.name);

interface RoomSelectProps {
  value?: number;
  onChange?: (v: number | undefined) => void;
  placeholder?: string;
}

/** Rooms nobody lives in, searched by name as the user types (a company may have many thousands). */
export function VacantRoomSelect({ value, onChange, placeholder = '请选择房间（输入名称搜索）' }: RoomSelectProps) {
  const company = useCompany();
  const { items: options, loading, onSearch } = useRemoteSearch(
    async (name) => (await roomApi.vacant({ index: 1, size: 50, name, searchCompanyID: company })).data.map((r) => ({ value: r.Id, label: roomLabel(r) })),
    company,
  );

  return (
    <SearchSelect<number>
      value={value}
      onChange={(v) => onChange?.(v ?? undefined)}
      options={options}
      loading={loading}
      searching="加载中…"
      none="没有空置的房间"
      onSearch={onSearch}
      placeholder={placeholder}
    />
  );
}

/** The area a room belongs to (usually a floor), picked from the company's area tree without rooms. */
export function RoomAreaPicker({ value, onChange }: { value?: number; onChange?: (v: number | undefined) => void }) {
  const company = useCompany();
  const { data, isFetching } = useQuery({
    queryKey: ['roomAreaPicker', company],
    queryFn: () => areaArchiveApi.treeNoRoom(company),
  });
  const options = useMemo(() => treeOptions(data ?? [], false), [data]);
  return (
    <IdTreeSelect value={value} onChange={onChange} treeData={options} loading={isFetching} treeDefaultExpandAll placeholder="请选择所属区域（楼层）" />
  );
}
