// 作废票据 (/billprint, finance.reverse): the reason is required; the server books a reversal (冲正)
// in the journal — the original receipt and its row stay — and the balance goes back. A receipt of a
// closed day (日结/交班), one voided before, or a top-up already spent is refused with the reason.
import { Alert, Descriptions, Form, Input, Modal } from 'antd';
import { toast } from '../../app/feedback.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import type { ReceiptRow } from './billingApi.ts';
import { financeApi } from './financeApi.ts';
import { money } from './money.ts';

/** The receipt kinds a void applies to (a single counter posting). */
export const VOIDABLE_KINDS = new Set(['prepay', 'refund', 'subsidy', 'billPay']);

export function VoidDialog({ receipt, company, onDone, onCancel }: { receipt: ReceiptRow | null; company?: string; onDone(): void; onCancel(): void }) {
  const [form] = Form.useForm<{ reason: string }>();
  const { busy, refusal, clear, runForm } = useRefusal();
  if (!receipt) return null;
  const submit = () =>
    runForm(form, async (v) => {
      const r = await financeApi.voidReceipt(receipt.id, v.reason.trim(), company);
      toast.success(`票据 ${r.no} 已作废，冲正 ${money(r.amount)}，余额 ${money(r.balance)}`);
      onDone();
    });
  return (
    <Modal open title="作废票据" okText="确认作废" okButtonProps={{ danger: true }} cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={onCancel} destroyOnHidden maskClosable={false}>
      <Descriptions size="small" column={2} bordered style={{ marginBottom: 12 }}>
        <Descriptions.Item label="票据号">{receipt.no}</Descriptions.Item>
        <Descriptions.Item label="类型">{receipt.kindText}</Descriptions.Item>
        <Descriptions.Item label="房间">{receipt.roomName ?? '-'}</Descriptions.Item>
        <Descriptions.Item label="金额">{money(receipt.amount)}</Descriptions.Item>
      </Descriptions>
      <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="作废将记一笔冲正流水（原票据和原流水保留），账户余额随之退回；作废后不能撤销。" />
      <Form form={form} layout="vertical" name="void-receipt" onValuesChange={clear}>
        <Form.Item
          name="reason"
          label="作废原因"
          rules={[{ required: true, whitespace: true, message: '请填写作废原因' }, { min: 2, message: '作废原因至少 2 个字' }, { max: 200, message: '作废原因最多 200 个字' }]}
        >
          <Input.TextArea rows={3} maxLength={200} placeholder="如：金额录入错误、重复收款" />
        </Form.Item>
      </Form>
      <RefusalAlert title="作废未成功" refusal={refusal} />
    </Modal>
  );
}
