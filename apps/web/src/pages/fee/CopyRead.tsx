// 抄表结算 (/copyread): the settlements of the picked area — each priced reading of a meter
// (CopySettlement/List) with the totals of the same filter (CopySettlementData), 导出 to .xlsx
// (CopySettlement/Export, finance.logExport; 成功！/失败) and 立即结算 of the selected meters
// (finance.settle). Two more tabs: the owners' monthly bills (usersettlementbill/list, with 账单缴费
// of the arrears, finance.billPay) and the meters' energy bills (usersettlementbill/energyBill).
import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Popconfirm, Tabs, Tag } from 'antd';
import { CalculatorOutlined, DownloadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import type { ActionType } from '@ant-design/pro-components';
import { ResourceTable, type ListQuery, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { useCan } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { billingApi, type MeterBillRow, type OwnerBillRow, type Paged, type SettlementData, type SettlementRow } from './billingApi.ts';
import { Figures, Money, filtersOf, moneyColumn, rangeColumn, timeColumn, useCompanyPick } from './common.tsx';
import { fmtTime } from './money.ts';
import { BillPayDialog, arrearsOf, type BillRoom } from './BillPayDialog.tsx';

type Row = SettlementRow & Record<string, unknown>;
type BillRow = OwnerBillRow & Record<string, unknown>;
type MeterRow = MeterBillRow & Record<string, unknown>;

const NOTE_COLORS: Record<string, string> = { '': 'success', vacant: 'default', shared: 'blue', backwards: 'red', closed: 'default' };
const KIND_ENUM = { 1: { text: '电表' }, 2: { text: '水表' } };

/** The 月份 search field → month (YYYY-MM). */
export function monthParam(v: unknown): Record<string, string> {
  if (!v) return {};
  const m = typeof v === 'string' ? v.slice(0, 7) : dayjs(v as string).format('YYYY-MM');
  return /^\d{4}-\d{2}$/.test(m) ? { month: m } : {};
}

export function settlementColumns(): ResourceColumn<Row>[] {
  return [
    { title: '表具', key: 'meterName', dataIndex: 'meterName', search: true, render: (_d, r) => r.meterName || r.address },
    { title: '表地址', key: 'address', dataIndex: 'address', search: true },
    { title: '类型', key: 'meterKind', dataIndex: 'meterKind', search: true, valueType: 'select', valueEnum: KIND_ENUM, renderText: (v) => String(v) },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true, render: (_d, r) => r.roomName ?? '-' },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: (_d, r) => r.ownerName ?? '-' },
    { title: '上次读数', key: 'prevTotal', dataIndex: 'prevTotal', align: 'right' },
    { title: '本次读数', key: 'total', dataIndex: 'total', align: 'right' },
    { title: '倍率', key: 'multiplier', dataIndex: 'multiplier', align: 'right' },
    { title: '用量', key: 'quantity', dataIndex: 'quantity', align: 'right', render: (_d, r) => `${r.quantity} ${r.unit}` },
    moneyColumn<Row>('金额', 'amount'),
    { title: '结算周期', key: 'periodKey', dataIndex: 'periodKey' },
    { title: '状态', key: 'note', dataIndex: 'note', render: (_d, r) => <Tag color={NOTE_COLORS[r.note] ?? 'default'}>{r.noteText}</Tag> },
    timeColumn<Row>('上次抄表', 'prevReadAt'),
    timeColumn<Row>('本次抄表', 'readAt'),
    timeColumn<Row>('结算时间', 'settledAt'),
    rangeColumn<Row>('抄表时间'),
  ];
}

