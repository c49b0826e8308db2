// The data-warning pages (数据预警) share this one page, parameterised by the warning kinds and the
// meter kind they show: device exceptions from the control module (GET device/unusual/list), handled
// one by one or in bulk with a note (PUT device/unusual/deal), plus a live list where the page has one
// (meters switched off now, meters whose reads keep failing). A reading held as implausible (读数异常跳变)
// is not 处理'd: a person accepts it (it is billed) or rejects it (never billed), one by one.
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { Badge, Button, Form, Input, Modal, Tabs, Tag, type FormInstance } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { WARNING_KINDS, type WarningKind } from '@meter/contracts';
import type { Paged } from '../../api/request.ts';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { hasOperation, useSession } from '../../app/session.ts';
import { fitContent, ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { LogTable, type LogRow } from '../../components/LogTable.tsx';
import { ValveCell } from '../records/deviceFields.tsx';
import { Clipped, Place, Stacked } from '../../components/cells.tsx';
import { warningApi, type MeterListRow, type PageQuery, type Warning } from '../control/api.ts';
import { keywordColumn, meterColumns, meterStateColumns, rangeColumn, timeText, useCompany } from '../control/shared.tsx';

type Row = Warning & Record<string, unknown>;
type MeterRowT = LogRow<MeterListRow>;

const state = (v: unknown, kind: number | null) => (v === 1 ? (kind === 2 ? '开阀' : '合闸') : v === 0 ? (kind === 2 ? '关阀' : '拉闸') : '未知');

/** （time） after a reading when the detail has its time, else nothing */
const at = (t: unknown) => (t ? `（${timeText(t)}）` : '');

/** What a warning's detail says, in words. */
export function detailText(w: Pick<Warning, 'kind' | 'detail' | 'meterKind'>): string {
  const d = w.detail ?? {};
  switch (w.kind) {
    case 'backwards':
      return `${String(d.reason ?? '')}：本次 ${String(d.total ?? '')}${at(d.readAt)}，上次 ${String(d.lastTotal ?? '')}${at(d.lastReadAt)}`;
    case 'implausible':
      return `${String(d.reason ?? '')}：本次 ${String(d.total ?? '')}${at(d.readAt)}，上次 ${String(d.lastTotal ?? '')}${at(d.lastReadAt)}，用量 ${String(d.used ?? '')}，上限 ${String(d.limit ?? '')}`;
    case 'consumption_closed':
      return `${timeText(d.since)} 后读数由 ${String(d.from ?? '')} 增至 ${String(d.to ?? '')}`;
    case 'valve_mismatch':
      return `应为${state(d.expected, w.meterKind)}，实际${state(d.actual, w.meterKind)}`;
    case 'offline':
      return d.lastSeenAt ? `最后通信 ${timeText(d.lastSeenAt)}` : '从未上线';
    case 'clock_drift':
      return `表计时钟偏差 ${String(d.driftSeconds ?? '')} 秒`;
    case 'no_read':
      return d.lastReadAt ? `最后读数 ${timeText(d.lastReadAt)}` : '从未有读数';
    case 'read_fail':
      return `连续 ${String(d.fails ?? '')} 次抄表失败${d.lastFailAt ? `，最近 ${timeText(d.lastFailAt)}` : ''}${d.lastError ? `：${String(d.lastError)}` : ''}`;
    case 'rate_error':
      return `档案倍率 ${String(d.expected ?? '')}，表内倍率 ${String(d.actual ?? '')}`;
    case 'low_battery':
    case 'valve_fault': {
      const at = d.readAt ?? d.reportedAt;
      return at ? `发现于 ${timeText(at)}` : '';
    }
    default:
      // a kind without words of its own: no field names shown to the user
      return '';
  }
}

export interface WarningsProps {
  title: string;
  /** device_warnings kinds shown on this page */
  kinds: WarningKind[];
  /** 1 电表, 2 水表 (omit for both) */
  meterKind?: 1 | 2;
  /** a second tab with a live meter list */
  live?: { label: string; list: 'noPower' | 'readFails' };
}

export default function Warnings({ title, kinds, meterKind, live }: WarningsProps) {
  const company = useCompany();
  // marking handled needs the operation key (device.edit), as the server checks
  const canDeal = hasOperation(useSession(), 'device.edit');
  const ref = useRef<ActionType | undefined>(undefined);
  const [keys, setKeys] = useState<number[]>([]);
  const [dealing, setDealing] = useState<number[] | null>(null);
  const [form] = Form.useForm<{ memo: string }>();
  const [reviewing, setReviewing] = useState<{ row: Row; accept: boolean } | null>(null);
  const [reviewForm] = Form.useForm<{ memo: string }>();
  const canReview = useCan('device.manualRead');

  const review = async () => {
    if (!reviewing) return;
    const memo = (reviewForm.getFieldValue('memo') ?? '').trim();
    try {
      await warningApi.review(reviewing.row.id, reviewing.accept, memo, company);
      toast.success(reviewing.accept ? '已接受该读数，将按该读数计费' : '已驳回该读数，不计费');
      setReviewing(null);
      ref.current?.reload();
    } catch {
      // shown by the request wrapper
    }
  };

  const deal = async () => {
    if (!dealing) return;
    const memo = (form.getFieldValue('memo') ?? '').trim();
    try {
      const r = await warningApi.deal(dealing, memo, company);
      toast.success(r.skipped ? `已处理 ${r.handled} 条，${r.skipped} 条此前已处理` : `已处理 ${r.handled} 条`);
      setDealing(null);
      setKeys([]);
      ref.current?.reload();
    } catch {
      // shown by the request wrapper
    }
  };

  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      { title: '关键字', dataIndex: 'kw', hideInTable: true, search: true, fieldProps: { placeholder: '表号 / 名称 / 采集器 / 房间' } },
      {
        title: '预警类型', dataIndex: 'type', width: 1, search: kinds.length > 1,
        valueEnum: Object.fromEntries(kinds.map((k) => [k, { text: WARNING_KINDS[k] }])),
        render: (_d, r) => <Tag color="volcano">{r.kindText}</Tag>,
      },
      { title: '表号', dataIndex: 'address', width: 140, render: (_d, r) => r.address || (r.collectorImei ? `采集器 ${r.collectorImei}` : '-') },
      { title: '名称', dataIndex: 'meterName', render: (_d, r) => r.meterName || r.collectorName || '-' },
      { title: '区域 / 房间', dataIndex: 'roomName', render: (_d, r) => <Place area={r.areaName} room={r.roomName} width={150} /> },
      { title: '详情', dataIndex: 'detail', render: (_d, r) => <Clipped text={detailText(r) || '-'} width={200} /> },
      { title: '通断', dataIndex: 'valveState', width: 80, render: (_d, r) => (r.meterId ? <ValveCell kind={r.meterKind ?? 1} state={r.valveState} /> : '-') },
      // first and latest sighting in one cell, handling state, person and note in another: the page
      // fits 1440 px with no column under the fixed 操作
      { title: '发现时间', dataIndex: 'createdAt', width: 170, render: (_d, r) => <Seen first={r.createdAt} last={r.lastSeenAt} /> },
      {
        title: '处理状态', dataIndex: 'status', hideInTable: true, search: true,
        valueEnum: { 0: { text: '未处理', status: 'Error' }, 1: { text: '已处理', status: 'Success' } },
      },
      { title: '处理情况', dataIndex: 'handleMemo', ...fitContent, render: (_d, r) => <Handling row={r} /> },
      rangeColumn<Row>('发现时间'),
    ],
    [kinds],
  );
  const params = useMemo(() => ({ type: kinds.join(','), ...(meterKind ? { kind: meterKind } : {}) }), [kinds, meterKind]);

  const warnings: ReactNode = (
    <ResourceTable<Row>
      headerTitle={title}
      columns={columns}
      actionRef={ref}
      pageSize={20}
      params={params}
      list={(q: PageQuery) => {
        // a type picked in the search form narrows the page's kinds
        const type = kinds.find((k) => k === q.type) ?? kinds.join(',');
        return warningApi.list({ ...q, type }) as Promise<Paged<Row>>;
      }}
      rowActions={(r) => {
        if (r.status !== 0) return [];
        if (r.kind === 'implausible') {
          return canReview
            ? [
                <a key="accept" onClick={() => { reviewForm.resetFields(); setReviewing({ row: r, accept: true }); }}>接受读数</a>,
                <a key="reject" onClick={() => { reviewForm.resetFields(); setReviewing({ row: r, accept: false }); }}>驳回读数</a>,
              ]
            : [];
        }
        return !canDeal ? [] : [<a key="deal" onClick={() => { form.resetFields(); setDealing([r.id]); }}>处理</a>];
      }}
      toolBar={() => !canDeal ? [] : [
        <Button key="deal" disabled={!keys.length} onClick={() => { form.resetFields(); setDealing(keys); }}>
          批量处理{keys.length ? `（${keys.length}）` : ''}
        </Button>,
      ]}
      tableProps={{
        rowSelection: {
          selectedRowKeys: keys,
          onChange: (k) => setKeys(k.map(Number)),
          getCheckboxProps: (r) => ({ disabled: r.status !== 0 || r.kind === 'implausible' }),
        },
      }}
    />
  );

  return (
    <>
      {live ? (
        <Tabs items={[{ key: 'w', label: '预警记录', children: warnings }, { key: 'live', label: live.label, children: <LiveMeters which={live.list} meterKind={meterKind} title={live.label} /> }]} />
      ) : (
        warnings
      )}
      <Modal open={!!dealing} title="处理预警" okText="确定" cancelText="取消" onOk={() => void deal()} onCancel={() => setDealing(null)} destroyOnHidden>
        <p>将 {dealing?.length ?? 0} 条预警标记为已处理。</p>
        <MemoForm form={form} name="warning-deal" placeholder="例如：已现场检查，更换阀门" />
      </Modal>
      <Modal
        open={!!reviewing}
        title={reviewing?.accept ? '接受读数' : '驳回读数'}
        okText={reviewing?.accept ? '接受并计费' : '驳回'}
        cancelText="取消"
        onOk={() => void review()}
        onCancel={() => setReviewing(null)}
        destroyOnHidden
      >
        {reviewing && (
          <p>
            {reviewing.row.address} {detailText(reviewing.row)}。
            {reviewing.accept
              ? '接受后该读数及其后待确认的读数按实际计费，之后的读数以它为准。'
              : '驳回后该读数不计费，之后的读数仍以上一个正常读数为准。'}
          </p>
        )}
        <MemoForm form={reviewForm} name="warning-review" placeholder="例如：已现场核实表计读数" />
      </Modal>
    </>
  );
}

