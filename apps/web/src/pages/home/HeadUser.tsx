import { useEffect, useState } from 'react';
import { Card, Descriptions, Form, Input, Button, Col, Row, Tag, Table, Segmented, Space, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { ACCESS, BANK_NAMES, type LoginLog } from '@meter/contracts';
import { authApi } from '../../api/yonghu.ts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { clearSession, updateSessionInfo, useSession } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { FORM_INVALID, supersededValidation } from '../../components/validate.ts';
import { phoneRule } from '../../components/rules.ts';
import { NewPasswordItems } from '../../components/formItems.tsx';

// 个人中心 (/headUser): who I am (and my own name and phone), my password, and my login history
// (every attempt on my account, with the address, the browser of each session and the one in use).

interface PasswordForm {
  oldPassword: string;
  newPassword: string;
  confirm: string;
}

/** The server's rule for a new password (NewPassword in packages/contracts endpoints/auth.ts). */
export const PASSWORD_RULES = [
  { required: true, message: '请输入新密码' },
  { min: 8, message: '密码至少 8 位' },
  { max: 64, message: '密码最多 64 位' },
  { pattern: /[A-Za-z]/, message: '密码须包含字母' },
  { pattern: /\d/, message: '密码须包含数字' },
];

const onFailed = (e: Parameters<typeof supersededValidation>[0]) => !supersededValidation(e) && toast.warning(FORM_INVALID);

/** A browser's User-Agent in a few words (浏览器 · 系统). */
export function browserOf(ua: string): string {
  if (!ua) return '—';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Chrome\//.test(ua) ? 'Chrome' : /Firefox\//.test(ua) ? 'Firefox' : /Safari\//.test(ua) ? 'Safari' : '其他浏览器';
  const os = /Windows/.test(ua) ? 'Windows' : /Android/.test(ua) ? 'Android' : /iPhone|iPad/.test(ua) ? 'iOS' : /Mac OS/.test(ua) ? 'macOS' : /Linux/.test(ua) ? 'Linux' : '';
  return os ? `${browser} · ${os}` : browser;
}

function ProfileCard() {
  const session = useSession();
  const [form] = Form.useForm<{ realName: string; phone: string }>();
  const role = useQuery({ queryKey: ['myRole'], queryFn: authApi.role });
  const profile = useQuery({ queryKey: ['myProfile'], queryFn: () => call(E.auth.profile) });
  const [editing, setEditing] = useState(false);
  useEffect(() => {
    if (profile.data) form.setFieldsValue({ realName: profile.data.realName, phone: profile.data.phone });
  }, [profile.data, form]);
  if (!session) return null;
  const save = async (v: { realName: string; phone: string }) => {
    try {
      await call(E.auth.saveProfile, { body: v });
    } catch {
      return;
    }
    toast.success('个人信息已保存');
    setEditing(false);
    void profile.refetch();
    try {
      updateSessionInfo(await authApi.sessionInfo()); // the header shows the new name
    } catch { /* shown by the wrapper */ }
  };
  const p = profile.data;
  return (
    <Card title="个人信息" extra={!editing && <Button size="small" onClick={() => setEditing(true)}>编辑</Button>}>
      {editing ? (
        <Form form={form} layout="vertical" onFinish={save} onFinishFailed={onFailed} style={{ maxWidth: 420 }}>
          <Form.Item name="realName" label="姓名" rules={[{ required: true, whitespace: true, message: '请输入姓名' }, { max: 64, message: '姓名最多 64 个字' }]}>
            <Input autoComplete="name" />
          </Form.Item>
          <Form.Item name="phone" label="手机号码" rules={[phoneRule('手机号码')]}>
            <Input autoComplete="tel" maxLength={11} />
          </Form.Item>
          <Space>
            <Button type="primary" htmlType="submit">保存</Button>
            <Button onClick={() => setEditing(false)}>取消</Button>
          </Space>
        </Form>
      ) : (
        <Descriptions column={1} bordered size="middle">
          <Descriptions.Item label="用户名">{session.user.username}</Descriptions.Item>
          <Descriptions.Item label="姓名">{p?.realName || session.user.realName || '—'}</Descriptions.Item>
          <Descriptions.Item label="手机号码">{p?.phone || '—'}</Descriptions.Item>
          <Descriptions.Item label="账号类型">
            {session.access === ACCESS.platform ? <Tag color="purple">平台管理员</Tag> : <Tag color="blue">单位用户</Tag>}
          </Descriptions.Item>
          <Descriptions.Item label="角色">{role.data?.roleName || '—'}</Descriptions.Item>
          <Descriptions.Item label="所属单位">{session.company?.name ?? '—'}</Descriptions.Item>
          {session.company && <Descriptions.Item label="结算银行">{BANK_NAMES[session.company.bankType] ?? '—'}</Descriptions.Item>}
          <Descriptions.Item label="上次登录">{p?.lastLoginAt ?? '—'}</Descriptions.Item>
          <Descriptions.Item label="密码修改时间">{p?.passwordChangedAt ?? '从未修改'}</Descriptions.Item>
        </Descriptions>
      )}
    </Card>
  );
}

function PasswordCard() {
  const navigate = useNavigate();
  const [form] = Form.useForm<PasswordForm>();
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
    <Card title="修改密码">
      <Form form={form} layout="vertical" onFinish={submit} onFinishFailed={onFailed} scrollToFirstError={{ block: 'center', focus: true }} style={{ maxWidth: 420 }}>
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password autoComplete="current-password" />
        </Form.Item>
        <NewPasswordItems name="newPassword" noun="密码" rules={PASSWORD_RULES} extra="8 至 64 位，须同时包含字母和数字；修改后需重新登录" />
        <Button type="primary" htmlType="submit">修改密码</Button>
      </Form>
    </Card>
  );
}

