// 人工抄表 (/peopleCasualCopy): enter a reading by hand. The form shows the meter's last reading; the
// server refuses a lower value or an earlier time unless the entry is marked 换表 (new meter) or
// 读数纠正 with a reason. Needs the operation device.manualRead.
import { useRef, useState } from 'react';
import { Alert, DatePicker, Descriptions, Form, Input, InputNumber, Radio } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import dayjs, { type Dayjs } from 'dayjs';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { controlApi } from './api.ts';
import { ControlMeterTable, timeText, useCompany, type MeterRow } from './shared.tsx';
import { useFormSave } from '../../components/submit.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';

interface FormValues {
  total: number;
  readAt?: Dayjs;
  adjust: number;
  reason?: string;
  memo?: string;
}

/** Form values → request body (the reading as an exact 2-decimal string, China time). */
export function manualBody(meterId: number, v: FormValues) {
  return {
    id: meterId,
    total: Number(v.total).toFixed(2),
    readAt: v.readAt ? v.readAt.format('YYYY-MM-DD HH:mm:ss') : undefined,
    adjust: v.adjust ?? 0,
    reason: (v.reason ?? '').trim(),
    memo: (v.memo ?? '').trim(),
  };
}

export default function PeopleCasualCopy() {
  const company = useCompany();
  const canEnter = useCan('device.manualRead');
  const tableRef = useRef<ActionType | undefined>(undefined);
  const [meter, setMeter] = useState<MeterRow | null>(null);
  const { saving, save: saveForm } = useFormSave();
  const [form] = Form.useForm<FormValues>();
  const adjust = Form.useWatch('adjust', form);

  const open = (m: MeterRow) => {
    form.resetFields();
    form.setFieldsValue({ adjust: 0, readAt: dayjs() });
    setMeter(m);
  };

  const save = () =>
    saveForm(form, async (v) => {
      if (!meter) return;
      const r = await controlApi.manualReading(manualBody(meter.id, v), company);
      toast.success(r.message);
      setMeter(null);
      tableRef.current?.reload();
    });

  return (
    <>
      <ControlMeterTable
        headerTitle="人工抄表"
        actionRef={tableRef}
        rowActions={(r) => (canEnter ? [<a key="enter" onClick={() => open(r)}>录入读数</a>] : [])}
      />
      <FormDialog
        open={!!meter}
        title="录入读数"
        confirmLoading={saving}
        onOk={() => void save()}
        onCancel={() => setMeter(null)}
        width={560}
      >
        {meter && (
          <>
            <Descriptions size="small" column={2} bordered style={{ marginBottom: 16 }}>
              <Descriptions.Item label="表具">{meter.name || meter.address}</Descriptions.Item>
              <Descriptions.Item label="表号">{meter.address}</Descriptions.Item>
              <Descriptions.Item label="房间">{meter.roomName || '-'}</Descriptions.Item>
              <Descriptions.Item label="类别">{meter.kindText}</Descriptions.Item>
              <Descriptions.Item label="上次读数">{meter.lastTotal != null ? `${meter.lastTotal} ${meter.unit}` : `无（初始读数 ${meter.initialReading} ${meter.unit}）`}</Descriptions.Item>
              <Descriptions.Item label="上次抄表">{timeText(meter.lastReadAt) || '-'}</Descriptions.Item>
            </Descriptions>
            <Form form={form} layout="vertical" name="manual-reading">
              <Form.Item label="录入类型" name="adjust" initialValue={0}>
                <Radio.Group
                  options={[
                    { label: '正常抄表', value: 0 },
                    { label: '换表（新表读数）', value: 1 },
                    { label: '读数纠正 / 补录', value: 2 },
                  ]}
                />
              </Form.Item>
              <Form.Item label={`本次读数（${meter.unit}）`} name="total" rules={[{ required: true, message: '请输入本次读数' }]}>
                <InputNumber min={0} max={999999999999} precision={2} style={{ width: '100%' }} placeholder="请输入本次读数" />
              </Form.Item>
              <Form.Item label="抄表时间" name="readAt" rules={[{ required: true, message: '请选择抄表时间' }]}>
                <DatePicker showTime style={{ width: '100%' }} disabledDate={(d) => d.isAfter(dayjs(), 'day')} />
              </Form.Item>
              {adjust ? (
                <>
                  <Alert
                    type="info"
                    showIcon
                    style={{ marginBottom: 12 }}
                    message={adjust === 1 ? '换表：新表读数可以小于旧表读数，此后用量从新读数起算' : '纠正：可录入小于上次的读数，或补录两次读数之间的历史读数；已结算的费用不会自动冲正'}
                  />
                  <Form.Item label="原因" name="reason" rules={[{ required: true, whitespace: true, min: 2, message: '请填写原因（至少 2 个字）' }]}>
                    <Input.TextArea rows={2} maxLength={200} showCount placeholder="例如：旧表损坏，已更换新表" />
                  </Form.Item>
                </>
              ) : null}
              <Form.Item label="备注" name="memo">
                <Input maxLength={200} placeholder="选填" />
              </Form.Item>
            </Form>
          </>
        )}
      </FormDialog>
    </>
  );
}
