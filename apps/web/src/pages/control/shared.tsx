// Pieces shared by the control pages: the meter table beside the area tree (latest reading, on/off,
// online, protection), watching commands until they end, and the command status tag.
import { useCallback, useEffect, useMemo, useRef, useState, type MutableRefObject, type ReactNode } from 'react';
import { Space, Tag, Tooltip } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { METER_KINDS, formatBeijing } from '@meter/contracts';
import { fitContent, ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { Place } from '../../components/cells.tsx';
import { timeRangeColumn } from '../../components/resourceColumns.tsx';
import { OnlineCell, ValveCell, useCompany } from '../records/deviceFields.tsx';
import { onDeviceEvent, liveReady } from './live.ts';
import { FINAL_STATUSES, controlApi, type Command, type CommandStatus, type Company, type ControlMeter } from './api.ts';

export { useCompany };

export type MeterRow = ControlMeter & Record<string, unknown>;

const STATUS_COLORS: Record<string, string> = {
  queued: 'default', sent: 'processing', succeeded: 'success', failed: 'error', timed_out: 'warning', expired: 'default',
};
export const COMMAND_STATUS_ENUM = {
  queued: { text: '排队中', status: 'Default' },
  sent: { text: '已下发', status: 'Processing' },
  succeeded: { text: '成功', status: 'Success' },
  failed: { text: '失败', status: 'Error' },
  timed_out: { text: '超时', status: 'Warning' },
  expired: { text: '已过期', status: 'Default' },
} as const;

export function CommandTag({ status, text }: { status: string; text?: string }) {
  return <Tag color={STATUS_COLORS[status] ?? 'default'}>{text || COMMAND_STATUS_ENUM[status as CommandStatus]?.text || status}</Tag>;
}

export const isFinal = (s: string) => (FINAL_STATUSES as string[]).includes(s);

/** "YYYY-MM-DD HH:mm:ss" of an ISO time (China), '' when empty. */
export function timeText(v: unknown): string {
  if (!v) return '';
  const d = new Date(String(v));
  if (Number.isNaN(d.getTime())) return String(v);
  return formatBeijing(d);
}

export const KIND_ENUM = { 1: { text: '电表' }, 2: { text: '水表' } };

/** The search form's 关键字 (matched against 表号 / 名称 / 房间 unless the list says otherwise). */
export function keywordColumn<T>(placeholder = '表号 / 名称 / 房间'): ResourceColumn<T> {
  return { title: '关键字', dataIndex: 'kw', hideInTable: true, search: true, fieldProps: { placeholder } };
}

/** A meter's 表号 (copyable) and 名称 (under `nameKey`: `name` on meter rows, `meterName` on their records). */
export function meterColumns<T>(nameKey = 'name', name: Partial<ResourceColumn<T>> = {}): ResourceColumn<T>[] {
  return [
    { title: '表号', dataIndex: 'address', copyable: true, width: 150 },
    { title: '名称', dataIndex: nameKey, ...name },
  ];
}

/** A meter's 采集器, 在线 and 通断 as the warning lists show them. */
export function meterStateColumns<T extends { collectorName?: string | null; online: boolean; kind: number; valveState: number | null }>(): ResourceColumn<T>[] {
  return [
    { title: '采集器', dataIndex: 'collectorName', render: (_d, r) => r.collectorName || '-' },
    { title: '在线', dataIndex: 'online', width: 80, render: (_d, r) => <OnlineCell online={r.online} /> },
    { title: '通断', dataIndex: 'valveState', width: 90, render: (_d, r) => <ValveCell kind={r.kind} state={r.valveState} /> },
  ];
}

/** A read-only "time range" search column sending start/end. */
export function rangeColumn<T>(title: string): ResourceColumn<T> {
  return timeRangeColumn<T>(title, { dataIndex: '__range', keys: ['start', 'end'] });
}

export interface MeterTableProps {
  headerTitle: string;
  /** only electric (1) or water (2) meters */
  kind?: number;
  columnsAfter?: ResourceColumn<MeterRow>[];
  rowActions?(r: MeterRow, helpers: { reload(): void }): ReactNode[];
  toolBar?(helpers: { reload(): void }): ReactNode[];
  selection?: MeterSelection;
  actionRef?: MutableRefObject<ActionType | undefined>;
  /** rows whose command is in progress (shown as 执行中) */
  busy?: Set<number>;
  params?: Record<string, unknown>;
}

/** The meters ticked in a ControlMeterTable: their ids and rows; `onChange([], [])` clears them. */
export interface MeterSelection {
  keys: number[];
  rows: MeterRow[];
  onChange(keys: number[], rows: MeterRow[]): void;
}

/** A page's ticked meters, given to ControlMeterTable as its `selection`. */
export function useMeterSelection(): MeterSelection {
  const [keys, setKeys] = useState<number[]>([]);
  const [rows, setRows] = useState<MeterRow[]>([]);
  return { keys, rows, onChange: (k, r) => { setKeys(k); setRows(r); } };
}

/** The meters of the control pages (GET control/meter/list), beside the area tree where the route has it. */
export function ControlMeterTable(p: MeterTableProps) {
  const { busy } = p;
  const columns = useMemo<ResourceColumn<MeterRow>[]>(
    () => [
      keywordColumn<MeterRow>(),
      ...meterColumns<MeterRow>('name', { ellipsis: true }),
      // 区域 / 房间, 通断 / 在线 (with 执行中 and 保电中) and 类别 / 相位 each in one cell: beside the area tree at
      // 1440×900 the whole table fits, no column under the fixed 操作
      { title: '区域 / 房间', dataIndex: 'roomName', render: (_d, r) => <Place area={r.areaName} room={r.roomName} width={150} /> },
      // the readings right after the room: at 1440×900 beside the area tree they stay in view
      {
        title: '最新读数', dataIndex: 'lastTotal', width: 120, align: 'right',
        render: (_d, r) => (r.lastTotal == null ? '-' : <span data-testid={`reading-${r.id}`}>{`${r.lastTotal} ${r.unit}`}</span>),
      },
      { title: '读数时间', dataIndex: 'lastReadAt', width: 170, render: (_d, r) => timeText(r.lastReadAt) || '-' },
      { title: '通断', dataIndex: 'valveState', hideInTable: true, search: true, valueEnum: { 1: { text: '通（合闸/开阀）' }, 0: { text: '断（拉闸/关阀）' } } },
      { title: '在线', dataIndex: 'online', hideInTable: true, search: true, valueEnum: { true: { text: '在线' }, false: { text: '离线' } } },
      { title: '通断 / 在线', dataIndex: 'valveState', key: 'state', ...fitContent, render: (_d, r) => <MeterState row={r} busy={!!busy?.has(r.id)} /> },
      ...(p.kind ? [] : [{ title: '类别', dataIndex: 'kind', valueEnum: KIND_ENUM, search: true, hideInTable: true } as ResourceColumn<MeterRow>]),
      {
        title: p.kind ? '相位' : '类别 / 相位', dataIndex: 'phaseName', key: 'kindPhase', ...fitContent,
        render: (_d, r) => (p.kind ? [] : [METER_KINDS[r.kind]]).concat(r.phaseName ? [r.phaseName] : []).join(' / ') || '-',
      },
      ...(p.columnsAfter ?? []),
    ],
    [p.kind, p.columnsAfter, busy],
  );
  const params = useMemo(() => ({ ...(p.kind ? { kind: p.kind } : {}), ...(p.params ?? {}) }), [p.kind, p.params]);
  const innerRef = useRef<ActionType | undefined>(undefined);
  const actionRef = p.actionRef ?? innerRef;
  const shown = useRef(new Set<number>());
  useLiveReload(shown, actionRef);
  return (
    <ResourceTable<MeterRow>
      headerTitle={p.headerTitle}
      columns={columns}
      actionRef={actionRef}
      params={params}
      list={async (q) => {
        const r = (await controlApi.meters(q)) as { code: string; data: MeterRow[]; count: number };
        shown.current = new Set(r.data.map((m) => m.id));
        return r;
      }}
      rowActions={p.rowActions ? (r, h) => p.rowActions!(r, h) : undefined}
      toolBar={p.toolBar}
      tableProps={
        p.selection
          ? {
              rowSelection: {
                selectedRowKeys: p.selection.keys,
                preserveSelectedRowKeys: true,
                onChange: (keys, rows) => p.selection!.onChange(keys.map(Number), rows as MeterRow[]),
              },
              tableAlertOptionRender: () => <a onClick={() => p.selection!.onChange([], [])}>清空选择</a>,
            }
          : undefined
      }
    />
  );
}

/** A meter's 通断 (with 执行中 while a command runs) over its 在线 (with 保电中/保水中 while protected). */
function MeterState({ row: r, busy }: { row: MeterRow; busy: boolean }) {
  return (
    <div style={{ whiteSpace: 'nowrap' }}>
      <Space size={4}>
        <span data-testid={`valve-${r.id}`}><ValveCell kind={r.kind} state={r.valveState} /></span>
        {busy || r.pending.some((k) => k === 'open' || k === 'close') ? <Tag color="processing">执行中</Tag> : null}
      </Space>
      <div>
        <Space size={4}>
          <OnlineCell online={r.online} />
          {r.protection ? (
            <Tooltip title={`${r.protection.reason}${r.protection.endAt ? `（至 ${timeText(r.protection.endAt)}）` : ''}`}>
              <Tag color="gold">{r.kind === 2 ? '保水中' : '保电中'}</Tag>
            </Tooltip>
          ) : null}
        </Space>
      </div>
    </div>
  );
}

/**
 * Live rows: a reading, on/off or online event of a meter on screen reloads the table (at most once
 * every 3 s), so values change without a click.
 */
function useLiveReload(shown: MutableRefObject<Set<number>>, actionRef: MutableRefObject<ActionType | undefined>) {
  useEffect(() => {
    if (import.meta.env.MODE === 'test') return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    let last = 0;
    const off = onDeviceEvent((e) => {
      if (e.type !== 'reading' && e.type !== 'online' && e.type !== 'command') return;
      if (e.type === 'command' && !isFinal(String(e.data.status))) return;
      if (!shown.current.has(Number(e.data.meterId)) || timer) return;
      timer = setTimeout(() => {
        timer = null;
        last = Date.now();
        void actionRef.current?.reload();
      }, Math.max(500, 3000 - (Date.now() - last)));
    });
    return () => {
      off();
      if (timer) clearTimeout(timer);
    };
  }, [shown, actionRef]);
}

/**
 * Commands being watched until they end: polled every 1.5 s (GET device/order?id=). `onDone` runs
 * for each command that reaches a final status (to refresh the row that shows its result).
 */
export function useCommandWatch(company: Company, onDone?: (c: Command) => void) {
  const [commands, setCommands] = useState<Map<number, Command>>(new Map());
  const doneRef = useRef(onDone);
  doneRef.current = onDone;
  const live = useRef(new Map<number, Command>());

  const watch = useCallback((list: Command[]) => {
    for (const c of list) {
      live.current.set(c.id, c);
      if (isFinal(c.status)) doneRef.current?.(c);
    }
    setCommands(new Map(live.current));
  }, []);

  const clear = useCallback(() => {
    live.current = new Map([...live.current].filter(([, c]) => !isFinal(c.status)));
    setCommands(new Map(live.current));
  }, []);

  const refresh = useCallback(
    async (id: number) => {
      const c = await controlApi.command(id, company);
      const before = live.current.get(id);
      const wasFinal = before ? isFinal(before.status) : false;
      live.current.set(id, { ...before, ...c, meterName: c.meterName || before?.meterName || '' });
      if (isFinal(c.status) && !wasFinal) doneRef.current?.(c);
    },
    [company],
  );

  const pendingIds = [...commands.values()].filter((c) => !isFinal(c.status)).map((c) => c.id).join(',');

  // live: the websocket's command events say when a watched command changed (not in unit tests)
  const watching = pendingIds !== '';
  useEffect(() => {
    if (!watching || import.meta.env.MODE === 'test') return;
    return onDeviceEvent((e) => {
      if (e.type !== 'command') return;
      const id = Number(e.data.id);
      const known = live.current.get(id);
      if (!known || isFinal(known.status)) return;
      void refresh(id)
        .then(() => setCommands(new Map(live.current)))
        .catch(() => {});
    });
  }, [watching, refresh]);

  // and polling, every 1.5 s (every 5 s while the websocket delivers events)
  useEffect(() => {
    if (!pendingIds) return;
    let stopped = false;
    let last = 0;
    const timer = setInterval(async () => {
      if (liveReady() && Date.now() - last < 5000) return;
      last = Date.now();
      for (const id of pendingIds.split(',').map(Number)) {
        if (stopped) return;
        try {
          await refresh(id);
        } catch {
          /* try again on the next round */
        }
      }
      if (!stopped) setCommands(new Map(live.current));
    }, 1500);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [pendingIds, refresh]);

  const list = useMemo(() => [...commands.values()].sort((a, b) => b.id - a.id), [commands]);
  const busyMeters = useMemo(() => new Set(list.filter((c) => !isFinal(c.status) && c.meterId != null).map((c) => c.meterId!)), [list]);
  return { commands: list, watch, clear, busyMeters };
}