/** 首次 and, when later, 最近 sighting of a warning. */
function Seen({ first, last }: { first: unknown; last: unknown }) {
  const a = timeText(first);
  const b = timeText(last);
  return <Stacked nowrap top={a || '-'} below={b && b !== a ? `最近 ${b}` : null} />;
}

/** A warning's handling: its state, and who handled it with what note. */
function Handling({ row }: { row: Row }) {
  if (row.status !== 1) return <Badge status="error" text="未处理" />;
  const memo = row.handleMemo ? `：${row.handleMemo}` : '';
  return <Stacked top={<Badge status="success" text="已处理" />} below={<Clipped text={`${row.handledByName || '系统'}${memo}`} width={100} />} />;
}

/** The 处理说明 a person leaves when handling or reviewing warnings. */
function MemoForm({ form, name, placeholder }: { form: FormInstance<{ memo: string }>; name: string; placeholder: string }) {
  return (
    <Form form={form} layout="vertical" name={name}>
      <Form.Item label="处理说明" name="memo">
        <Input.TextArea rows={3} maxLength={500} showCount placeholder={placeholder} />
      </Form.Item>
    </Form>
  );
}

/** Meters switched off now (device/nopower/list), or whose last reads failed in a row (device/read/fail/list). */
function LiveMeters({ which, meterKind, title }: { which: 'noPower' | 'readFails'; meterKind?: number; title: string }) {
  const columns = useMemo<ResourceColumn<MeterRowT>[]>(
    () => [
      keywordColumn<MeterRowT>(),
      ...(which === 'readFails' ? [{ title: '连续失败次数 ≥', dataIndex: 'num', hideInTable: true, search: true, valueType: 'digit', initialValue: 2 } as ResourceColumn<MeterRowT>] : []),
      ...meterColumns<MeterRowT>(),
      { title: '房间', dataIndex: 'roomName' },
      { title: '区域', dataIndex: 'areaName' },
      ...meterStateColumns<MeterRowT>(),
      ...(which === 'noPower'
        ? [{ title: '断开时间', dataIndex: 'closedAt', width: 170, render: (_d: unknown, r: MeterRowT) => timeText(r.closedAt) || '-' } as ResourceColumn<MeterRowT>]
        : [
            { title: '连续失败', dataIndex: 'fails', width: 90, align: 'right' } as ResourceColumn<MeterRowT>,
            { title: '最近失败', dataIndex: 'lastFailAt', width: 170, render: (_d: unknown, r: MeterRowT) => timeText(r.lastFailAt) } as ResourceColumn<MeterRowT>,
            { title: '失败原因', dataIndex: 'lastError', ellipsis: true } as ResourceColumn<MeterRowT>,
          ]),
      { title: '最新读数', dataIndex: 'lastTotal', width: 110, align: 'right', render: (_d, r) => r.lastTotal ?? '-' },
      { title: '读数时间', dataIndex: 'lastReadAt', width: 170, render: (_d, r) => timeText(r.lastReadAt) || '-' },
    ],
    [which],
  );
  const params = useMemo(() => (meterKind ? { kind: meterKind } : {}), [meterKind]);
  return <LogTable<MeterListRow> title={title} columns={columns} params={params} list={which === 'noPower' ? warningApi.noPower : warningApi.readFails} />;
}

// ---- the seven pages ----------------------------------------------------------------------------

export function WarnElectricOff() {
  return <Warnings title="电表断电预警" meterKind={1} kinds={['consumption_closed', 'valve_mismatch']} live={{ label: '当前断电电表', list: 'noPower' }} />;
}
export function WarnWaterOff() {
  return <Warnings title="水表关阀预警" meterKind={2} kinds={['consumption_closed', 'valve_mismatch']} live={{ label: '当前关阀水表', list: 'noPower' }} />;
}
export function WarnElectricError() {
  return <Warnings title="电表异常预警" meterKind={1} kinds={['implausible', 'backwards', 'clock_drift', 'low_battery', 'offline']} />;
}
export function WarnWaterValveError() {
  return <Warnings title="水表阀门异常" meterKind={2} kinds={['valve_fault', 'valve_mismatch', 'low_battery']} />;
}
export function WarnElectricRateError() {
  return <Warnings title="电表倍率异常" meterKind={1} kinds={['rate_error']} />;
}
export function WarnCopyReadError() {
  return <Warnings title="抄表异常" kinds={['implausible', 'read_fail', 'no_read', 'backwards', 'offline']} live={{ label: '连续抄表失败', list: 'readFails' }} />;
}
