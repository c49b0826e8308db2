import { Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { companyApi } from '../api/yewu.ts';
import { companyPick, setCompanyPick } from './page.tsx';
import { useStore } from './store.ts';

/** Platform admins pick the company whose data they look at (searchCompanyID); empty = all. */
export default function CompanyPicker() {
  const picked = useStore(companyPick);
  const { data, isLoading } = useQuery({ queryKey: ['userCompanyList'], queryFn: companyApi.userCompanyList });
  return (
    <Select
      size="small"
      style={{ width: 200 }}
      allowClear
      showSearch
      optionFilterProp="label"
      placeholder="全部单位"
      loading={isLoading}
      value={picked ? Number(picked) : undefined}
      options={(data ?? []).map((c) => ({ value: c.id, label: c.name }))}
      onChange={(v?: number) => setCompanyPick(v == null ? '' : String(v))}
      aria-label="选择单位"
    />
  );
}
