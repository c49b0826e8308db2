// Form fields and cells shared by the collector and meter archives (/recordsCollect, /recordsTable):
// area / room pickers over the area tree, the plan picker (by meter kind, limited to the company's
// allowed plans), collector options, and the online / valve state cells.
import { useEffect, useMemo } from 'react';
import { Badge, Form, Select, Tag, TreeSelect, type FormInstance, type TreeSelectProps } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { METER_KIND, VALVE_STATE_LABELS, type AllowedPlans, type PlanOption } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import type { AreaNode } from '../../api/yewu.ts';
import { companyPick } from '../../app/page.tsx';
import { useStore } from '../../app/store.ts';

type TreeNode = AreaNode & { kind?: 'area' | 'room'; children?: TreeNode[] };
interface TreeOption {
  value: string | number;
  title: string;
  selectable: boolean;
  children?: TreeOption[];
}

/** The company a platform admin picked in the header ('' → undefined). */
export function useCompany(): string | undefined {
  return useStore(companyPick) || undefined;
}

/** Area tree → TreeSelect data. Rooms pick as their id; with `rooms`, only rooms are selectable. */
/** One area (or room) picked from a tree by its id, searched by name. */
export function IdTreeSelect({ value, onChange, ...rest }: { value?: number; onChange?: (v: number | undefined) => void } & Omit<TreeSelectProps, 'value' | 'onChange'>) {
  return (
    <TreeSelect
      value={value}
      onChange={(v) => onChange?.(v == null ? undefined : Number(v))}
      showSearch
      allowClear
      treeNodeFilterProp="title"
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
      {...rest}
    />
  );
}

export function treeOptions(nodes: TreeNode[], rooms: boolean): TreeOption[] {
  return (nodes ?? []).map((n) => {
    const isRoom = n.kind === 'room';
    return {
      value: isRoom ? n.id : rooms ? `area-${n.id}` : n.id,
      title: n.name,
      selectable: rooms ? isRoom : n.areaType !== 1,
      children: n.children?.length ? treeOptions(n.children, rooms) : undefined,
    };
  });
}

interface PickerProps {
  value?: number;
  onChange?: (v: number | undefined) => void;
}

/** 区域 (collectors) or 房间 (meters) picked from the area tree of the current company. */
export function AreaPicker({ value, onChange, rooms }: PickerProps & { rooms: boolean }) {
  const company = useCompany();
  const tree = rooms ? E.area.tree : E.area.treeNoRoom;
  const { data, isFetching } = useQuery({
    queryKey: ['deviceAreaPicker', tree.path, company],
    queryFn: (): Promise<TreeNode[]> => call(tree, { query: { searchCompanyID: company } }),
  });
  const options = useMemo(() => treeOptions(data ?? [], rooms), [data, rooms]);
  // like the side tree: levels above 2 open (SPEC §3), so a room is two clicks away
  const expanded = useMemo(() => {
    const keys: (string | number)[] = [];
    const walk = (ns: TreeNode[], os: TreeOption[]) =>
      ns.forEach((n, i) => {
        if (n.deep < 2 && n.children?.length) {
          keys.push(os[i].value);
          walk(n.children, os[i].children ?? []);
        }
      });
    walk(data ?? [], options);
    return keys;
  }, [data, options]);
  return (
    <IdTreeSelect
      value={value}
      onChange={onChange}
      treeData={options}
      loading={isFetching}
      treeDefaultExpandedKeys={expanded}
      key={expanded.length}
      placeholder={rooms ? '请选择房间' : '请选择安装区域'}
    />
  );
}

export const EMPTY_PLANS: AllowedPlans = { deviceCheck: false, collector: [], electric: [], water: [] };

/** The plans the company may use (SPEC §5/§6: filtered when its device check is on). */
export function useAllowedPlans(): AllowedPlans {
  const company = useCompany();
  const { data } = useQuery({ queryKey: ['devicePlans', company], queryFn: () => call(E.meter.plans, { query: { searchCompanyID: company } }) });
  return data ?? EMPTY_PLANS;
}

export const plansOfKind = (plans: AllowedPlans, kind: unknown): PlanOption[] =>
  Number(kind) === METER_KIND.water ? plans.water : Number(kind) === METER_KIND.electric ? plans.electric : [];

/** The plan picker of the meter form: options follow the 表具类别 chosen in the same form. */
export function PlanSelect({ value, onChange, form, plans }: PickerProps & { form: FormInstance; plans: AllowedPlans }) {
  const kind = Form.useWatch('kind', form);
  const options = plansOfKind(plans, kind);
  useEffect(() => {
    if (value != null && options.length && !options.some((o) => o.value === Number(value))) onChange?.(undefined);
  }, [kind, options, value, onChange]);
  return (
    <Select
      value={value == null ? undefined : Number(value)}
      onChange={(v) => onChange?.(v)}
      options={options}
      placeholder={kind ? '请选择表具方案' : '请先选择表具类别'}
      disabled={!kind}
      showSearch
      optionFilterProp="label"
      allowClear
    />
  );
}

/** Search-form options for the plan filter: electric and water plans share codes, so merge by code. */
export function planSearchEnum(plans: AllowedPlans): Record<string, { text: string }> {
  const byCode = new Map<number, string[]>();
  for (const [prefix, list] of [['电', plans.electric], ['水', plans.water]] as const) {
    for (const o of list) byCode.set(o.value, [...(byCode.get(o.value) ?? []), `${prefix}·${o.label}`]);
  }
  return Object.fromEntries([...byCode.entries()].sort((a, b) => a[0] - b[0]).map(([v, labels]) => [String(v), { text: labels.join(' / ') }]));
}

/** Collector options of the current company: 名称（IMEI）. */
export async function collectorOptions(company?: string) {
  const page = await call(E.collector.list, { query: { index: 1, size: 1000, searchCompanyID: company } });
  return (page.data ?? []).map((c) => ({ label: `${c.name}（${c.imei}）`, value: c.id }));
}

export const ONLINE_ENUM = {
  true: { text: '在线', status: 'Success' },
  false: { text: '离线', status: 'Default' },
} as const;

export function OnlineCell({ online }: { online: boolean }) {
  return <Badge status={online ? 'success' : 'default'} text={online ? '在线' : '离线'} />;
}

/** 合闸/拉闸 for electricity, 开阀/关阀 for water; unknown until the device reports. */
export function ValveCell({ kind, state }: { kind: number; state: number | null }) {
  if (state == null) return <Tag>未知</Tag>;
  const label = VALVE_STATE_LABELS[kind]?.[state] ?? String(state);
  return <Tag color={state === 1 ? 'green' : 'red'}>{label}</Tag>;
}
