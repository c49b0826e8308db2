// Form fields of the area archive (/recordsArea): the four-level address picker and the parent-area
// picker over the company's area tree (the edited area and everything below it cannot be picked).
import { useMemo } from 'react';
import { AutoComplete, Form, Select, Space, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { ADDRESS_LEVEL_LABELS } from '@meter/contracts';
import { areaArchiveApi, type TreeNodeV2 } from '../../api/area.ts';
import { EMPTY_ADDRESS, setLevel, suggestions, type Address } from './areaAddress.ts';

interface AddressProps {
  value?: Address;
  onChange?: (v: Address) => void;
  company?: string;
}

/** 省 / 市 / 区县 / 乡镇街道: pick a province; type or pick the lower levels. */
export function AddressInput({ value = EMPTY_ADDRESS, onChange, company }: AddressProps) {
  const { data: used = [] } = useQuery({
    queryKey: ['areaAddressOptions', company],
    queryFn: () => areaArchiveApi.addressOptions(company),
    staleTime: 60_000,
  });
  const change = (level: number, v: string | undefined) => onChange?.(setLevel(value, level, (v ?? '').trim()));
  return (
    <Space.Compact style={{ width: '100%' }}>
      <Select
        aria-label={ADDRESS_LEVEL_LABELS[0]}
        style={{ width: '25%' }}
        placeholder={ADDRESS_LEVEL_LABELS[0]}
        allowClear
        showSearch
        value={value[0] || undefined}
        options={suggestions(used, value, 0).map((p) => ({ value: p, label: p }))}
        onChange={(v) => change(0, v)}
      />
      {[1, 2, 3].map((level) => (
        <AutoComplete
          key={level}
          aria-label={ADDRESS_LEVEL_LABELS[level]}
          style={{ width: '25%' }}
          placeholder={ADDRESS_LEVEL_LABELS[level]}
          allowClear
          disabled={!value[level - 1]}
          value={value[level] || undefined}
          options={suggestions(used, value, level).map((p) => ({ value: p }))}
          filterOption={(input, o) => String(o?.value ?? '').includes(input.trim())}
          onChange={(v) => change(level, v)}
          maxLength={32}
        />
      ))}
    </Space.Compact>
  );
}

interface TreeOption {
  value: number;
  title: string;
  disabled?: boolean;
  children?: TreeOption[];
}

/** Tree nodes → TreeSelect options; `blocked` and everything below it cannot be picked. */
export function parentOptions(nodes: TreeNodeV2[], blocked?: number, inBlocked = false): TreeOption[] {
  return (nodes ?? []).map((n) => {
    const off = inBlocked || n.id === blocked;
    return {
      value: n.id,
      title: n.name,
      disabled: off || undefined,
      children: n.children?.length ? parentOptions(n.children, blocked, off) : undefined,
    };
  });
}

interface ParentProps {
  value?: number | null;
  onChange?: (v: number | null) => void;
  company?: string;
}

/**
 * The parent-area picker. In the edit form the edited area's id is the form value `__self`: it and
 * what lies below it cannot become its own parent.
 */
export function ParentPicker({ value, onChange, company }: ParentProps) {
  const form = Form.useFormInstance();
  const self = Form.useWatch('__self', { form, preserve: true }) as number | undefined;
  const { data, isFetching } = useQuery({
    queryKey: ['areaParentTree', company],
    queryFn: () => areaArchiveApi.treeNoRoom(company),
  });
  const options = useMemo(() => parentOptions(data ?? [], self), [data, self]);
  return (
    <TreeSelect
      aria-label="上级区域"
      value={value ?? undefined}
      onChange={(v) => onChange?.(v == null ? null : Number(v))}
      treeData={options}
      loading={isFetching}
      showSearch
      allowClear
      treeNodeFilterProp="title"
      treeDefaultExpandAll
      placeholder="不选则为顶级区域"
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  );
}
