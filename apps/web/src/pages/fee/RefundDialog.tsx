// 退款 of a paid online order (/notesPay 在线支付, finance.refund): an amount up to what is left
// refundable and a reason. The server debits the owner's wallet and refunds through WeChat Pay /
// Alipay, back the way it was paid; a request id made per dialog means a repeated click refunds once.
// Refused (more than is left, a balance that does not cover it) with the server's reason.
import { useState } from 'react';
import { Alert, Descriptions, Form, Input, Modal } from 'antd';
import { toast } from '../../app/feedback.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import type { OnlineRefund } from '@meter/contracts';
import { billingApi, type OnlineOrderRow } from './billingApi.ts';
import { money } from './money.ts';

const left = (o: OnlineOrderRow) => ((Math.round(Number(o.amount) * 100) - Math.round(Number(o.refunded) * 100)) / 100).toFixed(2);
/** a paid order with something left to refund */
export const refundable = (o: OnlineOrderRow) => o.status === 'paid' && Number(left(o)) > 0;
const newRequestId = () => `web${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;

export function RefundDialog({ order, company, onDone, onCancel }: { order: OnlineOrderRow | null; company?: string; onDone(r: OnlineRefund): void; onCancel(): void }) {
  if (!order) return null;
  return <RefundForm key={order.outTradeNo} order={order} company={company} onDone={onDone} onCancel={onCancel} />;
}

function RefundForm({ order, company, onDone, onCancel }: { order: OnlineOrderRow; company?: string; onDone(r: OnlineRefund): void; onCancel(): void }) {
  const [form] = Form.useForm<{ amount: string; reason: string }>();
  const { busy, refusal, clear, runForm } = useRefusal();
  const [requestId] = useState(newRequestId);
  const max = left(order);
  const submit = () =>
    runForm(form, async (v) => {
      const r = await billingApi.refundOnline(order.channel, { outTradeNo: order.outTradeNo, amount: String(v.amount).trim(), reason: v.reason.trim(), requestId }, company);
      if (r.status === 'failed') toast.error(`退款失败：${r.providerMessage || '支付平台拒绝'}，已退回账户余额`);
      else toast.success(r.status === 'success' ? `已退款 ${money(r.amount)}，原路退回` : `退款 ${money(r.amount)} 已提交支付平台，等待退款结果`);
      onDone(r);
    });
  return (
    <Modal open title="在线支付退款" okText="确认退款" okButtonProps={{ danger: true }} cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={onCancel} destroyOnHidden maskClosable={false}>
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label="订单号" span={2}>{order.outTradeNo}</Descriptions.Item>
        <Descriptions.Item label="渠道">{order.channelText}</Descriptions.Item>
        <Descriptions.Item label="业主">{order.ownerName ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="支付金额">{money(order.amount)}</Descriptions.Item>
        <Descriptions.Item label="可退金额">{money(max)}</Descriptions.Item>
      </Descriptions>
      <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="退款从业主账户余额扣除，并通过原支付渠道退回付款人；已消费的金额不能退。" />
      <Form form={form} layout="vertical" name="online-refund" onValuesChange={clear} initialValues={{ amount: max }}>
        <Form.Item
          name="amount"
          label="退款金额（元）"
          rules={[
            { required: true, whitespace: true, message: '请填写退款金额' },
            { pattern: /^\d{1,10}(\.\d{1,2})?$/, message: '金额格式不正确，最多两位小数' },
            { validator: (_r, v) => (v == null || v === '' || (Number(v) > 0 && Number(v) <= Number(max)) ? Promise.resolve() : Promise.reject(new Error(`退款金额须大于 0 且不超过可退金额 ${max} 元`))) },
          ]}
        >
          <Input inputMode="decimal" addonAfter="元" />
        </Form.Item>
        <Form.Item name="reason" label="退款原因" rules={[{ required: true, whitespace: true, message: '请填写退款原因' }, { max: 80, message: '退款原因最多 80 个字' }]}>
          <Input.TextArea rows={2} maxLength={80} placeholder="如：业主搬离、重复缴费" />
        </Form.Item>
      </Form>
      <RefusalAlert title="退款未成功" refusal={refusal} />
    </Modal>
  );
}
