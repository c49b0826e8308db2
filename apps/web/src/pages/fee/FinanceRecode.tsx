// 财务对账 (/financerecode): the money rows (充值/退费/补贴/期初余额) of the picked area and period with
// their audit state (userpaymentlog/dataAuditlist), the totals of the same filter (DataSum: income =
// money received only, refunds, net; subsidies, opening balances and system credits apart, audited / not audited, by pay method), and 审核 of one or many rows (POST dataAudit,
// finance.audit). A second tab lists the deductions with their readings (deductionDetail, totals
// from deductionDetailDataSum); a third, 支付平台对账 (ProviderReconcile), checks the providers' statements.
import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Card, Form, Input, Modal, Space, Tabs, Tag, Typography } from 'antd';
import { AuditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { ActionType } from '@ant-design/pro-components';
import { ResourceTable, type ListQuery } from '../../components/ResourceTable.tsx';
import { useCan } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { billingApi, type AuditSum, type Paged } from './billingApi.ts';
import { Figures, Money, filtersOf, useCompanyPick } from './common.tsx';
import { journalColumns, type JournalTableRow } from './journalColumns.tsx';
import ProviderReconcile from './ProviderReconcile.tsx';

export function AuditFigures({ sum, loading }: { sum?: AuditSum; loading: boolean }) {
  return (
    <>
      <Figures
        loading={loading && !sum}
        items={[
          { title: '笔数', value: sum?.count ?? 0, suffix: '笔' },
          { title: '收入合计（实收）', value: <Money value={sum?.income ?? '0.00'} />, testId: 'audit-income' },
          { title: '退费合计', value: <Money value={sum?.expense ?? '0.00'} /> },
          { title: '冲正（作废）', value: <Money value={sum?.reversal ?? '0.00'} />, testId: 'audit-reversal' },
          { title: '净收款', value: <Money value={sum?.net ?? '0.00'} strong />, testId: 'audit-net' },
          { title: '补贴（另计）', value: <Money value={sum?.subsidy ?? '0.00'} />, testId: 'audit-subsidy' },
          { title: '期初余额（另计）', value: <Money value={sum?.opening ?? '0.00'} />, testId: 'audit-opening' },
          { title: '系统入账（另计）', value: <Money value={sum?.systemCredit ?? '0.00'} />, testId: 'audit-system' },
          { title: `已审核（${sum?.auditedCount ?? 0} 笔）`, value: <Money value={sum?.audited ?? '0.00'} /> },
          { title: `未审核（${sum?.unauditedCount ?? 0} 笔）`, value: <Money value={sum?.unaudited ?? '0.00'} />, danger: (sum?.unauditedCount ?? 0) > 0 },
        ]}
      />
      {sum && sum.byPayMethod.length > 0 && (
        <Card size="small" style={{ marginBottom: 12 }}>
          <Space wrap>
            <Typography.Text type="secondary">按支付方式：</Typography.Text>
            {sum.byPayMethod.map((b) => (
              <Tag key={b.key}>{b.text} {b.count} 笔 <Money value={b.amount} /></Tag>
            ))}
            <Typography.Text type="secondary">按类型：</Typography.Text>
            {sum.byKind.map((b) => (
              <Tag key={b.key}>{b.text} {b.count} 笔 <Money value={b.amount} /></Tag>
            ))}
          </Space>
        </Card>
      )}
    </>
  );
}

function AuditModal({ ids, company, onClose, onDone }: { ids: number[]; company?: string; onClose(): void; onDone(): void }) {
  const [memo, setMemo] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    if (memo.length > 200) {
      toast.warning('备注最多 200 个字');
      return;
    }
    setBusy(true);
    try {
      const r = await billingApi.dataAudit(ids, memo.trim(), company);
      toast.success(r.already > 0 ? `审核成功 ${r.audited} 条，${r.already} 条此前已审核` : `审核成功 ${r.audited} 条`);
      onDone();
    } catch {
      // the request wrapper showed why
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal open title={`审核流水（${ids.length} 条）`} okText="确定审核" cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>审核表示已核对这些流水的款项到账或付出；审核后不可撤销。</Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label="审核备注">
          <Input.TextArea rows={2} maxLength={200} showCount value={memo} onChange={(e) => setMemo(e.target.value)} placeholder="选填，如：与银行流水核对一致" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function AuditTab() {
  const company = useCompanyPick();
  const canAudit = useCan('finance.audit');
  const [filters, setFilters] = useState<Record<string, unknown> | null>(null);
  const [selected, setSelected] = useState<number[]>([]);
  const [auditing, setAuditing] = useState<number[] | null>(null);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const columns = useMemo(() => journalColumns({ kinds: [], audit: true, wallets: ['electric', 'water', 'other'] }), []);
  const sum = useQuery({ queryKey: ['auditSum', filters], queryFn: () => billingApi.auditSum(filters ?? {}), enabled: filters != null });

  const list = useCallback((q: ListQuery) => {
    setFilters(filtersOf(q));
    setSelected([]);
    return billingApi.auditList(q) as Promise<Paged<JournalTableRow>>;
  }, []);

  const done = () => {
    setAuditing(null);
    setSelected([]);
    void actionRef.current?.reload();
    void sum.refetch();
  };

  return (
    <>
      <AuditFigures sum={sum.data} loading={!sum.isError} />
      <ResourceTable<JournalTableRow>
        headerTitle="对账流水"
        columns={columns}
        list={list}
        actionRef={actionRef}
        rowActions={canAudit ? (r) => [!r.audited && <a key="audit" onClick={() => setAuditing([r.id])}>审核</a>] : undefined}
        toolBar={() =>
          canAudit
            ? [
                <Button key="audit" icon={<AuditOutlined />} disabled={selected.length === 0} onClick={() => setAuditing(selected)}>
                  批量审核{selected.length ? `（${selected.length}）` : ''}
                </Button>,
              ]
            : []
        }
        tableProps={
          canAudit
            ? {
                rowSelection: {
                  selectedRowKeys: selected,
                  onChange: (keys) => setSelected(keys.map(Number)),
                  getCheckboxProps: (r: JournalTableRow) => ({ disabled: r.audited }),
                },
                tableAlertRender: false,
              }
            : undefined
        }
      />
      {auditing && <AuditModal ids={auditing} company={company} onClose={() => setAuditing(null)} onDone={done} />}
    </>
  );
}

function DeductionTab() {
  const [filters, setFilters] = useState<Record<string, unknown> | null>(null);
  const columns = useMemo(() => journalColumns({ kinds: [], reading: true, wallets: ['electric', 'water', 'other'] }), []);
  const sum = useQuery({
    queryKey: ['deductionSum', filters],
    queryFn: () => billingApi.deductionSum(filters ?? {}),
    enabled: filters != null,
  });
  const s = sum.data;
  return (
    <>
      <Figures
        loading={!s && !sum.isError}
        items={[
          { title: '扣费笔数', value: s?.count ?? 0, suffix: '笔' },
          { title: '扣费合计', value: <Money value={s?.amount ?? '0.00'} strong /> },
          { title: `电费（${s?.electric.quantity ?? '0'} kWh）`, value: <Money value={s?.electric.amount ?? '0.00'} /> },
          { title: `水费（${s?.water.quantity ?? '0'} m³）`, value: <Money value={s?.water.amount ?? '0.00'} /> },
          { title: '其他费用', value: <Money value={s?.fees.amount ?? '0.00'} /> },
        ]}
      />
      <ResourceTable<JournalTableRow>
        headerTitle="扣费明细"
        columns={columns}
        list={(q) => {
          setFilters(filtersOf(q));
          return billingApi.deductions(q) as Promise<Paged<JournalTableRow>>;
        }}
      />
    </>
  );
}

export default function FinanceRecode() {
  return (
    <Tabs
      items={[
        { key: 'audit', label: '财务对账', children: <AuditTab /> },
        { key: 'deduction', label: '扣费明细', children: <DeductionTab /> },
        { key: 'provider', label: '支付平台对账', children: <ProviderReconcile /> },
      ]}
    />
  );
}
