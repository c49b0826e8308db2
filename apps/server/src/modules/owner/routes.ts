import type { FastifyInstance } from 'fastify';
import { routes } from '../../http/routes.ts';
import * as owner from './service.ts';
import {
  HistoryListQuery, MoveInBody, MoveOutBody, OwnerCreateBody, OwnerIdParams, OwnerIdsBody, OwnerListQuery, OwnerUpdateBody, ResetPwdBody,
} from './schema.ts';

// Owners (userinfo, page /recordsOwner) and move-in history (page /inRoomRecord). SPEC §7 names the
// userinfo list/detail/resetPwd paths; moveIn, moveOut, roomHistory and export are ours (docs/API.md).

const read = { routes: ['recordsOwner'] };
const write = { routes: ['recordsOwner'], op: 'owner.basic' };
const exporting = { routes: ['recordsOwner'], op: 'owner.export' };
const history = { routes: ['inRoomRecord', 'recordsOwner'] };

export default function ownerRoutes(app: FastifyInstance) {
  const r = routes(app);
  const tags = ['业主'];
  const U = '/yewu/api/userinfo';

  r.get(`${U}/list`, { summary: '业主列表', perm: read, query: OwnerListQuery, tags }, ({ query }, ctx) =>
    owner.listOwners(ctx, query));
  r.get(`${U}/detail/:id`, { summary: '业主详情', perm: read, params: OwnerIdParams, tags }, ({ params }, ctx) => owner.getOwner(ctx, params.id));
  r.post(`${U}/detail`, { summary: '新增业主', perm: write, body: OwnerCreateBody, tags }, ({ body }, ctx) =>
    owner.createOwner(ctx, body));
  r.put(`${U}/detail`, { summary: '编辑业主', perm: write, body: OwnerUpdateBody, tags }, ({ body }, ctx) =>
    owner.updateOwner(ctx, body.id, body));
  r.delete(`${U}/detail`, { summary: '删除业主', perm: write, body: OwnerIdsBody, tags }, ({ body }, ctx) => owner.deleteOwners(ctx, body.ids));
  r.post(`${U}/resetPwd`, { summary: '重置业主密码', perm: write, body: ResetPwdBody, tags }, ({ body }, ctx) => owner.resetOwnerPassword(ctx, body.id));
  r.post(`${U}/moveIn`, { summary: '业主入住', perm: write, body: MoveInBody, tags }, ({ body }, ctx) =>
    owner.moveOwnerIn(ctx, body.id, body.roomId, body.memo));
  r.post(`${U}/moveOut`, { summary: '业主迁出', perm: write, body: MoveOutBody, tags }, ({ body }, ctx) =>
    owner.moveOwnerOut(ctx, body.id, body.memo));
  r.get(`${U}/roomHistory`, { summary: '入住记录', perm: history, query: HistoryListQuery, tags }, ({ query }, ctx) =>
    owner.listHistory(ctx, query));
  r.get(`${U}/export`, { summary: '导出业主档案（.xlsx）', perm: exporting, query: OwnerListQuery, tags }, ({ query }, ctx, _req, reply) =>
    owner.exportOwners(ctx, query, reply));
}
