// 综合缴费 (/compre): the rooms of the picked area with their electricity, water and other-fee
// balances, this month's combined payments and the last one (GetSynthesizeRoom); 综合缴费 of several
// charge-code items at once (businessPay), 缴清欠费 (settleAccountsPay) and the account detail.
// The hidden route /comprePublic reuses it for 公摊电费 (charge codes of type 公摊费 only).
import { useMemo, useRef, useState } from 'react';
import { Button, Card, Table, Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import type { ActionType } from '@ant-design/pro-components';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { useCan } from '../../app/session.ts';
import { useAreaFilter } from '../../app/page.tsx';
import { billingApi, type EnergyRoomRow, type Paged } from './billingApi.ts';
import { moneyColumn, timeColumn, useCompanyPick } from './common.tsx';
import { energyColumns } from './Energy.tsx';
import { BillPayDialog, arrearsOf } from './BillPayDialog.tsx';
import { BusinessPayDialog } from './BusinessPayDialog.tsx';
import { RoomDetailDrawer } from './RoomDetailDrawer.tsx';
import { fmtTime } from './money.ts';

type Row = EnergyRoomRow & Record<string, unknown>;

export function compreColumns(): ResourceColumn<Row>[] {
  return energyColumns([
    moneyColumn<Row>('其他费用余额', 'otherBalance'),
    moneyColumn<Row>('本月综合缴费', 'monthPaid'),
    timeColumn<Row>('最近缴费', 'lastPaidAt'),
  ]);
}

/** 公摊表 of the picked area (SharedMeter/List): which meters are apportioned over which areas. */
function SharedMeters() {
  const area = useAreaFilter();
  const { data, isFetching } = useQuery({ queryKey: ['sharedMeters', area], queryFn: () => billingApi.sharedMeters({ ...area, index: 1, size: 100 }) });
  return (
    <Card size="small" title="公摊表" style={{ marginBottom: 12 }}>
      <Table
        size="small"
        rowKey="meterId"
        loading={isFetching}
        pagination={false}
        dataSource={data?.data ?? []}
        locale={{ emptyText: '该区域暂无公摊表' }}
        columns={[
          { title: '表具', dataIndex: 'meterName', render: (v, r) => v || r.address },
          { title: '表地址', dataIndex: 'address' },
          { title: '类型', dataIndex: 'meterKind', render: (v: number) => (v === 2 ? '水表' : '电表') },
          { title: '分摊区域', dataIndex: 'areaName' },
          { title: '分摊方式', dataIndex: 'methodText', render: (v: string) => <Tag>{v}</Tag> },
          { title: '分摊房间数', dataIndex: 'rooms' },
          { title: '设置时间', dataIndex: 'createdAt', render: (v) => fmtTime(v) },
        ]}
      />
      <Typography.Text type="secondary">公摊表的用量按分摊方式计入各房间的电费/水费；物业代收的公摊电费可在下表按房间缴纳。</Typography.Text>
    </Card>
  );
}

export function ComprePage({ publicFee = false }: { publicFee?: boolean }) {
  const company = useCompanyPick();
  const navigate = useNavigate();
  const canPay = useCan('finance.billPay');
  const [paying, setPaying] = useState<Row | null>(null);
  const [billing, setBilling] = useState<Row | null>(null);
  const [detail, setDetail] = useState<number | null>(null);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const columns = useMemo(() => compreColumns(), []);
  const reload = () => void actionRef.current?.reload();

  return (
    <>
      {publicFee && <SharedMeters />}
      <ResourceTable<Row>
        headerTitle={publicFee ? '公摊电费缴费' : '综合缴费'}
        rowKey="roomId"
        columns={columns}
        actionRef={actionRef}
        list={(q) => billingApi.synthesizeRooms(q) as Promise<Paged<Row>>}
        toolBar={() =>
          publicFee
            ? [<Button key="compre" onClick={() => navigate('/compre')}>综合缴费</Button>]
            : [
                <Button key="detail" onClick={() => navigate('/compreProperty')}>缴费明细</Button>,
                <Button key="public" onClick={() => navigate('/comprePublic')}>公摊电费</Button>,
              ]
        }
        rowActions={(r) => [
          canPay && r.ownerId && <a key="pay" data-testid={`business-${r.roomId}`} onClick={() => setPaying(r)}>{publicFee ? '缴公摊费' : '综合缴费'}</a>,
          canPay && r.ownerId && (arrearsOf(r.electricBalance) || arrearsOf(r.waterBalance)) && <a key="bill" onClick={() => setBilling(r)}>缴清欠费</a>,
          <a key="detail" onClick={() => setDetail(r.roomId)}>详情</a>,
        ]}
      />
      {paying && (
        <BusinessPayDialog
          room={paying}
          company={company}
          schemeType={publicFee ? 4 : undefined}
          title={publicFee ? '公摊电费缴费' : '综合缴费'}
          onDone={reload}
          onClose={() => setPaying(null)}
        />
      )}
      {billing && <BillPayDialog room={billing} company={company} onDone={reload} onClose={() => setBilling(null)} />}
      <RoomDetailDrawer roomId={detail} company={company} onClose={() => setDetail(null)} />
    </>
  );
}

export default function Compre() {
  return <ComprePage />;
}
