import { lazy, Suspense, type ReactNode } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router';
import { Spin } from 'antd';

// Route-level splitting: the entry holds React, the router, antd's provider and the request wrapper;
// the shell (menu, tabs, header), the login and the lock page each load with their route.
const Shell = lazy(() => import('./Shell.tsx'));
const LoginPage = lazy(() => import('./LoginPage.tsx'));
const LockPage = lazy(() => import('./LockPage.tsx'));
// 业主端 H5 (issue 15 item 8): its own chunk, its own session
const OwnerApp = lazy(() => import('../h5/OwnerApp.tsx'));

function Boundary({ children }: { children: ReactNode }) {
  return <Suspense fallback={<div className="page-loading"><Spin /></div>}>{children}</Suspense>;
}

export const routes: RouteObject[] = [
  { path: '/login', element: <Boundary><LoginPage /></Boundary> },
  { path: '/locking', element: <Boundary><LockPage /></Boundary> },
  { path: '/h5/*', element: <Boundary><OwnerApp /></Boundary> },
  { path: '*', element: <Boundary><Shell /></Boundary> },
];

export const router = createBrowserRouter(routes);
