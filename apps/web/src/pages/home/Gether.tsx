// 区域概况 (/gether): the area picked in the area tree (or handed over from 首页) and everything below
// it — rooms, devices online, balances and arrears below the company's 欠费线, this month's usage
// against last month's, the latest payments, open device alarms, and the child areas to drill into.
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Col, Descriptions, Empty, Row, Skeleton, Space, Statistic, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { formatMoney, type GetherChild, type GetherData, type GetherPayment, type ScreenAlarm } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { setAreaSelection, useAreaFilter } from '../../app/page.tsx';

const online = (o: { total: number; online: number }) => `${o.online} / ${o.total}`;
const rate = (o: { total: number; online: number }) => (o.total ? Math.round((o.online / o.total) * 100) : 0);
const fixed = (v: number, digits = 2) => v.toFixed(digits);

function change(now: number, last: number) {
  if (!last) return null;
  const pct = Math.round(((now - last) / last) * 100);
  return <Tag color={pct > 0 ? 'orange' : 'green'}>较上月 {pct > 0 ? '+' : ''}{pct}%</Tag>;
}

const PAYMENT_COLUMNS: ColumnsType<GetherPayment> = [
  { title: '时间', dataIndex: 'createdAt', width: 150 },
  { title: '房间', dataIndex: 'roomName', width: 90 },
  { title: '业主', dataIndex: 'ownerName', width: 80 },
  { title: '支付方式', dataIndex: 'payMethodText', width: 80 },
  { title: '金额', dataIndex: 'amountFen', align: 'right', render: (v: number) => formatMoney(v) },
];

const ALARM_COLUMNS: ColumnsType<ScreenAlarm> = [
  { title: '时间', dataIndex: 'createdAt', width: 150 },
  { title: '类型', dataIndex: 'kindText', width: 100, render: (v: string) => <Tag color="red">{v}</Tag> },
  { title: '设备', dataIndex: 'device', width: 140 },
  { title: '区域', dataIndex: 'areaName' },
];

function Summary({ d }: { d: GetherData }) {
  const drill = (c: GetherChild) => setAreaSelection('gether', { searchArea: String(c.id), searchClassify: '', areaName: c.name });
  const childColumns: ColumnsType<GetherChild> = [
    { title: '区域', dataIndex: 'name', render: (v: string, c) => <Button type="link" size="small" onClick={() => drill(c)}>{v}</Button> },
    { title: '房间数', dataIndex: 'rooms', width: 90, align: 'right' },
    { title: '表具数', dataIndex: 'meters', width: 90, align: 'right' },
    { title: '在线', dataIndex: 'online', width: 90, align: 'right' },
    { title: '欠费房间', dataIndex: 'arrearsRooms', width: 100, align: 'right', render: (v: number) => (v ? <Typography.Text type="danger">{v}</Typography.Text> : 0) },
  ];
  const u = d.usage;
  return (
    <Space direction="vertical" size={16} style={{ width: '100%' }}>
      <Card size="small">
        <Descriptions column={{ xs: 1, md: 3 }} size="small">
          <Descriptions.Item label="区域">{d.area.path}</Descriptions.Item>
          <Descriptions.Item label="单位">{d.area.companyName}</Descriptions.Item>
          <Descriptions.Item label="统计月份">{u.month}</Descriptions.Item>
        </Descriptions>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={12} lg={6}><Card><Statistic title="房间（已入住 / 空置）" value={d.rooms.total} suffix={<small>（{d.rooms.occupied} / {d.rooms.vacant}）</small>} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="电表在线" value={online(d.devices.electric)} suffix={<small>{rate(d.devices.electric)}%</small>} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="水表在线" value={online(d.devices.water)} suffix={<small>{rate(d.devices.water)}%</small>} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="采集器在线" value={online(d.devices.collectors)} suffix={<small>断电/关阀 {d.devices.offNow}</small>} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="电费余额" value={formatMoney(d.balance.electricFen)} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="水费余额" value={formatMoney(d.balance.waterFen)} /></Card></Col>
        <Col xs={12} lg={6}>
          <Card>
            <Statistic title={`欠费房间（欠费线 ${formatMoney(d.balance.arrearsLineFen)}）`} value={d.balance.arrearsRooms} valueStyle={d.balance.arrearsRooms ? { color: '#cf1322' } : undefined} />
          </Card>
        </Col>
        <Col xs={12} lg={6}><Card><Statistic title="欠费金额" value={formatMoney(d.balance.arrearsFen)} valueStyle={d.balance.arrearsFen ? { color: '#cf1322' } : undefined} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="本月用电（kWh）" value={fixed(u.electric)} suffix={change(u.electric, u.lastElectric)} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="本月用水（m³）" value={fixed(u.water)} suffix={change(u.water, u.lastWater)} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title="本月水电费" value={formatMoney(u.amountFen)} suffix={<small>上月 {formatMoney(u.lastAmountFen)}</small>} /></Card></Col>
        <Col xs={12} lg={6}><Card><Statistic title={`本月实收（${d.payments.monthCount} 笔）`} value={formatMoney(d.payments.monthFen)} /></Card></Col>
      </Row>
      {d.children.length > 0 && (
        <Card title="下级区域" size="small">
          <Table<GetherChild> rowKey="id" size="small" columns={childColumns} dataSource={d.children} pagination={false} />
        </Card>
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title="最近缴费" size="small">
            <Table<GetherPayment> rowKey="id" size="small" columns={PAYMENT_COLUMNS} dataSource={d.payments.latest} pagination={false} locale={{ emptyText: '本区域暂无缴费' }} />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={`未处理预警（${d.alarms.open}）`} size="small">
            <Table<ScreenAlarm> rowKey="id" size="small" columns={ALARM_COLUMNS} dataSource={d.alarms.latest} pagination={false} locale={{ emptyText: '暂无未处理预警' }} />
          </Card>
        </Col>
      </Row>
    </Space>
  );
}

export default function Gether() {
  const area = useAreaFilter();
  const areaId = Number(area.searchArea) || 0;
  const q = useQuery({
    queryKey: ['gether', areaId, area.searchCompanyID],
    queryFn: () => call(E.screen.gether, { query: { areaId } }),
    enabled: areaId > 0,
  });
  if (!areaId) return <Card><Empty description="请在左侧区域树中选择一个区域，查看它的房间、设备、余额、用量、缴费与预警" /></Card>;
  if (q.isError) return <Alert type="error" showIcon message="区域概况加载失败" action={<Button size="small" onClick={() => q.refetch()}>重试</Button>} />;
  if (!q.data) return <Card><Skeleton active /></Card>;
  return <Summary d={q.data} />;
}
