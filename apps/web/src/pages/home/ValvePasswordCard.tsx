// 阀控密码 on 系统设置 (/headSet), for a company admin (issue 12 §3): the password asked before a
// single-phase meter is switched off (SPEC §4/§5). The server keeps only its hash and never sends it:
// the card says whether one is set; changing it needs the current one (wrong ones are audited and
// limited like every valve password). The platform admin sets it per company on /belongs.
import { Alert, Button, Card, Form, Input, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { companySelfApi } from '../../api/company.ts';
import { toast } from '../../app/feedback.tsx';
import { FORM_INVALID } from '../../components/validate.ts';
import { NewPasswordItems } from '../../components/formItems.tsx';
import type { Session } from '../../app/session.ts';

interface Values {
  currentPassword?: string;
  password: string;
  confirm: string;
}

/** A company admin (account or role administration) who may switch valves: the server's own rule. */
export const canSetValvePassword = (s: Session | null) =>
  !!s && s.access === 1 && s.operations.includes('device.valve') && (s.routes.includes('systemRecords') || s.routes.includes('systemRole'));

export const VALVE_PASSWORD_RULES = [
  { required: true, whitespace: true, message: '请输入新阀控密码' },
  { min: 4, message: '阀控密码至少 4 位' },
  { max: 32, message: '阀控密码最多 32 位' },
  { pattern: /^\S+$/, message: '阀控密码不能包含空格' },
];

export function ValvePasswordCard() {
  const [form] = Form.useForm<Values>();
  const info = useQuery({ queryKey: ['companyInfo', 'valvePassword'], queryFn: () => companySelfApi.info() });
  const isSet = !!info.data?.hasValveControlPwd;

  const submit = async (v: Values) => {
    try {
      await companySelfApi.setValveControlPwd(v.password.trim(), isSet ? v.currentPassword?.trim() : undefined);
    } catch {
      return; // the wrapper showed the server's reason (e.g. 当前阀控密码不正确)
    }
    toast.success(isSet ? '阀控密码已修改' : '阀控密码已设置');
    form.resetFields();
    void info.refetch();
  };

  return (
    <Card
      title="阀控密码"
      loading={info.isLoading}
      extra={isSet ? <Tag color="green">已设置</Tag> : <Tag color="orange">未设置</Tag>}
    >
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 16, maxWidth: 640 }}
        message="对单相表拉闸（含定时拉闸）前须输入阀控密码，由服务器校验；连续输错 5 次将锁定 15 分钟。"
      />
      <Form form={form} layout="vertical" name="valve-password-settings" onFinish={submit} onFinishFailed={() => toast.warning(FORM_INVALID)} style={{ maxWidth: 420 }}>
        {isSet && (
          <Form.Item name="currentPassword" label="当前阀控密码" rules={[{ required: true, whitespace: true, message: '请输入当前阀控密码' }]}>
            <Input.Password autoComplete="off" />
          </Form.Item>
        )}
        <NewPasswordItems name="password" noun="阀控密码" rules={VALVE_PASSWORD_RULES} />
        <Button type="primary" htmlType="submit">
          {isSet ? '修改阀控密码' : '设置阀控密码'}
        </Button>
      </Form>
    </Card>
  );
}
