import type { FastifyInstance } from 'fastify';
import { API, areaPermissionResource } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { areaPermissions } from '../../db/schema/index.ts';
import * as area from './service.ts';

export default function areaRoutes(app: FastifyInstance) {
  const r = routes(app);
  const A = API.area;
  r.endpoint(A.tree, ({ query }, ctx) => area.areaTree(ctx, query, { rooms: true }));
  r.endpoint(A.treeNoRoom, ({ query }, ctx) => area.areaTree(ctx, query, { rooms: false }));
  r.endpoint(A.treeNoRoomV2, ({ query }, ctx) => area.areaTree(ctx, query, { rooms: false, v2: true }));
  r.endpoint(A.userBindTree, ({ query }, ctx) => area.userBindTree(ctx, query));
  r.endpoint(A.userBindableTree, ({ query }, ctx) => area.noUserBindTree(ctx, query));

  r.endpoint(A.childAreas, ({ query }, ctx) => area.childAreas(ctx, query));
  r.endpoint(A.addressOptions, (_i, ctx) => area.addressOptions(ctx));
  r.endpoint(A.create, ({ body }, ctx) => area.create(ctx, body));
  r.endpoint(A.update, ({ body }, ctx) => area.update(ctx, body));
  r.endpoint(A.remove, ({ params }, ctx) => area.remove(ctx, params.id));

  r.endpoint(A.usingPermissions, (_i, ctx) => area.usingPermissions(ctx));
  r.endpoint(A.bindUser, ({ body }, ctx) => area.bindUser(ctx, body));

  registerCrud(app, {
    def: areaPermissionResource,
    endpoints: API.areaPermission,
    table: areaPermissions,
    tenancy: 'company',
    present: area.presentPermissions,
    beforeWrite: area.checkPermissionAreas,
    label: (row) => `区域权限 ${String(row.name ?? row.id)}`,
  });
}
