// 综合缴费 (userpaymentlog/businessPay, finance.billPay): several charge-code items paid at once —
// electricity and water codes top up those accounts, property, 公摊 and other fees are received and
// charged at once. Each line's amount is the code's standard amount × quantity (exact decimals),
// editable as 元 text; the total is summed in 分.
import { useMemo, useState } from 'react';
import { Empty, Form, Input, InputNumber, Modal, Radio, Table, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatMoney, mulDecimal } from '@meter/contracts';
import { toast } from '../../app/feedback.tsx';
import { COUNTER_PAY_METHODS, PAY_METHOD_TEXT, billingApi, type ChargeCode, type CounterResult, type PayMethod } from './billingApi.ts';
import { amountInputError, money, newRequestId, normalizeAmount, parseAmountFen } from './money.ts';
import { PaidModal } from './PaidModal.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';

export const SCHEME_TYPE_TEXT: Record<number, string> = { 1: '电费', 2: '水费', 3: '物业费', 4: '公摊费', 5: '其他' };

export interface Line {
  code: ChargeCode;
  quantity: number;
  /** 元 text as typed (default: standard amount × quantity) */
  amount: string;
}

/** Items of the request and their total in 分, or the first line's problem. */
export function businessItems(lines: Line[]): { items: { chargeCodeId: number; quantity: number; amount: string }[]; totalFen: number } | { error: string } {
  if (lines.length === 0) return { error: '请选择缴费项目' };
  let totalFen = 0;
  const items = [];
  for (const l of lines) {
    const e = amountInputError(l.amount, `「${l.code.name}」的金额`);
    if (e) return { error: e };
    if (!Number.isInteger(l.quantity) || l.quantity < 1 || l.quantity > 1000) return { error: `「${l.code.name}」的数量须为 1–1000 的整数` };
    totalFen += parseAmountFen(l.amount);
    items.push({ chargeCodeId: l.code.id, quantity: l.quantity, amount: normalizeAmount(l.amount) });
  }
  return { items, totalFen };
}

/** The standard amount of a line: the code's amount × quantity, exactly, 2 decimals ('' when none). */
export function standardAmount(code: ChargeCode, quantity: number): string {
  try {
    const v = mulDecimal(code.amount || '0', String(quantity));
    return amountInputError(v) ? '' : normalizeAmount(v);
  } catch {
    return '';
  }
}

export interface BusinessRoom {
  roomId: number;
  roomName: string;
  ownerName?: string | null;
}

export function BusinessPayDialog({ room, company, schemeType, title = '综合缴费', onDone, onClose }: {
  room: BusinessRoom; company?: string; schemeType?: number; title?: string; onDone(r: CounterResult): void; onClose(): void;
}) {
  const requestId = useMemo(() => newRequestId(), []);
  const codes = useQuery({ queryKey: ['chargeCodes', company, schemeType], queryFn: () => billingApi.chargeCodes(company, schemeType) });
  const [lines, setLines] = useState<Record<number, Line>>({});
  const [payMethod, setPayMethod] = useState<PayMethod>('cash');
  const [memo, setMemo] = useState('');
  const { busy, refusal, run } = useRefusal();
  const [done, setDone] = useState<CounterResult | null>(null);
  const picked = Object.values(lines);
  const check = businessItems(picked);

  const toggle = (ids: number[]) => {
    const rows = codes.data?.data ?? [];
    setLines((old) => Object.fromEntries(ids.map((id) => {
      const code = rows.find((c) => c.id === id)!;
      return [id, old[id] ?? { code, quantity: 1, amount: standardAmount(code, 1) }];
    })));
  };
  const setLine = (id: number, patch: Partial<Line>) => setLines((old) => ({ ...old, [id]: { ...old[id], ...patch } }));

  const submit = async () => {
    if ('error' in check) {
      toast.warning(check.error);
      return;
    }
    await run(async () => {
      const r = await billingApi.businessPay({ roomId: room.roomId, items: check.items, payMethod, memo: memo.trim(), requestId }, company);
      toast.success('缴费成功');
      setDone(r);
      onDone(r);
    });
  };

  const heading = `${title}：${room.roomName}${room.ownerName ? `（${room.ownerName}）` : ''}`;
  if (done) {
    return <PaidModal title={heading} subTitle={`共缴纳 ${money(done.amount)}`} receipt={done} onClose={onClose} />;
  }
  return (
    <Modal open width={820} title={heading} okText="确定缴费" cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={onClose} maskClosable={false} destroyOnHidden>
      <Table<ChargeCode>
        size="small"
        rowKey="id"
        loading={codes.isFetching}
        pagination={false}
        scroll={{ y: 320 }}
        dataSource={codes.data?.data ?? []}
        locale={{ emptyText: <Empty description="暂无收费项目，请先在收费方案的收费码中添加" /> }}
        rowSelection={{ selectedRowKeys: picked.map((l) => l.code.id), onChange: (keys) => toggle(keys.map(Number)) }}
        columns={[
          { title: '收费码', dataIndex: 'code', width: 110 },
          { title: '项目', dataIndex: 'name' },
          { title: '类型', dataIndex: 'schemeType', width: 80, render: (v: number) => SCHEME_TYPE_TEXT[v] ?? v },
          { title: '标准金额', dataIndex: 'amount', width: 110, align: 'right', render: (v: string) => money(v) },
          {
            title: '数量',
            width: 100,
            render: (_v, c) => (
              <InputNumber
                size="small"
                min={1}
                max={1000}
                precision={0}
                disabled={!lines[c.id]}
                value={lines[c.id]?.quantity ?? 1}
                onChange={(q) => {
                  const quantity = Number(q ?? 1);
                  setLine(c.id, { quantity, amount: standardAmount(c, quantity) || lines[c.id]?.amount || '' });
                }}
              />
            ),
          },
          {
            title: '金额（元）',
            width: 140,
            render: (_v, c) => (
              <Input
                size="small"
                prefix="¥"
                inputMode="decimal"
                aria-label={`${c.name}金额`}
                disabled={!lines[c.id]}
                value={lines[c.id]?.amount ?? ''}
                status={lines[c.id] && amountInputError(lines[c.id].amount) ? 'error' : undefined}
                onChange={(e) => setLine(c.id, { amount: e.target.value })}
              />
            ),
          },
        ]}
      />
      <Form layout="vertical" style={{ marginTop: 12 }}>
        <Form.Item label="支付方式">
          <Radio.Group optionType="button" value={payMethod} onChange={(e) => setPayMethod(e.target.value as PayMethod)} options={COUNTER_PAY_METHODS.map((m) => ({ value: m, label: PAY_METHOD_TEXT[m] }))} />
        </Form.Item>
        <Form.Item label="备注">
          <Input.TextArea rows={2} maxLength={200} value={memo} onChange={(e) => setMemo(e.target.value)} placeholder="选填" />
        </Form.Item>
      </Form>
      <Typography.Title level={5} style={{ margin: 0 }}>
        合计：<span data-testid="business-total">{'error' in check ? '-' : formatMoney(check.totalFen)}</span>
        {'error' in check && picked.length > 0 && <Typography.Text type="danger" style={{ fontSize: 13, marginLeft: 8 }}>{check.error}</Typography.Text>}
      </Typography.Title>
      <RefusalAlert style={{ marginTop: 12 }} title="缴费未成功" refusal={refusal} />
    </Modal>
  );
}
