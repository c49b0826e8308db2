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
  finance: {
    days: { method: 'GET', path: '/yewu/api/DailyClosing/List', paged: true } as RouteRef<typeof API.finance.days>,
    day: { method: 'GET', path: '/yewu/api/DailyClosing/Detail', paged: false } as RouteRef<typeof API.finance.day>,
    closeDay: { method: 'POST', path: '/yewu/api/DailyClosing/Close', paged: false } as RouteRef<typeof API.finance.closeDay>,
    handover: { method: 'POST', path: '/yewu/api/DailyClosing/Handover', paged: false } as RouteRef<typeof API.finance.handover>,
    voidReceipt: { method: 'POST', path: '/yewu/api/BillPrinting/Void', paged: false } as RouteRef<typeof API.finance.voidReceipt>,
    voids: { method: 'GET', path: '/yewu/api/BillPrinting/Voids', paged: false } as RouteRef<typeof API.finance.voids>,
    closeWechat: { method: 'POST', path: '/wxpay/api/wxpay/close', paged: false } as RouteRef<typeof API.finance.closeWechat>,
    closeAlipay: { method: 'POST', path: '/alipay/api/alipay/close', paged: false } as RouteRef<typeof API.finance.closeAlipay>,
  },
  appeal: {
    list: { method: 'GET', path: '/yewu/api/Appeal/List', paged: true } as RouteRef<typeof API.appeal.list>,
    detail: { method: 'GET', path: '/yewu/api/Appeal/Detail', paged: false } as RouteRef<typeof API.appeal.detail>,
    create: { method: 'POST', path: '/yewu/api/Appeal/Detail', paged: false } as RouteRef<typeof API.appeal.create>,
    accept: { method: 'POST', path: '/yewu/api/Appeal/Accept', paged: false } as RouteRef<typeof API.appeal.accept>,
    assign: { method: 'POST', path: '/yewu/api/Appeal/Assign', paged: false } as RouteRef<typeof API.appeal.assign>,
    reply: { method: 'POST', path: '/yewu/api/Appeal/Reply', paged: false } as RouteRef<typeof API.appeal.reply>,
    complete: { method: 'POST', path: '/yewu/api/Appeal/Complete', paged: false } as RouteRef<typeof API.appeal.complete>,
    reject: { method: 'POST', path: '/yewu/api/Appeal/Reject', paged: false } as RouteRef<typeof API.appeal.reject>,
    assignees: { method: 'GET', path: '/yewu/api/Appeal/Assignees', paged: false } as RouteRef<typeof API.appeal.assignees>,
    systemList: { method: 'GET', path: '/yewu/api/SystemAppeal/List', paged: true } as RouteRef<typeof API.appeal.systemList>,
    systemDetail: { method: 'GET', path: '/yewu/api/SystemAppeal/Detail', paged: false } as RouteRef<typeof API.appeal.systemDetail>,
    systemCreate: { method: 'POST', path: '/yewu/api/SystemAppeal/Detail', paged: false } as RouteRef<typeof API.appeal.systemCreate>,
    systemAccept: { method: 'POST', path: '/yewu/api/SystemAppeal/Accept', paged: false } as RouteRef<typeof API.appeal.systemAccept>,
    systemReply: { method: 'POST', path: '/yewu/api/SystemAppeal/Reply', paged: false } as RouteRef<typeof API.appeal.systemReply>,
    systemComplete: { method: 'POST', path: '/yewu/api/SystemAppeal/Complete', paged: false } as RouteRef<typeof API.appeal.systemComplete>,
    systemReject: { method: 'POST', path: '/yewu/api/SystemAppeal/Reject', paged: false } as RouteRef<typeof API.appeal.systemReject>,
  },
};
