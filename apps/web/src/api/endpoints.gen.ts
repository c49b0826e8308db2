// Generated from packages/contracts/src/endpoints by `npm run gen:client` — do not edit.
// The browser gets each declared endpoint's method, path and paging, typed by its declaration
// (a type-only import: no schema in the bundle). api/endpoint.ts `call` sends them.
import type { API } from '@meter/contracts';
import type { RouteRef } from '@meter/contracts';

export const E = {
  auth: {
    login: { method: 'POST', path: '/yonghu/api/admin/login', paged: false } as RouteRef<typeof API.auth.login>,
    logout: { method: 'POST', path: '/yonghu/api/logout', paged: false } as RouteRef<typeof API.auth.logout>,
    session: { method: 'GET', path: '/yonghu/api/admin/user/token', paged: false } as RouteRef<typeof API.auth.session>,
    role: { method: 'GET', path: '/yonghu/api/admin/user/role', paged: false } as RouteRef<typeof API.auth.role>,
    loginCode: { method: 'GET', path: '/yonghu/api/admin/user/LoginCode', paged: false } as RouteRef<typeof API.auth.loginCode>,
    unlock: { method: 'POST', path: '/yonghu/api/admin/user/unlock', paged: false } as RouteRef<typeof API.auth.unlock>,
    changePassword: { method: 'PUT', path: '/yonghu/api/admin/user/changePassword', paged: false } as RouteRef<typeof API.auth.changePassword>,
  },
  system: {
    auditLog: { method: 'GET', path: '/yonghu/api/admin/log/list', paged: true } as RouteRef<typeof API.system.auditLog>,
    jobs: { method: 'GET', path: '/yonghu/api/system/jobs', paged: false } as RouteRef<typeof API.system.jobs>,
  },
};
