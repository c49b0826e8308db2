// 业主端 我的: who is signed in, changing a room's sign-in password (every session of that owner ends,
// this one too: sign in again with the new one), and signing out (the session is revoked on the server).
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Form, Input, Select } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { toast } from '../app/feedback.tsx';
import { useMe } from './data.ts';
import { clearOwnerSession, ownerSession } from './session.ts';

interface PasswordForm { roomId: number; oldPassword: string; newPassword: string; confirm: string }

function ChangePassword({ onDone }: { onDone: () => void }) {
  const me = useMe();
  const [form] = Form.useForm<PasswordForm>();
  const [busy, setBusy] = useState(false);
  const rooms = me.data?.rooms ?? [];
  if (!rooms.length) return null;
  const submit = async (v: PasswordForm) => {
    setBusy(true);
    try {
      await call(E.ownerApp.password, { body: { roomId: v.roomId, oldPassword: v.oldPassword, newPassword: v.newPassword } });
      toast.success('密码已修改，请使用新密码重新登录');
      onDone();
    } catch {
      /* the request wrapper showed the message */
    } finally {
      setBusy(false);
    }
  };
  return (
    <section className="h5-card">
      <h2>修改房间登录密码</h2>
      <Form form={form} layout="vertical" initialValues={{ roomId: rooms[0]?.roomId }} onFinish={submit}>
        {rooms.length > 1 && (
          <Form.Item name="roomId" label="房间" rules={[{ required: true, message: '请选择房间' }]}>
            <Select options={rooms.map((r) => ({ value: r.roomId, label: r.path }))} />
          </Form.Item>
        )}
        {rooms.length === 1 && <Form.Item name="roomId" hidden><Input /></Form.Item>}
        <Form.Item name="oldPassword" label="原密码" rules={[{ required: true, message: '请输入原密码' }]}>
          <Input.Password autoComplete="current-password" placeholder="物业提供或上次设置的密码" />
        </Form.Item>
        <Form.Item
          name="newPassword"
          label="新密码"
          rules={[
            { required: true, message: '请输入新密码' },
            { min: 8, message: '密码至少 8 位' },
            { max: 64, message: '密码最多 64 位' },
            { pattern: /[A-Za-z]/, message: '密码须包含字母' },
            { pattern: /\d/, message: '密码须包含数字' },
          ]}
        >
          <Input.Password autoComplete="new-password" placeholder="8–64 位，含字母和数字" />
        </Form.Item>
        <Form.Item
          name="confirm"
          label="确认新密码"
          dependencies={['newPassword']}
          rules={[
            { required: true, message: '请再次输入新密码' },
            ({ getFieldValue }) => ({ validator: (_r, v) => (!v || v === getFieldValue('newPassword') ? Promise.resolve() : Promise.reject(new Error('两次输入的新密码不一致'))) }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={busy}>修改密码</Button>
      </Form>
      <p className="h5-muted">修改后，用该房间登录的所有设备都需要重新登录。未设置过密码请联系物业重置。</p>
    </section>
  );
}

export default function Me() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const s = ownerSession();
  const signedOut = () => {
    clearOwnerSession();
    client.removeQueries({ queryKey: ['owner'] });
    navigate('/h5/login', { replace: true });
  };
  const logout = async () => {
    await call(E.ownerApp.logout, {}, { silent: true }).catch(() => {});
    signedOut();
  };
  return (
    <>
      <div className="h5-head"><h1>我的</h1></div>
      <section className="h5-card">
        <div className="h5-row"><span>业主</span><span>{s?.owner.name}</span></div>
        <div className="h5-row"><span>手机号</span><span>{s?.owner.phone || '未登记'}</span></div>
        <div className="h5-row"><span>物业单位</span><span>{s?.companyName}</span></div>
      </section>
      <ChangePassword onDone={signedOut} />
      <Button danger block size="large" onClick={logout}>退出登录</Button>
    </>
  );
}
