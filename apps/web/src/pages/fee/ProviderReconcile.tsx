// 支付平台对账 (a tab of /financerecode): pick a day and a provider, 对账 downloads the provider's
// statement (微信支付 tradebill / 支付宝 bill) and classifies it against our online orders; the counts and
// amounts per outcome, then the rows with their outcome, 补单 on a 本地缺单 row (the provider is queried
// and the order credited once), and the rows as .xlsx. 对账, 补单 and 导出 need finance.reconcile.
import { useState } from 'react';
import { Alert, Button, Card, DatePicker, Popconfirm, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs, { type Dayjs } from 'dayjs';
import { useCan } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { reconcileApi, type Outcome, type PayChannel, type ReconcileRow } from '../../api/reconcile.ts';
import { Figures, Money, useCompanyPick } from './common.tsx';

const OUTCOME_COLOR: Record<Outcome, string> = { matched: 'green', missing_here: 'orange', missing_there: 'red', amount_differs: 'volcano' };
const OUTCOME_HELP: Record<Outcome, string> = {
  matched: '支付平台已收款，本平台已入账，金额一致',
  missing_here: '支付平台已收款，本平台未入账（可补单）',
  missing_there: '本平台已入账，支付平台对账单无此成功交易',
  amount_differs: '支付平台金额与本平台订单金额不一致',
};
const CHANNELS = [
  { value: 'wechat', label: '微信支付' },
  { value: 'alipay', label: '支付宝' },
];

export default function ProviderReconcile() {
  const company = useCompanyPick();
  const canRun = useCan('finance.reconcile');
  const client = useQueryClient();
  const [day, setDay] = useState<Dayjs>(() => dayjs().subtract(1, 'day'));
  const [channel, setChannel] = useState<PayChannel>('wechat');
  const [outcome, setOutcome] = useState<Outcome | undefined>();
  const [page, setPage] = useState({ index: 1, size: 20 });
  const [busy, setBusy] = useState<string | null>(null);
  const d = day.format('YYYY-MM-DD');
  const summary = useQuery({ queryKey: ['reconcileSummary', d, channel, company], queryFn: () => reconcileApi.summary(d, channel, company) });
  const rows = useQuery({
    queryKey: ['reconcileRows', d, channel, outcome, page, company],
    queryFn: () => reconcileApi.rows({ day: d, channel, outcome, ...page }, company),
  });
  const refresh = () => client.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('reconcile') });

  const act = async (what: string, fn: () => Promise<unknown>, done: string) => {
    setBusy(what);
    try {
      await fn();
      toast.success(done);
      await refresh();
    } catch {
      // the request wrapper showed why
    } finally {
      setBusy(null);
    }
  };
  const s = summary.data;
  const sum = (o: Outcome) => s?.outcomes.find((x) => x.outcome === o);
  const figure = (o: Outcome, title: string) => ({
    title: `${title}（${sum(o)?.count ?? 0} 笔）`,
    value: <Money value={sum(o)?.amount ?? '0.00'} />,
    testId: `reconcile-${o}`,
    danger: o !== 'matched' && (sum(o)?.count ?? 0) > 0,
  });

  const columns: ColumnsType<ReconcileRow> = [
    {
      title: '对账结果', dataIndex: 'outcome', width: 110, fixed: 'left',
      render: (_v, r) => (
        <Tooltip title={OUTCOME_HELP[r.outcome]}>
          <Tag color={OUTCOME_COLOR[r.outcome]} data-testid={`outcome-${r.outTradeNo}${r.kind === 'refund' ? `-${r.outRefundNo}` : ''}`}>{r.outcomeText}</Tag>
        </Tooltip>
      ),
    },
    { title: '商户订单号', dataIndex: 'outTradeNo', width: 230 },
    { title: '类型', dataIndex: 'kind', width: 90, render: (_v, r) => (r.kind === 'refund' ? <Tooltip title={`退款单号 ${r.outRefundNo}`}><Tag color="orange">退款</Tag></Tooltip> : '支付') },
    { title: '支付平台交易号', dataIndex: 'tradeNo', width: 250, render: (v: string) => v || '-' },
    { title: '支付时间', dataIndex: 'tradeTime', width: 170, render: (v: string) => v || '-' },
    { title: '单位', dataIndex: 'companyName', width: 140, render: (v: string) => v || '（本平台无此订单）' },
    { title: '房间', dataIndex: 'roomName', width: 110, render: (v: string) => v || '-' },
    { title: '业主', dataIndex: 'ownerName', width: 100, render: (v: string) => v || '-' },
    { title: '平台金额', dataIndex: 'providerAmount', width: 110, align: 'right', render: (v: string | null) => <Money value={v} /> },
    { title: '本地金额', dataIndex: 'ourAmount', width: 110, align: 'right', render: (v: string | null) => <Money value={v} /> },
    { title: '本地状态', dataIndex: 'ourStatusText', width: 100 },
    { title: '补单', dataIndex: 'recoveredAt', width: 190, render: (_v, r) => (r.recoveredAt ? `${r.recoveredBy} ${r.recoveredAt}` : '-') },
    {
      title: '操作', key: 'op', width: 90, fixed: 'right',
      render: (_v, r) =>
        r.outcome === 'missing_here' && r.kind !== 'refund' && canRun ? (
          <Popconfirm
            title="补单"
            description="将向支付平台查询该订单，已支付则入账（只入账一次）。确定补单？"
            okText="确定补单"
            cancelText="取消"
            onConfirm={() => act(`recover-${r.id}`, () => reconcileApi.recover(r.id), `订单 ${r.outTradeNo} 已补单入账`)}
          >
            <Button type="link" size="small" loading={busy === `recover-${r.id}`} data-testid={`recover-${r.outTradeNo}`}>补单</Button>
          </Popconfirm>
        ) : null,
    },
  ];

  return (
    <>
      <Card size="small" style={{ marginBottom: 12 }}>
        <Space wrap>
          <span>对账日期</span>
          <DatePicker
            value={day}
            allowClear={false}
            disabledDate={(x) => x.isAfter(dayjs(), 'day')}
            onChange={(v) => {
              if (v) setDay(v);
              setPage((p) => ({ ...p, index: 1 }));
            }}
            data-testid="reconcile-day"
          />
          <span>支付平台</span>
          <Select<PayChannel> value={channel} options={CHANNELS} style={{ width: 120 }} onChange={(v) => { setChannel(v); setPage((p) => ({ ...p, index: 1 })); }} data-testid="reconcile-channel" />
          <span>对账结果</span>
          <Select<Outcome | undefined>
            allowClear
            placeholder="全部"
            value={outcome}
            style={{ width: 130 }}
            options={(Object.keys(OUTCOME_HELP) as Outcome[]).map((o) => ({ value: o, label: sum(o)?.text ?? o }))}
            onChange={(v) => { setOutcome(v); setPage((p) => ({ ...p, index: 1 })); }}
          />
          {canRun && (
            <Button type="primary" icon={<SyncOutlined />} loading={busy === 'run'} onClick={() => act('run', () => reconcileApi.run(d, channel), `${d} ${channel === 'wechat' ? '微信支付' : '支付宝'}对账完成`)}>
              对账
            </Button>
          )}
          {canRun && (
            <Button icon={<DownloadOutlined />} loading={busy === 'export'} onClick={() => act('export', () => reconcileApi.exportRows({ day: d, channel, outcome }, company), '已导出对账明细')}>
              导出
            </Button>
          )}
          <Typography.Text type="secondary" data-testid="reconcile-ran">
            {s?.ranAt ? `上次对账：${s.ranAt}（${s.ranBy}）` : '该日尚未对账'}
          </Typography.Text>
        </Space>
      </Card>
      {s && !s.ranAt && <Alert type="info" showIcon style={{ marginBottom: 12 }} message="点击“对账”下载支付平台该日的对账单并与本平台订单核对；系统每天 10 点后自动核对前一日。" />}
      <Figures
        loading={summary.isLoading}
        items={[figure('matched', '已匹配'), figure('missing_here', '本地缺单'), figure('missing_there', '平台缺单'), figure('amount_differs', '金额不符')]}
      />
      <Table<ReconcileRow>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={rows.data?.data ?? []}
        loading={rows.isFetching}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: '暂无对账记录' }}
        pagination={{
          current: page.index, pageSize: page.size, total: rows.data?.count ?? 0, showSizeChanger: true, showTotal: (n) => `共 ${n} 条`,
          onChange: (index, size) => setPage({ index, size }),
        }}
      />
    </>
  );
}
