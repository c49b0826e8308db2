import { useRef, useState } from 'react';
import { Avatar, Button, Input, Space } from 'antd';
import { UnlockOutlined, UserOutlined } from '@ant-design/icons';
import { Navigate, useNavigate } from 'react-router';
import { authApi } from '../api/yonghu.ts';
import { ApiError } from '../api/request.ts';
import { clearSession, useSession } from './session.ts';
import { isLocked, lastPage, setLocked } from './lock.ts';
import { Clock } from './Clock.tsx';
import { toast } from './feedback.tsx';

export const MSG_PASSWORD_WRONG = '密码错误';

/** /locking: reachable only while locked; the login password unlocks (checked by the server). */
export default function LockPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  // after a successful unlock the flag is 0 while the navigation to the last page is still in flight:
  // that render must not bounce us to /home
  const unlocking = useRef(false);
  if (!session) return <Navigate to="/login" replace />;
  if (!isLocked() && !unlocking.current) return <Navigate to="/home" replace />;

  const unlock = async () => {
    if (!password) {
      toast.warning('请输入密码');
      return;
    }
    setBusy(true);
    try {
      await authApi.unlock(password);
    } catch (e) {
      if (e instanceof ApiError && e.code === 'PASSWORD_WRONG') toast.warning(MSG_PASSWORD_WRONG);
      else if (e instanceof ApiError && e.code !== 'UNAUTHORIZED' && e.code !== 'DUPLICATE') toast.warning(e.serverMessage || MSG_PASSWORD_WRONG);
      setPassword('');
      setBusy(false);
      return;
    }
    unlocking.current = true;
    setLocked(false);
    navigate(lastPage(), { replace: true });
  };

  return (
    <div className="lock-page">
      <div className="lock-box">
        <Clock className="lock-clock" />
        <Avatar size={72} icon={<UserOutlined />} />
        <div className="lock-name">{session.user.realName || session.user.username}</div>
        <Space.Compact style={{ width: 280 }}>
          <Input.Password
            placeholder="请输入登录密码解锁"
            aria-label="解锁密码"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            onPressEnter={unlock}
            autoFocus
          />
          <Button type="primary" icon={<UnlockOutlined />} loading={busy} onClick={unlock}>解锁</Button>
        </Space.Compact>
        <Button
          type="link"
          className="lock-logout"
          onClick={() => {
            void authApi.logout().catch(() => undefined);
            clearSession();
            navigate('/login', { replace: true });
          }}
        >
          退出登录
        </Button>
      </div>
    </div>
  );
}
