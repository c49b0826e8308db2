import { lazy, memo, Suspense, useEffect, useState } from 'react';
import { Button, Space, Tag, Tooltip } from 'antd';
import {
  FullscreenExitOutlined, FullscreenOutlined, LockOutlined, LogoutOutlined, MenuFoldOutlined, MenuUnfoldOutlined,
  PlaySquareOutlined, ReadOutlined, SettingOutlined, UserOutlined,
} from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { BANK_NAMES, EDITION_SHORT_TITLES, EDITION_TITLES, ACCESS } from '@meter/contracts';
import { authApi } from '../api/yonghu.ts';
import { Clock } from './Clock.tsx';
import { clearSession, type Session } from './session.ts';
import { startLock } from './lock.ts';
import { getModal } from './feedback.tsx';

// only platform admins see the company picker: load its Select on demand
const CompanyPicker = lazy(() => import('./CompanyPicker.tsx'));
// company users with the 系统公告 page see its unread count
const NoticeBell = lazy(() => import('./NoticeBell.tsx'));
// company users with an SMS page are warned when the company's SMS credit is low or out
const SmsCreditTag = lazy(() => import('./SmsCreditTag.tsx'));

export function editionTitle(session: Session | null): string {
  return EDITION_TITLES[session?.company?.edition ?? 0] ?? EDITION_TITLES[0];
}

/** The side menu's name of the platform: the header's edition, shortened where the menu is narrow. */
export function editionLogo(session: Session | null, collapsed: boolean): string {
  const t = EDITION_SHORT_TITLES[session?.company?.edition ?? 0] ?? EDITION_SHORT_TITLES[0];
  return collapsed ? t.collapsed : t.full;
}

function useFullscreen(): [boolean, () => void] {
  const [full, setFull] = useState(() => typeof document !== 'undefined' && !!document.fullscreenElement);
  useEffect(() => {
    const onChange = () => setFull(!!document.fullscreenElement);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggle = () => {
    if (document.fullscreenElement) void document.exitFullscreen?.();
    else void document.documentElement.requestFullscreen?.().catch(() => {});
  };
  return [full, toggle];
}


export const HeaderBar = memo(function HeaderBar(props: { session: Session; collapsed: boolean; onToggle(): void }) {
  const { session, collapsed, onToggle } = props;
  const navigate = useNavigate();
  const [full, toggleFull] = useFullscreen();
  const company = session.company;
  const bank = company ? BANK_NAMES[company.bankType] : undefined;

  const logout = () => {
    const doLogout = async () => {
      await authApi.logout().catch(() => undefined);
      clearSession();
      navigate('/login', { replace: true });
    };
    const modal = getModal();
    if (!modal) return void doLogout();
    modal.confirm({ title: '提示', content: '确定退出登录吗？', okText: '确定', cancelText: '取消', onOk: doLogout });
  };

  return (
    <div className="shell-header">
      <Space size={12} className="shell-header-left">
        <Button type="text" aria-label={collapsed ? '展开菜单' : '收起菜单'} icon={collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />} onClick={onToggle} />
        <span className="shell-title">{editionTitle(session)}</span>
        {company && <span className="shell-company">{company.name}</span>}
        {bank && <Tag color="blue">{bank}</Tag>}
        {session.access === ACCESS.platform && (
          <Suspense fallback={null}>
            <CompanyPicker />
          </Suspense>
        )}
      </Space>
      <Space size={4} className="shell-header-right" wrap={false}>
        <Clock className="shell-clock" />
        {session.access !== ACCESS.platform && (session.routes.includes('notesMessage') || session.routes.includes('systemSend')) && (
          <Suspense fallback={null}>
            <SmsCreditTag />
          </Suspense>
        )}
        {session.access !== ACCESS.platform && session.routes.includes('systemNotice') && (
          <Suspense fallback={null}>
            <NoticeBell />
          </Suspense>
        )}
        <Button type="text" size="small" aria-label="视频教程" title="视频教程" icon={<PlaySquareOutlined />} onClick={() => navigate('/headQuestion?mode=video')}><span className="shell-shortcut-text">视频教程</span></Button>
        <Button type="text" size="small" aria-label="文字教程" title="文字教程" icon={<ReadOutlined />} onClick={() => navigate('/headQuestion?mode=text')}><span className="shell-shortcut-text">文字教程</span></Button>
        <Button type="text" size="small" aria-label="设置" title="设置" icon={<SettingOutlined />} onClick={() => navigate('/headSet')}><span className="shell-shortcut-text">设置</span></Button>
        <Button type="text" size="small" aria-label="个人中心" title="个人中心" icon={<UserOutlined />} onClick={() => navigate('/headUser')}><span className="shell-shortcut-text">个人中心</span></Button>
        <Tooltip title={full ? '退出全屏' : '全屏'}>
          <Button type="text" aria-label={full ? '退出全屏' : '全屏'} icon={full ? <FullscreenExitOutlined /> : <FullscreenOutlined />} onClick={toggleFull} />
        </Tooltip>
        {/* the page to return to is the address shown, not the router's rendered location: a menu
            click commits its route in a transition, so until the new page has rendered useLocation()
            still names the previous one (unlocking then landed there, e.g. on /home) */}
        <Tooltip title="锁屏">
          <Button type="text" aria-label="锁屏" icon={<LockOutlined />} onClick={() => startLock(window.location.pathname + window.location.search, (to) => navigate(to))} />
        </Tooltip>
        <span className="shell-user">{session.user.realName || session.user.username}</span>
        <Button type="text" size="small" danger aria-label="退出" title="退出" icon={<LogoutOutlined />} onClick={logout}><span className="shell-shortcut-text">退出</span></Button>
      </Space>
    </div>
  );
});
