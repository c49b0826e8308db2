// 银行验证日志 (/noteBocLog): every exchange with the settlement bank about the company's sub-merchants —
// 进件, 验证短信, 验证码与随机金额, 状态变更, 余额查询, 提现 — with its result, the state before and
// after, and what was sent and answered (AgricultureBank/LogList). Filters: sub-merchant, call, result, time.
import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import { BANK_LOG_ACTIONS, SUB_MER_STATUS } from '@meter/contracts';
import type { Paged } from '../../api/request.ts';
import { bankApi, type BankLog } from '../../api/bank.ts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { companyColumn, rangeColumn, timeColumn, useCompanyPick } from '../fee/common.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = BankLog & Record<string, unknown>;

const state = (s: string) => (s ? SUB_MER_STATUS[s] ?? s : '-');

export function bankLogColumns(platform: boolean): ResourceColumn<Row>[] {
  return [
    timeColumn<Row>('时间', 'createdAt'),
    companyColumn<Row>(platform, { width: 160 }),
    { title: '子商户', key: 'propertyName', dataIndex: 'propertyName', width: 180, render: (_d, r) => r.propertyName ?? '-' },
    { title: '子商户号', key: 'subMerId', dataIndex: 'subMerId', search: true, width: 150, render: (_d, r) => r.subMerId || '-' },
    { title: '银行', key: 'bankName', dataIndex: 'bankName', width: 110 },
    {
      title: '操作', key: 'action', dataIndex: 'action', search: true, valueType: 'select', width: 150,
      valueEnum: textEnum(BANK_LOG_ACTIONS),
      render: (_d, r) => r.actionText,
    },
    {
      title: '结果', key: 'ok', dataIndex: 'ok', search: true, valueType: 'select', width: 80,
      valueEnum: { 1: { text: '成功' }, 0: { text: '失败' } },
      render: (_d, r) => (r.ok ? <Tag color="success">成功</Tag> : <Tag color="error">失败</Tag>),
    },
    { title: '状态变化', key: 'statusTo', dataIndex: 'statusTo', width: 150, render: (_d, r) => (r.statusFrom === r.statusTo ? state(r.statusTo) : `${state(r.statusFrom)} → ${state(r.statusTo)}`) },
    { title: '说明', key: 'message', dataIndex: 'message', ellipsis: true, width: 280, render: (_d, r) => <Typography.Text type={r.ok ? undefined : 'danger'}>{r.message || '-'}</Typography.Text> },
    { title: '操作人', key: 'operatorName', dataIndex: 'operatorName', width: 110 },
    rangeColumn<Row>('时间范围'),
  ];
}

function Exchange({ r }: { r: Row }) {
  const pretty = (s: string) => {
    try {
      return JSON.stringify(JSON.parse(s), null, 2);
    } catch {
      return s;
    }
  };
  return (
    <div style={{ display: 'flex', gap: 16 }}>
      <div style={{ flex: 1 }}><Typography.Text strong>请求报文</Typography.Text><pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{r.request ? pretty(r.request) : '（无）'}</pre></div>
      <div style={{ flex: 1 }}><Typography.Text strong>银行应答</Typography.Text><pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{r.response ? pretty(r.response) : '（无）'}</pre></div>
    </div>
  );
}

export default function NoteBocLog() {
  const company = useCompanyPick();
  const columns = useMemo(() => bankLogColumns(!company), [company]);
  return (
    <ResourceTable<Row>
      entityName="银行验证日志"
      headerTitle="银行验证日志"
      rowKey="id"
      columns={columns}
      areaFilter={false}
      list={(q) => bankApi.logs(q as { index: number; size: number }) as Promise<Paged<Row>>}
      tableProps={{ expandable: { expandedRowRender: (r: Row) => <Exchange r={r} />, rowExpandable: (r: Row) => !!(r.request || r.response) } }}
    />
  );
}
