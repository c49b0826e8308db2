// 日结交班 (/dailyClose, 费用管理; not in SPEC §2 — the finance day of issue 14): the business days,
// newest first, with their state and the money received per pay method (GET DailyClosing/List). Each
// day opens as its printable slip (ClosingSlip); 日结 closes the company's day and 交班 an operator's
// shift, each after a confirmation that shows the figures to be locked (finance.dailyClose). A closed
// day never changes: later receipts, refunds and voids are booked on the next open day.
import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Input, Modal, Spin, Tag, Typography } from 'antd';
import { LockOutlined, SwapOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { toast } from '../../app/feedback.tsx';
import { useCan, useSession } from '../../app/session.ts';
import { ClosingSlipModal } from './ClosingSlip.tsx';
import { financeApi, type DayRow } from './financeApi.ts';
import { moneyColumn, rangeColumn, timeColumn, useCompanyPick } from './common.tsx';
import { money } from './money.ts';
import { useFormSave } from '../../components/submit.tsx';
import { useListReload, withoutReloadKey } from '../../components/useListReload.ts';

export interface CloseTarget {
  kind: 'day' | 'shift';
  day: string;
  /** the shift's operator (kind shift); absent: the signed-in user's own shift */
  operatorId?: number;
  operatorName?: string;
}

export function dayColumns(): ResourceColumn<DayRow>[] {
  return [
    { title: '营业日', key: 'day', dataIndex: 'day', width: 120 },
    {
      title: '状态', key: 'state', dataIndex: 'state', width: 100, valueType: 'select', search: true,
      valueEnum: { open: { text: '未日结' }, closed: { text: '已日结' } },
      render: (_d, r) => <Tag color={r.state === 'closed' ? 'green' : 'orange'} data-testid={`day-state-${r.day}`}>{r.stateText}</Tag>,
    },
    moneyColumn<DayRow>('现金', 'cash'),
    moneyColumn<DayRow>('微信', 'wechat'),
    moneyColumn<DayRow>('支付宝', 'alipay'),
    moneyColumn<DayRow>('银行', 'bank'),
    moneyColumn<DayRow>('实收净额', 'net'),
    { title: '笔数', key: 'count', dataIndex: 'count', width: 70, align: 'right' },
    { title: '已交班', key: 'handovers', dataIndex: 'handovers', width: 80, align: 'right', render: (_d, r) => `${r.handovers} 人` },
    { title: '日结人', key: 'closedByName', dataIndex: 'closedByName', render: (_d, r) => r.closedByName || '-' },
    timeColumn<DayRow>('日结时间', 'closedAt'),
    rangeColumn<DayRow>('营业日'),
  ];
}

/** The confirmation of a close: the figures that will be locked, a memo, 确认. */
export function CloseConfirm({ target, company, onDone, onCancel }: { target: CloseTarget | null; company?: string; onDone(day: string): void; onCancel(): void }) {
  const session = useSession();
  const [memo, setMemo] = useState('');
  const { saving: busy, run } = useFormSave();
  const { data, isFetching } = useQuery({ queryKey: ['closingDay', target?.day, company], queryFn: () => financeApi.day(target!.day, company), enabled: target != null });
  if (!target) return null;
  const isDay = target.kind === 'day';
  const name = target.operatorName ?? session?.user.realName ?? session?.user.username ?? '';
  const who = data?.operators.find((o) => o.operatorId === (target.operatorId ?? session?.user.id));
  const figures = isDay ? data?.totals : who;
  const confirm = () =>
    run(async () => {
      if (isDay) await financeApi.closeDay(target.day, memo, company);
      else await financeApi.handover(target.day, memo, target.operatorId, company);
      toast.success(isDay ? `${target.day} 日结成功` : `${name} 交班成功`);
      setMemo('');
      onDone(target.day);
    });
  return (
    <Modal
      open
      title={isDay ? `确认日结 ${target.day}` : `确认交班 ${target.day}（${name}）`}
      okText={isDay ? '确认日结' : '确认交班'}
      okButtonProps={{ danger: true }}
      cancelText="取消"
      confirmLoading={busy}
      onOk={() => void confirm()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        message={isDay
          ? '日结后该营业日锁定：金额不再变化，之后的收款、退费、冲正都记入下一营业日，当日票据不能再作废。'
          : `交班后 ${name} 在该营业日的收款锁定，之后办理的业务记入下一营业日，本班票据不能再作废。`}
      />
      <Spin spinning={isFetching}>
        <Descriptions size="small" column={2} bordered>
          {(figures?.methods ?? []).map((m) => (
            <Descriptions.Item key={m.method} label={m.methodText}>{money(m.net) || '¥0.00'}（{m.count} 笔）</Descriptions.Item>
          ))}
          <Descriptions.Item label="实收净额" span={2}>
            <Typography.Text strong data-testid="close-confirm-net">{money(figures?.net ?? '0.00')}</Typography.Text>
          </Descriptions.Item>
        </Descriptions>
      </Spin>
      <Input.TextArea style={{ marginTop: 12 }} rows={2} maxLength={200} placeholder="备注（选填）" value={memo} onChange={(e) => setMemo(e.target.value)} />
    </Modal>
  );
}

export default function DailyClose() {
  const company = useCompanyPick();
  const canClose = useCan('finance.dailyClose');
  const client = useQueryClient();
  const [viewing, setViewing] = useState<string | null>(null);
  const [target, setTarget] = useState<CloseTarget | null>(null);
  const reloading = useListReload();
  const columns = useMemo(() => dayColumns(), []);
  const today = dayjs().format('YYYY-MM-DD');

  const done = (day: string) => {
    setTarget(null);
    reloading.reload();
    void client.invalidateQueries({ queryKey: ['closingDay', day] });
    setViewing(day);
  };

  return (
    <>
      <ResourceTable<DayRow>
        headerTitle="日结交班"
        rowKey="day"
        columns={columns}
        params={reloading.params}
        list={(q) => financeApi.days(withoutReloadKey(q))}
        toolBar={() => (canClose ? [
          <Button key="handover" icon={<SwapOutlined />} onClick={() => setTarget({ kind: 'shift', day: today })}>我的交班</Button>,
        ] : [])}
        rowActions={(r) => [
          <a key="view" data-testid={`day-view-${r.day}`} onClick={() => setViewing(r.day)}>日结单</a>,
          canClose && r.state === 'open' ? (
            <a key="close" data-testid={`day-close-${r.day}`} onClick={() => setTarget({ kind: 'day', day: r.day })}><LockOutlined /> 日结</a>
          ) : null,
        ].filter(Boolean)}
      />
      <ClosingSlipModal
        day={viewing}
        company={company}
        onClose={() => setViewing(null)}
        onCloseDay={(day) => setTarget({ kind: 'day', day })}
        onHandover={(day, operatorId, operatorName) => setTarget({ kind: 'shift', day, operatorId, operatorName })}
      />
      <CloseConfirm target={target} company={company} onDone={done} onCancel={() => setTarget(null)} />
    </>
  );
}
