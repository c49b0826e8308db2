import { useState } from 'react';
import { Button, Card, Form, Input, Typography } from 'antd';
import { LockOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { EDITION_TITLES, PRODUCT_VERSION } from '@meter/contracts';
import { authApi, type LoginInput } from '../api/yonghu.ts';
import { rememberedEdition, saveSession } from './session.ts';
import { setLocked } from './lock.ts';
import { tabsStore } from './tabsInstance.ts';
import { FORM_INVALID, supersededValidation } from '../components/validate.ts';
import { clearToasts, toast } from './feedback.tsx';

export default function LoginPage() {
  const navigate = useNavigate();
  const [form] = Form.useForm<LoginInput>();
  const [needCode, setNeedCode] = useState(false);
  const [loading, setLoading] = useState(false);
  const title = EDITION_TITLES[rememberedEdition()] ?? EDITION_TITLES[0];

  const checkCode = async () => {
    const username = String(form.getFieldValue('username') ?? '').trim();
    if (!username) return;
    try {
      const r = await authApi.loginCodeRequired(username);
      setNeedCode(!!r?.required);
    } catch {
      setNeedCode(false);
    }
  };

  const submit = async (values: LoginInput) => {
    setLoading(true);
    try {
      const body: LoginInput = { username: values.username.trim(), password: values.password };
      if (needCode && values.code) body.code = values.code.trim();
      const result = await authApi.login(body);
      saveSession(result);
      // a refusal of an earlier try (用户名或密码错误) is over: it must not follow the user to /home
      clearToasts();
      setLocked(false);
      tabsStore.restore();
      navigate('/home', { replace: true });
    } catch {
      // the request wrapper already showed the server's message (e.g. 用户名或密码错误)
      void checkCode();
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="login-page">
      <Card className="login-card" variant="borderless">
        <Typography.Title level={3} className="login-title">{title}</Typography.Title>
        <Typography.Paragraph type="secondary" className="login-sub">账号登录</Typography.Paragraph>
        <Form
          form={form}
          size="large"
          onFinish={submit}
          onFinishFailed={(e) => !supersededValidation(e) && toast.warning(FORM_INVALID)}
          autoComplete="off"
        >
          <Form.Item name="username" rules={[{ required: true, whitespace: true, message: '请输入用户名' }]}>
            <Input prefix={<UserOutlined />} placeholder="用户名" onBlur={checkCode} autoFocus aria-label="用户名" />
          </Form.Item>
          <Form.Item name="password" rules={[{ required: true, message: '请输入密码' }]}>
            <Input.Password prefix={<LockOutlined />} placeholder="密码" aria-label="密码" />
          </Form.Item>
          {needCode && (
            <Form.Item name="code" rules={[{ required: true, whitespace: true, message: '请输入验证码' }]}>
              <Input prefix={<SafetyOutlined />} placeholder="验证码" aria-label="验证码" />
            </Form.Item>
          )}
          <Button type="primary" htmlType="submit" block loading={loading}>登 录</Button>
        </Form>
        <div className="login-version">{PRODUCT_VERSION}</div>
      </Card>
    </div>
  );
}
