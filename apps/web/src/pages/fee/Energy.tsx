// 水电缴费 (/energy): the rooms of the picked area (beside the area tree) with their owner and the
// electricity and water balances (GetEnergyRoom), the totals of the same filter above the list
// (GetEnergyRoomSum), a room's account detail in a drawer (GetEnergyRoomDetail), and the counter
// operations 充值 / 退费 / 补贴 (finance.prepay / finance.refund / finance.subsidy). After an operation
// the row shows the new balance at once and the totals reload.
import { useCallback, useMemo, useRef, useState } from 'react';
import type { ActionType } from '@ant-design/pro-components';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ResourceTable, type ListQuery, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { useCan } from '../../app/session.ts';
import { billingApi, type CounterResult, type EnergyRoomRow, type EnergyRoomSum, type Paged, type Wallet } from './billingApi.ts';
import { Balance, Figures, Money, filtersOf, useCompanyPick } from './common.tsx';
import { Clipped } from '../../components/cells.tsx';
import { CounterDialog, OP_KEY, OP_TEXT, type CounterOp } from './CounterDialog.tsx';
import { RoomDetailDrawer } from './RoomDetailDrawer.tsx';
import { OnlinePayDialog } from './OnlinePayDialog.tsx';

type Row = EnergyRoomRow & Record<string, unknown>;

const NOWRAP = { whiteSpace: 'nowrap' } as const;
type Balances = Record<number, Partial<Record<Wallet, string>>>;

/** A row with the balances a counter operation just returned. */
export function withBalances(row: EnergyRoomRow, patch: Balances): EnergyRoomRow {
  const p = patch[row.roomId];
  if (!p) return row;
  return { ...row, electricBalance: p.electric ?? row.electricBalance, waterBalance: p.water ?? row.waterBalance };
}

export function energyColumns(extra: ResourceColumn<Row>[] = []): ResourceColumn<Row>[] {
  return [
    // a room name may hold 64 characters and an area path more: both are clipped (the whole text in a tooltip), so the
    // fixed 房间 column and 位置 cannot push 表具 under the fixed 操作 at 1440×900
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true, fixed: 'left', render: (_d, r) => <Clipped text={r.roomName} width={140} strong /> },
    { title: '位置', key: 'areaName', dataIndex: 'areaName', render: (_d, r) => (r.areaName ? <Clipped text={r.areaName} width={160} /> : '-') },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: (_d, r) => r.ownerName ?? <Tag>空置</Tag> },
    { title: '手机号码', key: 'ownerPhone', dataIndex: 'ownerPhone', search: true, render: (_d, r) => r.ownerPhone ?? '-' },
    {
      title: '电费余额',
      key: 'electricBalance',
      dataIndex: 'electricBalance',
      align: 'right',
      render: (_d, r) => (r.ownerId ? <Balance value={r.electricBalance} alarm={r.electricAlarm} alarmText={r.electricAlarmText} testId={`electric-${r.roomId}`} /> : '-'),
    },
    {
      title: '水费余额',
      key: 'waterBalance',
      dataIndex: 'waterBalance',
      align: 'right',
      render: (_d, r) => (r.ownerId ? <Balance value={r.waterBalance} alarm={r.waterAlarm} alarmText={r.waterAlarmText} testId={`water-${r.roomId}`} /> : '-'),
    },
    {
      title: '表具',
      key: 'meters',
      dataIndex: 'meters',
      render: (_d, r) => (
        <Space size={4}>
          <span>电 {r.electricMeters ?? 0}</span>
          <span>水 {r.waterMeters ?? 0}</span>
          {r.closedMeters > 0 && <Tag color="red">断 {r.closedMeters}</Tag>}
        </Space>
      ),
    },
    // the page's own columns (/compre's other balances) after the meters, which stay in view at 1440×900
    ...extra,
    { title: '仅看欠费', key: 'arrears', dataIndex: 'arrears', hideInTable: true, search: true, valueType: 'select', valueEnum: { 1: { text: '是' } } },
    { title: '仅看报警', key: 'alarm', dataIndex: 'alarm', hideInTable: true, search: true, valueType: 'select', valueEnum: { 1: { text: '是' } } },
  ];
}

interface Open {
  op: CounterOp;
  row: EnergyRoomRow;
}

