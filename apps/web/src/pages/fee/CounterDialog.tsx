// The counter money dialog of /energy (and /compre): 充值 (finance.prepay), 退费 (finance.refund) and
// 补贴 (finance.subsidy) for one room's electricity or water account. The amount is typed in 元 and
// checked as text (> 0, at most 2 decimals) — never through a JS float; each opening gets its own
// requestId, so a repeated click is done once by the server. A refusal (e.g. a refund above the
// balance) keeps the dialog open with the server's message; a success shows the new balance and a
// link to print the receipt.
import { useMemo, useState } from 'react';
import { Button, Descriptions, Form, Modal, Radio, Result, Space, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback.tsx';
import { COUNTER_PAY_METHODS, PAY_METHOD_TEXT, WALLET_TEXT, billingApi, type BillingBody, type CounterResult, type PayMethod, type Wallet } from './billingApi.ts';
import { amountRule, money, newRequestId, normalizeAmount } from './money.ts';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import { MemoItem, YuanInput } from '../../components/formItems.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';

export type CounterOp = 'prepay' | 'refund' | 'subsidy';

export const OP_TEXT: Record<CounterOp, string> = { prepay: '充值', refund: '退费', subsidy: '补贴' };
export const OP_KEY: Record<CounterOp, string> = { prepay: 'finance.prepay', refund: 'finance.refund', subsidy: 'finance.subsidy' };

export interface CounterRoom {
  roomId: number;
  roomName: string;
  areaName?: string | null;
  ownerName?: string | null;
  electricBalance?: string;
  waterBalance?: string;
}

interface Values {
  wallet: Wallet;
  payMethod: PayMethod;
  amount: string;
  memo?: string;
}

/** The request body of a counter operation from the dialog's values (amount as a 2-decimal 元 string). */
export function counterBody(op: CounterOp, roomId: number, v: Values, requestId: string): BillingBody<'prepay'> {
  return {
    roomId,
    wallet: v.wallet,
    amount: normalizeAmount(v.amount),
    memo: (v.memo ?? '').trim(),
    requestId,
    ...(op !== 'subsidy' && { payMethod: v.payMethod }),
  };
}

const CALL: Record<CounterOp, (b: BillingBody<'prepay'>, company?: string) => Promise<CounterResult>> = {
  prepay: (b, c) => billingApi.prepay(b, c),
  refund: (b, c) => billingApi.refund(b, c),
  subsidy: (b, c) => billingApi.subsidy(b, c),
};

export interface CounterDialogProps {
  op: CounterOp;
  room: CounterRoom;
  /** the account picked first (default electric) */
  wallet?: Wallet;
  /** platform admins act inside the picked company */
  company?: string;
  onDone(result: CounterResult, wallet: Wallet): void;
  onClose(): void;
}

export function CounterDialog({ op, room, wallet = 'electric', company, onDone, onClose }: CounterDialogProps) {
  const [form] = Form.useForm<Values>();
  const navigate = useNavigate();
  const requestId = useMemo(() => newRequestId(), []);
  const { busy, refusal, clear, runForm } = useRefusal();
  const [done, setDone] = useState<{ result: CounterResult; wallet: Wallet } | null>(null);
  const picked = Form.useWatch('wallet', form) ?? wallet;
  const title = `${OP_TEXT[op]}：${room.roomName}${room.ownerName ? `（${room.ownerName}）` : ''}`;
  const balanceOf = (w: Wallet) => (w === 'electric' ? room.electricBalance : room.waterBalance);

  const submit = () =>
    runForm(form, async (v) => {
      const result = await CALL[op](counterBody(op, room.roomId, v, requestId), company);
      setDone({ result, wallet: v.wallet });
      toast.success(`${OP_TEXT[op]}成功`);
      onDone(result, v.wallet);
    });

  if (done) {
    const { result } = done;
    return (
      <Modal open title={title} onCancel={onClose} maskClosable={false} footer={[<Button key="ok" type="primary" onClick={onClose}>完成</Button>]}>
        <Result
          status="success"
          title={`${OP_TEXT[op]}成功`}
          subTitle={<span data-testid="counter-result">{WALLET_TEXT[done.wallet]}{OP_TEXT[op]} {money(result.amount)}，当前余额 {money(result.balance)}</span>}
          extra={
            <Space direction="vertical">
              <Typography.Text type="secondary">票据号：{result.receiptNo}</Typography.Text>
              <Button
                icon={<PrinterOutlined />}
                onClick={() => {
                  onClose();
                  navigate(`/billprint?id=${result.receiptId}`);
                }}
              >
                打印票据
              </Button>
            </Space>
          }
        />
      </Modal>
    );
  }

  return (
    <FormDialog
      open
      title={title}
      okText={`确定${OP_TEXT[op]}`}
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
        {room.areaName ? <Descriptions.Item label="位置">{room.areaName}</Descriptions.Item> : null}
        <Descriptions.Item label="当前余额">
          <span data-testid="counter-balance">{money(balanceOf(picked)) || '¥0.00'}</span>
        </Descriptions.Item>
      </Descriptions>
      <Form<Values>
        form={form}
        layout="vertical"
        name={`counter-${op}`}
        initialValues={{ wallet, payMethod: 'cash', amount: '', memo: '' }}
        onValuesChange={clear}
      >
        <Form.Item name="wallet" label="账户" rules={[{ required: true, message: '请选择账户' }]}>
          <Radio.Group
            optionType="button"
            options={(['electric', 'water'] as Wallet[]).map((w) => ({ value: w, label: `${WALLET_TEXT[w]}（${money(balanceOf(w)) || '¥0.00'}）` }))}
          />
        </Form.Item>
        {op !== 'subsidy' && (
          <Form.Item name="payMethod" label={op === 'refund' ? '退款方式' : '支付方式'} rules={[{ required: true, message: '请选择支付方式' }]}>
            <Radio.Group optionType="button" options={COUNTER_PAY_METHODS.map((m) => ({ value: m, label: PAY_METHOD_TEXT[m] }))} />
          </Form.Item>
        )}
        <Form.Item
          name="amount"
          label={`${OP_TEXT[op]}金额（元）`}
          validateFirst
          rules={[amountRule(`${OP_TEXT[op]}金额`)]}
        >
          <YuanInput />
        </Form.Item>
        <MemoItem />
      </Form>
      <RefusalAlert title={`${OP_TEXT[op]}未成功`} refusal={refusal} testId="counter-refusal" />
    </FormDialog>
  );
}
