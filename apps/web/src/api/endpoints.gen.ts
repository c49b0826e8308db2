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
  admin: {
    userList: { method: 'GET', path: '/yonghu/api/admin/user/list', paged: true } as RouteRef<typeof API.admin.userList>,
    user: { method: 'GET', path: '/yonghu/api/admin/user', paged: false } as RouteRef<typeof API.admin.user>,
    createUser: { method: 'POST', path: '/yonghu/api/admin/user', paged: false } as RouteRef<typeof API.admin.createUser>,
    updateUser: { method: 'PUT', path: '/yonghu/api/admin/user', paged: false } as RouteRef<typeof API.admin.updateUser>,
    deleteUser: { method: 'DELETE', path: '/yonghu/api/admin/user', paged: false } as RouteRef<typeof API.admin.deleteUser>,
    resetPassword: { method: 'PUT', path: '/yonghu/api/admin/user/resetPassword', paged: false } as RouteRef<typeof API.admin.resetPassword>,
    createManager: { method: 'POST', path: '/yonghu/api/admin/manager/user', paged: false } as RouteRef<typeof API.admin.createManager>,
    updateManager: { method: 'PUT', path: '/yonghu/api/admin/manager/user', paged: false } as RouteRef<typeof API.admin.updateManager>,
    roleList: { method: 'GET', path: '/yonghu/api/admin/role/list', paged: true } as RouteRef<typeof API.admin.roleList>,
    role: { method: 'GET', path: '/yonghu/api/admin/role', paged: false } as RouteRef<typeof API.admin.role>,
    createRole: { method: 'POST', path: '/yonghu/api/admin/role', paged: false } as RouteRef<typeof API.admin.createRole>,
    updateRole: { method: 'PUT', path: '/yonghu/api/admin/role', paged: false } as RouteRef<typeof API.admin.updateRole>,
    deleteRole: { method: 'DELETE', path: '/yonghu/api/admin/role', paged: false } as RouteRef<typeof API.admin.deleteRole>,
  },
  area: {
    tree: { method: 'GET', path: '/yewu/api/GetAreaTree', paged: false } as RouteRef<typeof API.area.tree>,
    treeNoRoom: { method: 'GET', path: '/yewu/api/GetAreaTreeNoRoom', paged: false } as RouteRef<typeof API.area.treeNoRoom>,
    treeNoRoomV2: { method: 'GET', path: '/yewu/api/GetAreaTreeNoRoomV2', paged: false } as RouteRef<typeof API.area.treeNoRoomV2>,
    userBindTree: { method: 'GET', path: '/yewu/api/GetUserBindAreaTree', paged: false } as RouteRef<typeof API.area.userBindTree>,
    userBindableTree: { method: 'GET', path: '/yewu/api/GetNoUserBindAreaTreeV2', paged: false } as RouteRef<typeof API.area.userBindableTree>,
    childAreas: { method: 'GET', path: '/yewu/api/Area/GetAllChildArea', paged: true } as RouteRef<typeof API.area.childAreas>,
    addressOptions: { method: 'GET', path: '/yewu/api/Area/GetAddressOptions', paged: false } as RouteRef<typeof API.area.addressOptions>,
    create: { method: 'POST', path: '/yewu/api/Area/Detail', paged: false } as RouteRef<typeof API.area.create>,
    update: { method: 'PUT', path: '/yewu/api/Area/Detail', paged: false } as RouteRef<typeof API.area.update>,
    remove: { method: 'DELETE', path: '/yewu/api/Area/Detail/:id', paged: false } as RouteRef<typeof API.area.remove>,
    usingPermissions: { method: 'GET', path: '/yewu/api/AreaPermission/GetUsingList', paged: false } as RouteRef<typeof API.area.usingPermissions>,
    bindUser: { method: 'POST', path: '/yewu/api/AreaPermission/BindUser', paged: false } as RouteRef<typeof API.area.bindUser>,
  },
  scheme: {
    using: { method: 'GET', path: '/yewu/api/chargingscheme/GetAllUsingList', paged: false } as RouteRef<typeof API.scheme.using>,
    byType: { method: 'GET', path: '/yewu/api/chargingscheme/GetListByType', paged: false } as RouteRef<typeof API.scheme.byType>,
    list: { method: 'GET', path: '/yewu/api/chargingscheme/list', paged: true } as RouteRef<typeof API.scheme.list>,
    detail: { method: 'GET', path: '/yewu/api/chargingscheme/detail/:id', paged: false } as RouteRef<typeof API.scheme.detail>,
    create: { method: 'POST', path: '/yewu/api/chargingscheme/detail', paged: false } as RouteRef<typeof API.scheme.create>,
    update: { method: 'PUT', path: '/yewu/api/chargingscheme/detail', paged: false } as RouteRef<typeof API.scheme.update>,
    remove: { method: 'DELETE', path: '/yewu/api/chargingscheme/detail', paged: false } as RouteRef<typeof API.scheme.remove>,
    schemeEnum: { method: 'GET', path: '/yewu/api/sys_companychargecode/SchemeEnum', paged: false } as RouteRef<typeof API.scheme.schemeEnum>,
  },
  notify: {
    list: { method: 'GET', path: '/sms/log/list', paged: true } as RouteRef<typeof API.notify.list>,
  },
  owner: {
    list: { method: 'GET', path: '/yewu/api/userinfo/list', paged: true } as RouteRef<typeof API.owner.list>,
    detail: { method: 'GET', path: '/yewu/api/userinfo/detail/:id', paged: false } as RouteRef<typeof API.owner.detail>,
    create: { method: 'POST', path: '/yewu/api/userinfo/detail', paged: false } as RouteRef<typeof API.owner.create>,
    update: { method: 'PUT', path: '/yewu/api/userinfo/detail', paged: false } as RouteRef<typeof API.owner.update>,
    remove: { method: 'DELETE', path: '/yewu/api/userinfo/detail', paged: false } as RouteRef<typeof API.owner.remove>,
    resetPwd: { method: 'POST', path: '/yewu/api/userinfo/resetPwd', paged: false } as RouteRef<typeof API.owner.resetPwd>,
    moveIn: { method: 'POST', path: '/yewu/api/userinfo/moveIn', paged: false } as RouteRef<typeof API.owner.moveIn>,
    moveOut: { method: 'POST', path: '/yewu/api/userinfo/moveOut', paged: false } as RouteRef<typeof API.owner.moveOut>,
    history: { method: 'GET', path: '/yewu/api/userinfo/roomHistory', paged: true } as RouteRef<typeof API.owner.history>,
  },
  report: {
    check: { method: 'GET', path: '/yewu/api/Report/Check', paged: false } as RouteRef<typeof API.report.check>,
    fees: { method: 'GET', path: '/yewu/api/Report/Fees', paged: false } as RouteRef<typeof API.report.fees>,
    deduct: { method: 'GET', path: '/yewu/api/Report/Deduct', paged: false } as RouteRef<typeof API.report.deduct>,
    bank: { method: 'GET', path: '/yewu/api/Report/Bank', paged: false } as RouteRef<typeof API.report.bank>,
  },
};