export function EnergySummary({ sum, loading }: { sum?: EnergyRoomSum; loading: boolean }) {
  return (
    <Figures
      loading={loading && !sum}
      items={[
        { title: `房间数（在住 ${sum?.occupied ?? 0}）`, value: sum?.rooms ?? 0, suffix: '间' },
        { title: '电费余额合计', value: <Money value={sum?.electricBalance ?? '0.00'} />, testId: 'sum-electric' },
        { title: '水费余额合计', value: <Money value={sum?.waterBalance ?? '0.00'} />, testId: 'sum-water' },
        { title: '欠费房间', value: sum?.arrearsRooms ?? 0, suffix: '间', danger: (sum?.arrearsRooms ?? 0) > 0 },
        { title: '欠费金额', value: <Money value={sum?.arrears ?? '0.00'} /> },
        { title: '余额报警房间', value: sum?.alarmRooms ?? 0, suffix: '间' },
      ]}
    />
  );
}

export default function Energy() {
  const company = useCompanyPick();
  const navigate = useNavigate();
  const can = { prepay: useCan(OP_KEY.prepay), refund: useCan(OP_KEY.refund), subsidy: useCan(OP_KEY.subsidy) };
  const [filters, setFilters] = useState<Record<string, unknown> | null>(null);
  const [balances, setBalances] = useState<Balances>({});
  const [open, setOpen] = useState<Open | null>(null);
  const [detail, setDetail] = useState<number | null>(null);
  const [online, setOnline] = useState<EnergyRoomRow | null>(null);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const lastKey = useRef('');

  const sum = useQuery({
    queryKey: ['energyRoomSum', filters],
    queryFn: () => billingApi.energyRoomSum(filters ?? {}),
    enabled: filters != null,
  });

  const list = useCallback(async (q: ListQuery) => {
    const f = filtersOf(q);
    const key = JSON.stringify(f);
    if (key !== lastKey.current) {
      lastKey.current = key;
      setFilters(f);
    } else {
      void sum.refetch();
    }
    setBalances({});
    return billingApi.energyRooms(q) as Promise<Paged<Row>>;
  }, [sum]);

  const columns = useMemo(() => energyColumns().map((c) => {
    if (c.key !== 'electricBalance' && c.key !== 'waterBalance') return c;
    return { ...c, render: (d: unknown, r: Row, i: number, a: unknown, s: unknown) => (c.render as (...x: unknown[]) => unknown)(d, withBalances(r, balances), i, a, s) } as ResourceColumn<Row>;
  }), [balances]);

  const done = (row: EnergyRoomRow, result: CounterResult, wallet: Wallet) => {
    if (result.balance != null) setBalances((b) => ({ ...b, [row.roomId]: { ...b[row.roomId], [wallet]: result.balance } }));
    void sum.refetch();
  };

  const action = (op: CounterOp, r: Row) => {
    if (!can[op]) return null;
    if (!r.ownerId) {
      return (
        <Tooltip key={op} title="暂无在住业主">
          <Typography.Text type="secondary" style={NOWRAP}>{OP_TEXT[op]}</Typography.Text>
        </Tooltip>
      );
    }
    return <a key={op} style={NOWRAP} data-testid={`${op}-${r.roomId}`} onClick={() => setOpen({ op, row: withBalances(r, balances) })}>{OP_TEXT[op]}</a>;
  };

  return (
    <>
      <EnergySummary sum={sum.data} loading={!sum.isError} />
      <ResourceTable<Row>
        headerTitle="房间余额"
        rowKey="roomId"
        columns={columns}
        list={list}
        actionRef={actionRef}
        toolBar={() => [<Button key="total" onClick={() => navigate('/energyTotal')}>综合费用</Button>]}
        rowActions={(r) => [
          action('prepay', r),
          action('refund', r),
          action('subsidy', r),
          can.prepay && r.ownerId && <a key="online" style={NOWRAP} data-testid={`online-${r.roomId}`} onClick={() => setOnline(withBalances(r, balances))}>扫码充值</a>,
          <a key="detail" style={NOWRAP} onClick={() => setDetail(r.roomId)}>详情</a>,
        ]}
      />
      {open && (
        <CounterDialog
          op={open.op}
          room={open.row}
          company={company}
          wallet={open.row.electricMeters === 0 && open.row.waterMeters > 0 ? 'water' : 'electric'}
          onDone={(result, wallet) => done(open.row, result, wallet)}
          onClose={() => setOpen(null)}
        />
      )}
      {online && (
        <OnlinePayDialog
          room={online}
          company={company}
          onPaid={() => void actionRef.current?.reload()}
          onClose={() => setOnline(null)}
        />
      )}
      <RoomDetailDrawer roomId={detail} company={company} onClose={() => setDetail(null)} />
    </>
  );
}