const RESULTS = [{ label: '全部', value: '' }, { label: '成功', value: '1' }, { label: '失败', value: '0' }];

function LoginLogCard() {
  const [page, setPage] = useState({ index: 1, size: 10 });
  const [result, setResult] = useState('');
  const q = useQuery({
    queryKey: ['myLoginLog', page, result],
    queryFn: () => call(E.auth.loginLog, { query: { ...page, ...(result ? { success: Number(result) } : {}) } }),
  });
  return (
    <Card
      title="登录记录"
      extra={<Segmented size="small" options={RESULTS} value={result} onChange={(v) => { setResult(String(v)); setPage((p) => ({ ...p, index: 1 })); }} />}
    >
      <Table<LoginLog>
        rowKey="id"
        size="small"
        loading={q.isFetching}
        dataSource={q.data?.data ?? []}
        columns={[
          { title: '登录时间', dataIndex: 'createdAt', width: 180 },
          {
            title: '结果', dataIndex: 'success', width: 160,
            render: (ok: boolean, r) => (ok ? <Space size={4}><Tag color="success">成功</Tag>{r.current && <Tag color="processing">当前在线</Tag>}</Space> : <Tag color="error">失败：{r.reasonText}</Tag>),
          },
          { title: 'IP 地址', dataIndex: 'ip', width: 150, render: (v: string) => v || '—' },
          { title: '浏览器', dataIndex: 'userAgent', render: (v: string) => <Typography.Text title={v}>{browserOf(v)}</Typography.Text> },
        ]}
        pagination={{
          current: page.index, pageSize: page.size, total: q.data?.count ?? 0, showSizeChanger: true, showTotal: (n) => `共 ${n} 条`,
          onChange: (index, size) => setPage({ index, size }),
        }}
        locale={{ emptyText: '暂无登录记录' }}
      />
    </Card>
  );
}

/** 个人中心: profile, password change (after a change the session ends: log in again) and login history. */
export default function HeadUser() {
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}><ProfileCard /></Col>
      <Col xs={24} lg={12}><PasswordCard /></Col>
      <Col span={24}><LoginLogCard /></Col>
    </Row>
  );
}
