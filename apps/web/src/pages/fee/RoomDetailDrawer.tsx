// 房间账户详情 (GetEnergyRoomDetail): the room and its owner, the accounts with their balances and
// alarm states, the meters (last reading, settled up to, valve, protection), the latest journal rows
// and the room's timed subsidy plans.
import { Descriptions, Drawer, Empty, Space, Spin, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { billingApi, type RoomDetail } from './billingApi.ts';
import { Balance, Money } from './common.tsx';
import { fmtTime } from './money.ts';

const VALVE: Record<string, { text: string; color: string }> = {
  '1': { text: '通', color: 'success' },
  '0': { text: '断', color: 'error' },
};

/** One titled table of the drawer: all its rows, no paging. */
function Section<T extends { id: number }>({ title, rows, columns, empty, scroll }: { title: string; rows: T[]; columns: TableColumnsType<T>; empty?: string; scroll?: boolean }) {
  return (
    <div>
      <Typography.Title level={5}>{title}</Typography.Title>
      <Table<T>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={rows}
        locale={empty ? { emptyText: <Empty description={empty} /> } : undefined}
        scroll={scroll ? { x: 'max-content' } : undefined}
        columns={columns}
      />
    </div>
  );
}

export function RoomDetailDrawer({ roomId, company, onClose }: { roomId: number | null; company?: string; onClose(): void }) {
  const { data, isFetching } = useQuery<RoomDetail>({
    queryKey: ['energyRoomDetail', roomId, company],
    queryFn: () => billingApi.roomDetail(roomId!, company),
    enabled: roomId != null,
  });
  return (
    <Drawer open={roomId != null} width={880} title={data ? `房间账户详情：${data.room.path}` : '房间账户详情'} onClose={onClose} destroyOnHidden>
      <Spin spinning={isFetching}>
        {data && (
          <Space direction="vertical" size={16} style={{ width: '100%' }}>
            <Descriptions bordered size="small" column={2}>
              <Descriptions.Item label="房间">{data.room.path}</Descriptions.Item>
              <Descriptions.Item label="业主">
                {data.owner ? `${data.owner.name}（${data.owner.phone}）` : <Tag>空置</Tag>}
              </Descriptions.Item>
              {data.accounts.map((a) => (
                <Descriptions.Item key={a.id} label={`${a.walletText}账户`}>
                  <Balance value={a.balance} alarm={a.alarmLevel} alarmText={a.alarmText} />
                  {a.status !== 1 && <Tag style={{ marginLeft: 6 }}>已销户</Tag>}
                </Descriptions.Item>
              ))}
            </Descriptions>

            <Section title="表具" rows={data.meters} scroll columns={[
              { title: '表具', dataIndex: 'name', render: (_v, m) => m.name || m.address },
              { title: '表地址', dataIndex: 'address' },
              { title: '类型', dataIndex: 'kind', render: (v: number) => (v === 2 ? '水表' : '电表') },
              { title: '最新读数', dataIndex: 'lastTotal', render: (v, m) => (v == null ? '-' : `${v} ${m.unit}`) },
              { title: '抄表时间', dataIndex: 'lastReadAt', render: (v) => fmtTime(v) || '-' },
              { title: '已结算至', dataIndex: 'settledTotal', render: (v, m) => (v == null ? '-' : `${v} ${m.unit}`) },
              { title: '收费方案', dataIndex: 'chargingSchemeName', render: (v) => v ?? <Typography.Text type="warning">未设置</Typography.Text> },
              {
                title: '通断',
                dataIndex: 'valveState',
                render: (v, m) => (
                  <Space size={4}>
                    {v == null ? <Tag>未知</Tag> : <Tag color={VALVE[String(v)]?.color}>{VALVE[String(v)]?.text}</Tag>}
                    {m.protected && <Tag color="blue">{m.kind === 2 ? '保水' : '保电'}</Tag>}
                    {m.status === 2 && <Tag>已销表</Tag>}
                  </Space>
                ),
              },
              { title: '在线', dataIndex: 'online', render: (v: boolean) => (v ? <Tag color="success">在线</Tag> : <Tag>离线</Tag>) },
            ]}
            />

            <Section title="最近流水" rows={data.journal} empty="暂无流水" scroll columns={[
              { title: '时间', dataIndex: 'createdAt', render: (v) => fmtTime(v) },
              { title: '账户', dataIndex: 'walletText' },
              { title: '类型', dataIndex: 'kindText' },
              { title: '金额', dataIndex: 'amount', align: 'right', render: (v) => <Money value={v} /> },
              { title: '余额', dataIndex: 'balanceAfter', align: 'right', render: (v) => <Money value={v} /> },
              { title: '方式', dataIndex: 'payMethodText' },
              { title: '操作人', dataIndex: 'operatorName' },
              { title: '票据号', dataIndex: 'receiptNo', render: (v) => v ?? '-' },
              { title: '备注', dataIndex: 'memo', ellipsis: true },
            ]}
            />

            {data.subsidyPlans.length > 0 && (
              <Section title="定时补贴" rows={data.subsidyPlans} columns={[
                { title: '账户', dataIndex: 'walletText' },
                { title: '每月金额', dataIndex: 'amount', render: (v) => <Money value={v} /> },
                { title: '发放日', dataIndex: 'dayOfMonth', render: (v) => `每月 ${v} 日` },
                { title: '起止月份', render: (_v, p) => `${p.startMonth} 至 ${p.endMonth || '长期'}` },
                { title: '状态', dataIndex: 'enabled', render: (v: boolean) => (v ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>) },
              ]}
              />
            )}
          </Space>
        )}
      </Spin>
    </Drawer>
  );
}