export function SettlementFigures({ data, loading }: { data?: SettlementData; loading: boolean }) {
  return (
    <Figures
      loading={loading && !data}
      items={[
        { title: `电表结算（${data?.electric.count ?? 0} 笔）`, value: <Money value={data?.electric.amount ?? '0.00'} />, suffix: `${data?.electric.quantity ?? '0'} kWh` },
        { title: `水表结算（${data?.water.count ?? 0} 笔）`, value: <Money value={data?.water.amount ?? '0.00'} />, suffix: `${data?.water.quantity ?? '0'} m³` },
        { title: '结算金额合计', value: <Money value={data?.amount ?? '0.00'} strong />, testId: 'settlement-amount' },
        { title: '待结算表具', value: data?.pendingMeters ?? 0, suffix: '块' },
        { title: '未设收费方案', value: data?.noSchemeMeters ?? 0, suffix: '块', danger: (data?.noSchemeMeters ?? 0) > 0 },
        { title: '最近结算', value: fmtTime(data?.lastSettledAt) || '-' },
      ]}
    />
  );
}

function SettlementTab() {
  const company = useCompanyPick();
  const canExport = useCan('finance.logExport');
  const canSettle = useCan('finance.settle');
  const [filters, setFilters] = useState<Record<string, unknown> | null>(null);
  const [selected, setSelected] = useState<Row[]>([]);
  const [exporting, setExporting] = useState(false);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const columns = useMemo(() => settlementColumns(), []);
  const data = useQuery({ queryKey: ['settlementData', filters], queryFn: () => billingApi.settlementData(filters ?? {}), enabled: filters != null });

  const list = useCallback((q: ListQuery) => {
    setFilters(filtersOf(q));
    return billingApi.settlements(q) as Promise<Paged<Row>>;
  }, []);

  const doExport = async () => {
    setExporting(true);
    try {
      await billingApi.exportSettlements(filters ?? {});
    } catch {
      // 失败 was shown
    } finally {
      setExporting(false);
    }
  };

  const settle = async () => {
    const meterIds = [...new Set(selected.map((r) => r.meterId))];
    try {
      const r = await billingApi.settleNow({ meterIds }, company);
      toast.success(`结算完成：${r.meters} 块表具，新结算 ${r.readings} 条读数，扣费 ${r.deductions} 笔，金额 ${r.amount} 元`);
      setSelected([]);
      void actionRef.current?.reload();
      void data.refetch();
    } catch {
      // the request wrapper showed why
    }
  };

  return (
    <>
      <SettlementFigures data={data.data} loading={!data.isError} />
      <ResourceTable<Row>
        headerTitle="抄表结算明细"
        columns={columns}
        list={list}
        actionRef={actionRef}
        toolBar={() => [
          canSettle && (
            <Popconfirm
              key="settle"
              title={`对所选 ${new Set(selected.map((r) => r.meterId)).size} 块表具立即结算未结算的读数？`}
              okText="确定"
              cancelText="取消"
              disabled={selected.length === 0}
              onConfirm={settle}
            >
              <Button icon={<CalculatorOutlined />} disabled={selected.length === 0}>立即结算</Button>
            </Popconfirm>
          ),
          canExport && (
            <Button key="export" icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()}>
              导出
            </Button>
          ),
        ].filter(Boolean) as React.ReactNode[]}
        tableProps={
          canSettle
            ? { rowSelection: { selectedRowKeys: selected.map((r) => r.id), onChange: (_k, rows) => setSelected(rows as Row[]) }, tableAlertRender: false }
            : undefined
        }
      />
    </>
  );
}

function billColumns(): ResourceColumn<BillRow>[] {
  return [
    { title: '月份', key: 'monthPick', dataIndex: 'month', valueType: 'dateMonth', search: { transform: monthParam }, render: (_d, r) => r.month },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true },
    { title: '用电量', key: 'electricQuantity', dataIndex: 'electricQuantity', align: 'right', render: (_d, r) => `${r.electricQuantity} kWh` },
    moneyColumn<BillRow>('电费', 'electricAmount'),
    { title: '用水量', key: 'waterQuantity', dataIndex: 'waterQuantity', align: 'right', render: (_d, r) => `${r.waterQuantity} m³` },
    moneyColumn<BillRow>('水费', 'waterAmount'),
    moneyColumn<BillRow>('其他费用', 'fees'),
    moneyColumn<BillRow>('费用合计', 'total'),
    moneyColumn<BillRow>('充值', 'prepay'),
    moneyColumn<BillRow>('补贴', 'subsidy'),
    moneyColumn<BillRow>('电费余额', 'electricBalance'),
    moneyColumn<BillRow>('水费余额', 'waterBalance'),
    moneyColumn<BillRow>('欠费', 'arrears'),
    { title: '状态', key: 'status', dataIndex: 'status', render: (_d, r) => <Tag color={r.status === 0 ? 'red' : 'success'}>{r.statusText}</Tag> },
  ];
}

