// 业主端 sign-in: 手机验证码 (the code goes out by SMS; resend after the cooldown) or 房间编号 + 密码
// (the owner-portal password the property office gives out or resets). A phone registered with owners
// of several companies chooses one after the code (company, name, rooms); the session is that company's.
import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Form, Input, Tabs } from 'antd';
import type { OwnerChoice } from '@meter/contracts';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { clearToasts } from '../app/feedback.tsx';
import { useBusyRun } from '../components/busyRun.ts';
import { saveOwnerSession } from './session.ts';

interface Answer { token: string; owner: { id: number; name: string; phone: string }; companyName: string }

export default function Login() {
  const navigate = useNavigate();
  const { busy, run } = useBusyRun();
  const [wait, setWait] = useState(0);
  const [phoneForm] = Form.useForm<{ phone: string; code: string }>();
  /** the companies to choose from, with the phone and code that listed them (sent again with the choice) */
  const [pick, setPick] = useState<{ phone: string; code: string; choose: OwnerChoice[] } | null>(null);

  useEffect(() => {
    if (wait <= 0) return;
    const t = setTimeout(() => setWait((w) => w - 1), 1000);
    return () => clearTimeout(t);
  }, [wait]);

  const done = (a: Answer) => {
    // a refusal of an earlier try (wrong password, wrong code) does not stay over the signed-in page
    clearToasts();
    saveOwnerSession({ token: a.token, owner: a.owner, companyName: a.companyName });
    navigate('/h5', { replace: true });
  };
  const sendCode = async () => {
    const phone = await phoneForm.validateFields(['phone']).then((v) => v.phone).catch(() => null);
    if (!phone) return;
    await run(async () => {
      const r = await call(E.ownerApp.sendCode, { body: { phone } });
      setWait(r.cooldown);
    });
  };

  const phoneLogin = (v: { phone: string; code: string; companyId?: number }) =>
    run(async () => {
      const a = await call(E.ownerApp.loginPhone, { body: v });
      if ('choose' in a) setPick({ phone: v.phone, code: v.code, choose: a.choose });
      else done(a);
    });

  const phoneTab = (
    <Form form={phoneForm} layout="vertical" onFinish={(v) => phoneLogin({ phone: v.phone, code: v.code })}>
      <Form.Item name="phone" label="手机号" rules={[{ required: true, message: '请输入手机号' }, { pattern: /^1\d{10}$/, message: '请输入 11 位手机号' }]}>
        <Input inputMode="numeric" maxLength={11} placeholder="物业登记的手机号" autoComplete="tel" />
      </Form.Item>
      <Form.Item label="验证码" required>
        <div style={{ display: 'flex', gap: 8 }}>
          <Form.Item name="code" noStyle rules={[{ required: true, message: '请输入验证码' }, { pattern: /^\d{6}$/, message: '验证码为 6 位数字' }]}>
            <Input inputMode="numeric" maxLength={6} placeholder="6 位验证码" autoComplete="one-time-code" />
          </Form.Item>
          <Button onClick={sendCode} disabled={wait > 0 || busy}>{wait > 0 ? `${wait} 秒后重发` : '获取验证码'}</Button>
        </div>
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={busy}>登录</Button>
    </Form>
  );

  const roomTab = (
    <Form layout="vertical" onFinish={(v: { roomId: string; password: string }) => run(async () => done(await call(E.ownerApp.loginRoom, { body: { roomId: Number(v.roomId), password: v.password } })))}>
      <Form.Item name="roomId" label="房间编号" rules={[{ required: true, message: '请输入房间编号' }, { pattern: /^\d+$/, message: '房间编号为数字' }]}>
        <Input inputMode="numeric" placeholder="物业提供的房间编号" />
      </Form.Item>
      <Form.Item name="password" label="密码" rules={[{ required: true, message: '请输入密码' }]}>
        <Input.Password placeholder="业主密码" autoComplete="current-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" block size="large" loading={busy}>登录</Button>
    </Form>
  );

  if (pick) {
    return (
      <div className="h5-login">
        <h1>选择物业</h1>
        <p className="h5-muted">您的手机号在 {pick.choose.length} 家物业登记为业主，请选择要进入的物业。登录后只显示该物业的房间，如需查看其他物业请退出后重新选择。</p>
        {pick.choose.map((c) => (
          <button key={c.companyId} type="button" className="h5-card h5-choice" disabled={busy} onClick={() => phoneLogin({ phone: pick.phone, code: pick.code, companyId: c.companyId })}>
            <strong>{c.companyName}</strong>
            <span className="h5-muted">业主：{c.ownerName}</span>
            <span className="h5-muted">房间：{c.rooms.length ? c.rooms.join('、') : '暂无在住房间'}</span>
          </button>
        ))}
        <Button block onClick={() => setPick(null)}>返回</Button>
      </div>
    );
  }

  return (
    <div className="h5-login">
      <h1>业主服务</h1>
      <div className="h5-card">
        <Tabs items={[{ key: 'phone', label: '手机验证码登录', children: phoneTab }, { key: 'room', label: '房间密码登录', children: roomTab }]} />
      </div>
      <p className="h5-muted" style={{ textAlign: 'center' }}>忘记密码或手机号变更，请联系物业服务中心</p>
    </div>
  );
}
