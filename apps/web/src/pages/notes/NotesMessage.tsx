// 短信记录 (/notesMessage): the balance alarms sent to owners by SMS or phone (/sms/log/list) — the
// alarm level, the text, the number, the state (queued, sent, failed with the reason, retried), the
// provider and its delivery receipt, the price and what the message cost.
import { useMemo } from 'react';
import { Tag, Tooltip } from 'antd';
import { formatMoney } from '@meter/contracts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { billingApi, type NotificationRow, type Paged } from '../fee/billingApi.ts';
import { rangeColumn, timeColumn } from '../fee/common.tsx';
import { SmsCreditAlert } from '../system/SmsCreditAlert.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = NotificationRow & Record<string, unknown>;

const LEVEL_TEXT: Record<number, string> = { 1: '低于报警1', 2: '低于报警2', 3: '欠费（断电/关阀通知）', 4: '恢复供应', 5: '缴费到账', 6: '群发', 7: '公告通知', 8: '登录验证码' };
const STATUS: Record<string, { text: string; color: string }> = {
  queued: { text: '待发送', color: 'processing' },
  sending: { text: '发送中', color: 'processing' },
  sent: { text: '已发送', color: 'success' },
  failed: { text: '发送失败', color: 'error' },
  held: { text: '余额不足', color: 'warning' },
};
const RECEIPT: Record<string, { text: string; color: string }> = {
  delivered: { text: '已送达', color: 'success' },
  undelivered: { text: '未送达', color: 'error' },
};
const PROVIDER_TEXT: Record<string, string> = { log: '仅记录日志', aliyun: '阿里云短信', tencent: '腾讯云短信' };
const CHANNEL_TEXT: Record<string, string> = { '1': '短信', '2': '电话', sms: '短信', phone: '电话' };

export function messageColumns(): ResourceColumn<Row>[] {
  return [
    timeColumn<Row>('时间', 'createdAt'),
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: (_d, r) => r.ownerName ?? '-' },
    { title: '手机号码', key: 'phone', dataIndex: 'phone', search: true },
    { title: '方式', key: 'channel', dataIndex: 'channel', render: (_d, r) => CHANNEL_TEXT[String(r.channel)] ?? String(r.channel) },
    {
      title: '类型',
      key: 'level',
      dataIndex: 'level',
      search: true,
      valueType: 'select',
      valueEnum: textEnum(LEVEL_TEXT),
      render: (_d, r) => <Tag color={r.level === 3 ? 'red' : r.level === 2 ? 'orange' : r.level === 1 ? 'gold' : 'blue'}>{LEVEL_TEXT[r.level] ?? r.level}</Tag>,
    },
    { title: '内容', key: 'content', dataIndex: 'content', ellipsis: true, width: 360 },
    {
      title: '状态',
      key: 'status',
      dataIndex: 'status',
      search: true,
      valueType: 'select',
      valueEnum: textEnum(STATUS),
      render: (_d, r) => {
        const s = STATUS[r.status] ?? { text: r.status, color: 'default' };
        const tag = <Tag color={s.color}>{s.text}</Tag>;
        return r.error ? <Tooltip title={r.error}>{tag}</Tooltip> : tag;
      },
    },
    { title: '失败原因', key: 'error', dataIndex: 'error', ellipsis: true, render: (_d, r) => r.error || '-' },
    { title: '服务商', key: 'provider', dataIndex: 'provider', render: (_d, r) => PROVIDER_TEXT[r.provider] ?? r.provider },
    {
      title: '回执',
      key: 'receipt',
      dataIndex: 'receipt',
      render: (_d, r) => {
        const x = RECEIPT[r.receipt];
        if (!x) return r.status === 'sent' && r.provider !== 'log' ? <Tag>等待回执</Tag> : '-';
        return <Tooltip title={[r.receiptText, r.receiptAt].filter(Boolean).join(' ')}><Tag color={x.color}>{x.text}</Tag></Tooltip>;
      },
    },
    { title: '尝试次数', key: 'attempts', dataIndex: 'attempts', align: 'right' },
    { title: '单价', key: 'priceFen', dataIndex: 'priceFen', align: 'right', render: (_d, r) => formatMoney(r.priceFen) },
    { title: '费用', key: 'costFen', dataIndex: 'costFen', align: 'right', render: (_d, r) => formatMoney(r.costFen) },
    timeColumn<Row>('发送时间', 'sentAt'),
    rangeColumn<Row>(),
  ];
}

export default function NotesMessage() {
  const columns = useMemo(() => messageColumns(), []);
  return (
    <>
      <SmsCreditAlert />
      <ResourceTable<Row>
        headerTitle="短信提醒记录"
        columns={columns}
        areaFilter={false}
        list={(q) => billingApi.notifications(q) as Promise<Paged<Row>>}
      />
    </>
  );
}