/** The owners' monthly bills with 账单缴费 (also the hidden /energyTotal page). */
export function OwnerBills() {
  const company = useCompanyPick();
  const canPay = useCan('finance.billPay');
  const [paying, setPaying] = useState<BillRoom | null>(null);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const columns = useMemo(() => billColumns(), []);
  return (
    <>
      <ResourceTable<BillRow>
        headerTitle="用户月度账单"
        rowKey="ownerId"
        columns={columns}
        actionRef={actionRef}
        list={(q) => billingApi.ownerBills(q) as Promise<Paged<BillRow>>}
        rowActions={canPay ? (r) => {
          const roomId = r.roomId;
          return [roomId != null && (arrearsOf(r.electricBalance) || arrearsOf(r.waterBalance)) && <a key="pay" onClick={() => setPaying({ ...r, roomId, roomName: r.roomName ?? '' })}>缴费</a>];
        } : undefined}
      />
      {paying && (
        <BillPayDialog
          room={paying}
          company={company}
          onDone={() => void actionRef.current?.reload()}
          onClose={() => setPaying(null)}
        />
      )}
    </>
  );
}

function meterBillColumns(): ResourceColumn<MeterRow>[] {
  const s = (k: string) => (_d: unknown, r: MeterRow) => String(r[k] ?? '-');
  return [
    { title: '月份', key: 'monthPick', dataIndex: 'month', valueType: 'dateMonth', search: { transform: monthParam }, render: s('month') },
    { title: '方案类型', key: 'SchemeType', dataIndex: 'SchemeType', hideInTable: true, search: true, valueType: 'select', valueEnum: { 1: { text: '电费' }, 2: { text: '水费' } } },
    { title: '表具', key: 'meterName', dataIndex: 'meterName', render: (_d, r) => String(r.meterName || r.address) },
    { title: '表地址', key: 'address', dataIndex: 'address' },
    { title: '类型', key: 'meterKind', dataIndex: 'meterKind', render: (_d, r) => (Number(r.meterKind) === 2 ? '水表' : '电表') },
    { title: '收费方案', key: 'schemeName', dataIndex: 'schemeName', render: s('schemeName') },
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true, render: s('roomName') },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: s('ownerName') },
    { title: '起码', key: 'startTotal', dataIndex: 'startTotal', align: 'right' },
    { title: '止码', key: 'endTotal', dataIndex: 'endTotal', align: 'right' },
    { title: '用量', key: 'quantity', dataIndex: 'quantity', align: 'right', render: (_d, r) => `${String(r.quantity)} ${String(r.unit ?? '')}` },
    moneyColumn<MeterRow>('金额', 'amount'),
    { title: '结算次数', key: 'readings', dataIndex: 'readings', align: 'right' },
    timeColumn<MeterRow>('末次抄表', 'lastReadAt'),
  ];
}

function MeterBillTab() {
  const columns = useMemo(() => meterBillColumns(), []);
  return (
    <ResourceTable<MeterRow>
      headerTitle="表具能耗账单"
      rowKey="meterId"
      columns={columns}
      list={(q) => billingApi.meterBills(q)}
    />
  );
}

export default function CopyRead() {
  return (
    <Tabs
      items={[
        { key: 'settlement', label: '抄表结算', children: <SettlementTab /> },
        { key: 'bill', label: '用户账单', children: <OwnerBills /> },
        { key: 'meterBill', label: '能耗账单', children: <MeterBillTab /> },
      ]}
    />
  );
}
