import { Card, Descriptions, Form, Input, Button, Col, Row, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ACCESS, BANK_NAMES } from '@meter/contracts';
import { authApi } from '../../api/yonghu.ts';
import { clearSession, useSession } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { FORM_INVALID, supersededValidation } from '../../components/validate.ts';

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

export const PASSWORD_RULES = [
  { required: true, message: '请输入新密码' },
  { min: 6, message: '密码长度不能少于6位' },
  { max: 32, message: '密码长度不能超过32位' },
];

/** 个人中心: profile and password change (after a change the session ends: log in again). */
export default function HeadUser() {
  const session = useSession();
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordForm>();
  const role = useQuery({ queryKey: ['myRole'], queryFn: authApi.role });
  if (!session) return null;

  const submit = async (v: PasswordForm) => {
    try {
      await authApi.changePassword(v.oldPassword, v.newPassword);
    } catch {
      return; // the wrapper showed the server's reason (e.g. 原密码错误)
    }
    toast.success('密码修改成功，请重新登录');
    clearSession();
    navigate('/login', { replace: true });
  };

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card title="个人信息">
          <Descriptions column={1} bordered size="middle">
            <Descriptions.Item label="用户名">{session.user.username}</Descriptions.Item>
            <Descriptions.Item label="姓名">{session.user.realName || '—'}</Descriptions.Item>
            <Descriptions.Item label="账号类型">
              {session.access === ACCESS.platform ? <Tag color="purple">平台管理员</Tag> : <Tag color="blue">单位用户</Tag>}
            </Descriptions.Item>
            <Descriptions.Item label="角色">{role.data?.roleName || '—'}</Descriptions.Item>
            <Descriptions.Item label="所属单位">{session.company?.name ?? '—'}</Descriptions.Item>
            {session.company && (
              <Descriptions.Item label="结算银行">{BANK_NAMES[session.company.bankType] ?? '—'}</Descriptions.Item>
            )}
          </Descriptions>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title="修改密码">
          <Form
            form={form}
            layout="vertical"
            onFinish={submit}
            onFinishFailed={(e) => !supersededValidation(e) && toast.warning(FORM_INVALID)}
            scrollToFirstError={{ block: 'center', focus: true }}
            style={{ maxWidth: 420 }}
          >
            <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
              <Input.Password autoComplete="current-password" />
            </Form.Item>
            <Form.Item name="newPassword" label="新密码" rules={PASSWORD_RULES}>
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label="确认新密码"
              dependencies={['newPassword']}
              rules={[
                { required: true, message: '请再次输入新密码' },
                ({ getFieldValue }) => ({
                  validator: (_, value) =>
                    !value || value === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error('两次输入的密码不一致')),
                }),
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
            <Button type="primary" htmlType="submit">修改密码</Button>
          </Form>
        </Card>
      </Col>
    </Row>
  );
}
