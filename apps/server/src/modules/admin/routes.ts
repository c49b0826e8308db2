import type { FastifyInstance } from 'fastify';
import { API } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import * as admin from './service.ts';

// /systemRecords, /systemRole, /administrator: accounts, roles and the companies' manager accounts.
export default function adminRoutes(app: FastifyInstance) {
  const r = routes(app);
  const A = API.admin;
  r.endpoint(A.userList, ({ query }, ctx) => admin.listUsers(ctx, query));
  r.endpoint(A.user, ({ query }, ctx) => admin.getUser(ctx, query.id));
  r.endpoint(A.createUser, ({ body }, ctx) => admin.createUser(ctx, body));
  r.endpoint(A.updateUser, ({ query, body }, ctx) => admin.updateUser(ctx, query.id, body));
  r.endpoint(A.deleteUser, ({ query }, ctx) => admin.deleteUser(ctx, query.id));
  r.endpoint(A.resetPassword, ({ body }, ctx) => admin.resetPassword(ctx, body.id));
  r.endpoint(A.createManager, ({ body }, ctx) => admin.saveManager(ctx, body));
  r.endpoint(A.updateManager, ({ body }, ctx) => admin.saveManager(ctx, body));

  r.endpoint(A.roleList, ({ query }, ctx) => admin.listRoles(ctx, query));
  r.endpoint(A.role, ({ query }, ctx) => admin.getRole(ctx, query.id));
  r.endpoint(A.createRole, ({ body }, ctx) => admin.createRole(ctx, body));
  r.endpoint(A.updateRole, ({ query, body }, ctx) => admin.updateRole(ctx, query.id, body));
  r.endpoint(A.deleteRole, ({ query }, ctx) => admin.deleteRole(ctx, query.id));
}
