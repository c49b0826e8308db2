// 业主端 我的: who is signed in, and signing out (the session is revoked on the server).
import { useNavigate } from 'react-router';
import { Button } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { E } from '../api/endpoints.gen.ts';
import { call } from '../api/endpoint.ts';
import { clearOwnerSession, ownerSession } from './session.ts';

export default function Me() {
  const navigate = useNavigate();
  const client = useQueryClient();
  const s = ownerSession();
  const logout = async () => {
    await call(E.ownerApp.logout, {}, { silent: true }).catch(() => {});
    clearOwnerSession();
    client.removeQueries({ queryKey: ['owner'] });
    navigate('/h5/login', { replace: true });
  };
  return (
    <>
      <div className="h5-head"><h1>我的</h1></div>
      <section className="h5-card">
        <div className="h5-row"><span>业主</span><span>{s?.owner.name}</span></div>
        <div className="h5-row"><span>手机号</span><span>{s?.owner.phone || '未登记'}</span></div>
        <div className="h5-row"><span>物业单位</span><span>{s?.companyName}</span></div>
      </section>
      <Button danger block size="large" onClick={logout}>退出登录</Button>
    </>
  );
}
