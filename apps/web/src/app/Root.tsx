import type { ReactNode } from 'react';
import { App as AntApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import { configureRequest } from '../api/request.ts';
import { forgetUploadTokens } from '../api/uploadCache.ts';
import { clearSession, getToken, onSessionCleared } from './session.ts';
import { FeedbackBridge, toast } from './feedback.tsx';
import { LockOverlay } from './LockOverlay.tsx';
import { router } from './router.tsx';

dayjs.locale('zh-cn');

configureRequest({
  getToken,
  toast,
  onUnauthorized: () => {
    clearSession();
    if (window.location.pathname !== '/login') void router.navigate('/login', { replace: true });
  },
});

// an upload token names the company its files belong to: none outlives the session (SPEC §4 cache)
onSessionCleared(forgetUploadTokens);

const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

/** A user who asked the system for less motion (an accessibility setting) gets antd without animations. */
const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** antd locale and theme, the message/modal holder, react-query. */
export function Providers({ children, client = queryClient }: { children: ReactNode; client?: QueryClient }) {
  return (
    <ConfigProvider locale={zhCN} theme={{ token: { colorPrimary: '#1677ff', borderRadius: 4, motion: !reducedMotion() } }}>
      {/* SPEC §9: at most 3 messages on screen */}
      <AntApp message={{ maxCount: 3 }}>
        <FeedbackBridge />
        <QueryClientProvider client={client}>{children}</QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  );
}

export function Root() {
  return (
    <Providers>
      {/* navigations render at once, not in a transition: a transition's render yields to every other
          update (the tabs' measurements, the menu's hover) and starts over after each */}
      <RouterProvider router={router} useTransitions={false} />
      <LockOverlay />
    </Providers>
  );
}
