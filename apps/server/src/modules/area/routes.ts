import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { API, areaPermissionResource, areaResource, type AreaBody, type ChildAreaQuery } from '@meter/contracts';
import { routes } from '../../http/routes.ts';
import { registerCrud } from '../../http/crud.ts';
import { areaPermissions, areas } from '../../db/schema/index.ts';
import * as area from './service.ts';

type AreaInput = z.output<typeof AreaBody>;

export default function areaRoutes(app: FastifyInstance) {
  const r = routes(app);
  const A = API.area;
  r.endpoint(A.tree, ({ query }, ctx) => area.areaTree(ctx, query, { rooms: true }));
  r.endpoint(A.treeNoRoom, ({ query }, ctx) => area.areaTree(ctx, query, { rooms: false }));
  r.endpoint(A.treeNoRoomV2, ({ query }, ctx) => area.areaTree(ctx, query, { rooms: false, v2: true }));
  r.endpoint(A.userBindTree, ({ query }, ctx) => area.userBindTree(ctx, query));
  r.endpoint(A.userBindableTree, ({ query }, ctx) => area.noUserBindTree(ctx, query));

  r.endpoint(A.addressOptions, (_i, ctx) => area.addressOptions(ctx));

  r.endpoint(A.usingPermissions, (_i, ctx) => area.usingPermissions(ctx));
  r.endpoint(A.bindUser, ({ body }, ctx) => area.bindUser(ctx, body));

  // the area archive: the tree-ordered list and the writes that keep levels and parents right are the service's
  registerCrud(app, {
    def: areaResource,
    endpoints: A,
    table: areas,
    tenancy: 'company',
    handle: {
      list: (q, ctx) => area.childAreas(ctx, q as z.output<typeof ChildAreaQuery>),
      detail: (id, ctx) => area.detail(ctx, id),
      create: (b, ctx) => area.create(ctx, b as AreaInput),
      update: (b, ctx) => area.update(ctx, b as AreaInput & { id: number }),
    },
    beforeDelete: area.beforeRemove,
  });
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
