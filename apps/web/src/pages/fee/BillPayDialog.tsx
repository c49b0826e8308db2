// 账单缴费 (usersettlementbill/settleAccountsPay, finance.billPay): pays a room's arrears — a wallet
// whose balance is below zero — all of it by default, or the amount typed (元 text, never a float).
import { useMemo, useState } from 'react';
import { Alert, Form, Input, Modal, Radio } from 'antd';
import { toast } from '../../app/feedback.tsx';
import { COUNTER_PAY_METHODS, PAY_METHOD_TEXT, WALLET_TEXT, billingApi, type CounterResult, type PayMethod, type Wallet } from './billingApi.ts';
import { amountRule, money, newRequestId, normalizeAmount, signOf } from './money.ts';
import { PaidModal } from './PaidModal.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import { MemoItem } from '../../components/formItems.tsx';

export interface BillRoom {
  roomId: number;
  roomName: string;
  ownerName?: string | null;
  electricBalance: string;
  waterBalance: string;
}

/** The arrears of a 元 balance as a positive 元 string ("-12.30" → "12.30"), or null without arrears. */
export function arrearsOf(balance: string): string | null {
  return signOf(balance) < 0 ? balance.replace(/^-/, '') : null;
}

interface Values {
  wallet: Wallet;
  payMethod: PayMethod;
  amount: string;
  memo?: string;
}

export function BillPayDialog({ room, company, onDone, onClose }: { room: BillRoom; company?: string; onDone(r: CounterResult): void; onClose(): void }) {
  const [form] = Form.useForm<Values>();
  const requestId = useMemo(() => newRequestId(), []);
  const owing = (['electric', 'water'] as Wallet[]).filter((w) => arrearsOf(w === 'electric' ? room.electricBalance : room.waterBalance));
  const first = owing[0] ?? 'electric';
  const arrears = (w: Wallet) => arrearsOf(w === 'electric' ? room.electricBalance : room.waterBalance) ?? '0.00';
  const { busy, refusal, clear, runForm } = useRefusal();
  const [done, setDone] = useState<CounterResult | null>(null);

  const submit = () =>
    runForm(form, async (v) => {
      const r = await billingApi.billPay(
        { roomId: room.roomId, wallet: v.wallet, amount: normalizeAmount(v.amount), payMethod: v.payMethod, memo: (v.memo ?? '').trim(), requestId },
        company,
      );
      toast.success('缴费成功');
      setDone(r);
      onDone(r);
    });

  const title = `账单缴费：${room.roomName}${room.ownerName ? `（${room.ownerName}）` : ''}`;
  if (done) {
    return <PaidModal title={title} subTitle={`缴纳 ${money(done.amount)}，当前余额 ${money(done.balance)}`} receipt={done} onClose={onClose} />;
  }
  return (
    <Modal open title={title} okText="确定缴费" cancelText="取消" confirmLoading={busy} okButtonProps={{ disabled: owing.length === 0 }} onOk={() => void submit()} onCancel={onClose} maskClosable={false} destroyOnHidden>
      {owing.length === 0 ? (
        <Alert type="info" showIcon message="该房间没有欠费账单" />
      ) : (
        <Form<Values>
          form={form}
          layout="vertical"
          name="bill-pay"
          initialValues={{ wallet: first, payMethod: 'cash', amount: arrears(first), memo: '' }}
          onValuesChange={(changed) => {
            if (changed.wallet) form.setFieldValue('amount', arrears(changed.wallet as Wallet));
            clear();
          }}
        >
          <Form.Item name="wallet" label="欠费账户" rules={[{ required: true, message: '请选择账户' }]}>
            <Radio.Group optionType="button" options={owing.map((w) => ({ value: w, label: `${WALLET_TEXT[w]}（欠 ${money(arrears(w))}）` }))} />
          </Form.Item>
          <Form.Item name="payMethod" label="支付方式" rules={[{ required: true, message: '请选择支付方式' }]}>
            <Radio.Group optionType="button" options={COUNTER_PAY_METHODS.map((m) => ({ value: m, label: PAY_METHOD_TEXT[m] }))} />
          </Form.Item>
          <Form.Item
            name="amount"
            label="缴费金额（元）"
            rules={[amountRule('缴费金额')]}
          >
            <Input prefix="¥" suffix="元" inputMode="decimal" autoComplete="off" maxLength={16} />
          </Form.Item>
          <MemoItem />
        </Form>
      )}
      <RefusalAlert title="缴费未成功" refusal={refusal} />
    </Modal>
  );
}
