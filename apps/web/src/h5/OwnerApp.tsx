// 业主端 H5 (issue 15 item 8): the owner's mobile web app under /h5, its own lazy chunk (router.tsx) so
// the back-office's first load does not carry it. Requests go with the owner token (session.ts); a 401
// sends the owner to /h5/login. Laid out for a phone (375×812) with antd components and plain CSS.
import { Suspense, type ReactNode } from 'react';
import { Navigate, NavLink, Route, Routes, useLocation } from 'react-router';
import Loading from './Loading.tsx';
import { configureRequest } from '../api/request.ts';
import { router } from '../app/router.tsx';
import { clearOwnerSession, ownerSession, ownerToken } from './session.ts';
import Login from './Login.tsx';
import Home from './Home.tsx';
import Pay from './Pay.tsx';
import RoomPage from './RoomPage.tsx';
import Notices, { NoticeView } from './Notices.tsx';
import Appeals, { AppealView } from './Appeals.tsx';
import AppealNew from './AppealNew.tsx';
import Me from './Me.tsx';
import './h5.css';

// this chunk loads only on /h5: from here on, requests are the owner's
configureRequest({
  getToken: ownerToken,
  onUnauthorized: () => {
    clearOwnerSession();
    if (window.location.pathname !== '/h5/login') void router.navigate('/h5/login', { replace: true });
  },
});

// one chunk for the H5 pages (the chart alone loads apart): fewer chunk-sharing sets, so the
// back-office chunks are split no finer than without the H5 (bench/web-bundle.ts)
const TABS = [
  { to: '/h5', label: '首页', end: true },
  { to: '/h5/notices', label: '公告' },
  { to: '/h5/appeals', label: '诉求' },
  { to: '/h5/me', label: '我的' },
];

function Signed({ children }: { children: ReactNode }) {
  const at = useLocation();
  if (!ownerSession()) return <Navigate to="/h5/login" replace state={{ from: at.pathname }} />;
  return (
    <>
      <main className="h5-main">{children}</main>
      <nav className="h5-tabs" aria-label="业主端导航">
        {TABS.map((t) => (
          <NavLink key={t.to} to={t.to} end={t.end} className={({ isActive }) => (isActive ? 'h5-tab active' : 'h5-tab')}>
            {t.label}
          </NavLink>
        ))}
      </nav>
    </>
  );
}

export default function OwnerApp() {
  return (
    <div className="h5">
      <Suspense fallback={<Loading block />}>
        <Routes>
          <Route path="login" element={<Login />} />
          <Route index element={<Signed><Home /></Signed>} />
          <Route path="pay/:roomId" element={<Signed><Pay /></Signed>} />
          <Route path="room/:roomId" element={<Signed><RoomPage /></Signed>} />
          <Route path="notices" element={<Signed><Notices /></Signed>} />
          <Route path="notices/:id" element={<Signed><NoticeView /></Signed>} />
          <Route path="appeals" element={<Signed><Appeals /></Signed>} />
          <Route path="appeals/new" element={<Signed><AppealNew /></Signed>} />
          <Route path="appeals/:id" element={<Signed><AppealView /></Signed>} />
          <Route path="me" element={<Signed><Me /></Signed>} />
          <Route path="*" element={<Navigate to="/h5" replace />} />
        </Routes>
      </Suspense>
    </div>
  );
}
