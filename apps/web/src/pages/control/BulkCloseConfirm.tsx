// The confirmation of a bulk 拉闸/关阀 (/longRange, issue 11 item 10): nothing is sent on the first
// click. The dialog names how many meters of each kind will be switched off (电表 → 拉闸, 水表 →
// 关阀) and, when any of them has phaseId 1, asks the valve-control password in the same dialog
// (checked as the single close checks it, and sent with each request). Cancel sends nothing.
import { useState } from 'react';
import { Alert, Form, Typography } from 'antd';
import type { Company } from './api.ts';
import type { MeterRow } from './shared.tsx';
import { ValvePasswordField, formValvePassword, needsPassword } from './valvePassword.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';

/** 电表 12 块（拉闸）、水表 3 块（关阀） */
export function closeSummary(meters: { kind: number }[]) {
  const electric = meters.filter((m) => m.kind !== 2).length;
  const water = meters.length - electric;
  return [electric ? `电表 ${electric} 块（拉闸）` : '', water ? `水表 ${water} 块（关阀）` : ''].filter(Boolean).join('、');
}

/** 断电 (electric only), 断水 (water only) or 断电/断水 */
const cutWord = (meters: { kind: number }[]) => {
  const water = meters.some((m) => m.kind === 2);
  const electric = meters.some((m) => m.kind !== 2);
  return electric && water ? '断电/断水' : water ? '断水' : '断电';
};

const NAMES_SHOWN = 5;

export function BulkCloseConfirm({ meters, company, onCancel, onConfirm }: {
  meters: MeterRow[];
  company: Company;
  onCancel(): void;
  /** the password typed (trimmed) when one was asked */
  onConfirm(password?: string): void;
}) {
  const [form] = Form.useForm<{ password: string }>();
  const [checking, setChecking] = useState(false);
  const guarded = meters.filter(needsPassword);
  const names = meters.slice(0, NAMES_SHOWN).map((m) => m.name || m.address).join('、');

  const ok = async () => {
    if (!guarded.length) {
      onConfirm();
      return;
    }
    setChecking(true);
    try {
      const password = await formValvePassword(form, company);
      if (password != null) onConfirm(password);
    } finally {
      setChecking(false);
    }
  };

  return (
    <FormDialog
      open
      title="批量拉闸/关阀确认"
      okText={`确认拉闸/关阀 ${meters.length} 块`}
      okButtonProps={{ danger: true }}
      confirmLoading={checking}
      onOk={() => void ok()}
      onCancel={onCancel}
      width={480}
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 12 }}
        message={<span data-testid="bulk-close-summary">将对 {meters.length} 块表具{cutWord(meters)}：{closeSummary(meters)}</span>}
        description="指令下发后表具将断开供应，请确认所选表具无误。"
      />
      <Typography.Paragraph type="secondary" ellipsis={{ rows: 2 }}>
        {names}{meters.length > NAMES_SHOWN ? ` 等 ${meters.length} 块` : ''}
      </Typography.Paragraph>
      {guarded.length > 0 && (
        <Form form={form} layout="vertical" name="bulk-close-password" onFinish={() => void ok()}>
          <ValvePasswordField extra={`其中 ${guarded.length} 块为单相表，需输入阀控密码`} />
        </Form>
      )}
    </FormDialog>
  );
}
