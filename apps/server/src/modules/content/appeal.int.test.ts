import { describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { fileApp, signedInStaff } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// Appeals on real PostgreSQL: the flow, refused transitions (Chinese messages), roles, tenancy, overdue.

const t = await fileApp();
interface Co { companyId: number; token: string; areaId: number; roomId: number; typeId: number; userId: number }

const PAGES = ['addedAppeal', 'systemAppeal'];

async function company(): Promise<Co> {
  const companyId = await makeCompany(t.owner);
  const { token, id: userId } = await signedInStaff(t, companyId, PAGES, OPERATION_KEYS);
  const areaId = await makeArea(t.owner, companyId, uniq('园区'));
  const roomId = await makeRoom(t.owner, companyId, areaId, uniq('101-'));
  await t.owner.query(`INSERT INTO owners (company_id, room_id, name, phone) VALUES ($1, $2, '张三', '13800138000')`, [companyId, roomId]);
  const ty = await t.call(token, { method: 'POST', url: '/yewu/api/AppealType/Detail', payload: { name: '水电报修', limitHours: 4 } });
  expect(ty.body.code).toBe('SUCCESS');
  return { companyId, token, areaId, roomId, typeId: ty.body.data.id, userId };
}

const [admin] = await t.signIn('admin');
const A = await company();
const B = await company();
const { token: viewer } = await signedInStaff(t, A.companyId, PAGES, ['appeal.create']);

const post = (token: string, url: string, payload: object) => t.call(token, { method: 'POST', url, payload });
const detail = async (token: string, id: number, sys = false) =>
  (await t.call(token, { method: 'GET', url: `/yewu/api/${sys ? 'SystemAppeal' : 'Appeal'}/Detail?id=${id}` })).body;

async function ownerAppeal(c: Co, title = uniq('漏水')) {
  const r = await post(c.token, '/yewu/api/Appeal/Detail', { roomId: c.roomId, typeId: c.typeId, title, content: '卫生间水管漏水' });
  expect(r.body.code).toBe('SUCCESS');
  return r.body.data.id as number;
}

describe('业主诉求 flow', () => {
  it('register → accept → reply → complete, with history and audit', async () => {
    const id = await ownerAppeal(A);
    let d = await detail(A.token, id);
    expect(d.data).toMatchObject({ status: 0, statusText: '待受理', typeName: '水电报修', contactName: '张三', contactPhone: '13800138000', overdue: false });
    const hours = (Date.parse(d.data.deadlineAt) - Date.parse(d.data.createdAt)) / 3600_000;
    expect(hours).toBeGreaterThan(3.9);
    expect(hours).toBeLessThan(4.1);
    expect((await post(A.token, '/yewu/api/Appeal/Accept', { id })).body.code).toBe('SUCCESS');
    expect((await post(A.token, '/yewu/api/Appeal/Reply', { id, content: '师傅下午上门' })).body.code).toBe('SUCCESS');
    expect((await post(A.token, '/yewu/api/Appeal/Complete', { id, content: '已更换水管' })).body.code).toBe('SUCCESS');
    d = await detail(A.token, id);
    expect(d.data.status).toBe(2);
    expect(d.data.finishedAt).not.toBeNull();
    expect(d.data.assigneeId).toBe(A.userId);
    expect(d.data.events.map((e: { action: string; fromStatus: number | null; toStatus: number }) => [e.action, e.fromStatus, e.toStatus])).toEqual([
      ['create', null, 0], ['accept', 0, 1], ['reply', 1, 1], ['complete', 1, 2],
    ]);
    expect(d.data.events[2].content).toBe('师傅下午上门');
    const audit = await t.owner.query(`SELECT action FROM audit_log WHERE target LIKE $1 ORDER BY id`, [`%${d.data.title}%`]);
    expect(audit.rows.map((r) => r.action)).toEqual(['登记业主诉求', '受理业主诉求', '回复业主诉求', '办结业主诉求']);
  });

  it('refuses skipped or finished states with a Chinese message, changing nothing', async () => {
    const id = await ownerAppeal(A);
    const c = await post(A.token, '/yewu/api/Appeal/Complete', { id, content: '直接办结' });
    expect(c.body).toMatchObject({ code: 'APPEAL_NOT_ACCEPTED', message: '该诉求待受理，须先受理后才能办结' });
    expect((await post(A.token, '/yewu/api/Appeal/Reject', { id, content: '不属于物业范围' })).body.code).toBe('SUCCESS');
    const again = await post(A.token, '/yewu/api/Appeal/Accept', { id });
    expect(again.body).toMatchObject({ code: 'APPEAL_CLOSED', message: '该诉求已驳回，不能再受理' });
    expect((await post(A.token, '/yewu/api/Appeal/Reply', { id, content: 'x' })).body.message).toBe('该诉求已驳回，不能再回复');
    const d = await detail(A.token, id);
    expect(d.data.status).toBe(3);
    expect(d.data.events).toHaveLength(2);
    const blank = await post(A.token, '/yewu/api/Appeal/Reject', { id, content: '' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain('请填写驳回原因');
  });

  it('only roles holding 诉求受理与处理 may handle; a disabled type is refused', async () => {
    const id = await post(viewer, '/yewu/api/Appeal/Detail', { roomId: A.roomId, typeId: A.typeId, title: '登记员登记', content: '门禁坏了' });
    expect(id.body.code).toBe('SUCCESS');
    const r = await post(viewer, '/yewu/api/Appeal/Accept', { id: id.body.data.id });
    expect(r.status).toBe(403);
    expect(r.body.message).toBe('无权限执行此操作，请联系管理员分配权限');
    const off = await t.call(A.token, { method: 'POST', url: '/yewu/api/AppealType/Detail', payload: { name: uniq('停用类型'), limitHours: 2, status: 0 } });
    const x = await post(A.token, '/yewu/api/Appeal/Detail', { roomId: A.roomId, typeId: off.body.data.id, title: 't', content: 'c' });
    expect(x.body.code).toBe('APPEAL_TYPE_DISABLED');
    expect(x.body.message).toMatch(/已停用/);
  });

  it('assigns to a colleague of the same company only', async () => {
    const id = await ownerAppeal(A);
    const staff = (await t.call(A.token, { method: 'GET', url: '/yewu/api/Appeal/Assignees' })).body.data as { id: number }[];
    expect(staff.map((s) => s.id)).toContain(A.userId);
    expect((await post(A.token, '/yewu/api/Appeal/Assign', { id, assigneeId: B.userId })).body.code).toBe('APPEAL_ASSIGNEE');
    expect((await post(A.token, '/yewu/api/Appeal/Assign', { id, assigneeId: A.userId })).body.code).toBe('SUCCESS');
    expect((await detail(A.token, id)).data.assigneeId).toBe(A.userId);
  });

  it('tenancy: company A sees nothing of B, and cannot act on it', async () => {
    const bId = await ownerAppeal(B, uniq('乙方诉求'));
    const l = await t.call(A.token, { method: 'GET', url: '/yewu/api/Appeal/List?index=1&size=100' });
    expect(l.body.data.map((r: { id: number }) => r.id)).not.toContain(bId);
    expect((await t.call(A.token, { method: 'GET', url: `/yewu/api/Appeal/Detail?id=${bId}` })).status).toBe(404);
    expect((await post(A.token, '/yewu/api/Appeal/Accept', { id: bId })).status).toBe(404);
    expect((await post(A.token, '/yewu/api/Appeal/Detail', { roomId: B.roomId, typeId: A.typeId, title: 't', content: 'c' })).status).toBe(404);
    const types = await t.call(A.token, { method: 'GET', url: '/yewu/api/AppealType/List?index=1&size=100' });
    expect(types.body.data.every((r: { companyId?: number; id: number }) => r.id !== B.typeId)).toBe(true);
    expect((await t.call(A.token, { method: 'GET', url: `/yewu/api/AppealType/Detail?id=${B.typeId}` })).status).toBe(404);
  });

  it('marks overdue orders and filters them; the area filter narrows the list', async () => {
    const late = await ownerAppeal(A, uniq('超时'));
    const done = await ownerAppeal(A, uniq('超时已办'));
    await t.owner.query(`UPDATE appeals SET deadline_at = now() - interval '1 hour' WHERE id = ANY($1)`, [[late, done]]);
    await post(A.token, '/yewu/api/Appeal/Accept', { id: done });
    await post(A.token, '/yewu/api/Appeal/Complete', { id: done, content: '完成' });
    const l = (await t.call(A.token, { method: 'GET', url: '/yewu/api/Appeal/List?index=1&size=100&overdue=true' })).body.data as { id: number; overdue: boolean }[];
    expect(l.map((r) => r.id)).toContain(late);
    expect(l.map((r) => r.id)).not.toContain(done);
    expect(l.every((r) => r.overdue)).toBe(true);
    expect((await detail(A.token, done)).data.overdue).toBe(false);
    const other = await makeArea(t.owner, A.companyId, uniq('别的园区'));
    const inArea = (await t.call(A.token, { method: 'GET', url: `/yewu/api/Appeal/List?index=1&size=100&searchArea=${A.areaId}` })).body;
    expect(inArea.count).toBeGreaterThan(0);
    expect((await t.call(A.token, { method: 'GET', url: `/yewu/api/Appeal/List?searchArea=${other}` })).body.count).toBe(0);
    const found = (await t.call(A.token, { method: 'GET', url: `/yewu/api/Appeal/List?q=${encodeURIComponent('超时已办')}` })).body.data as { id: number }[];
    expect(found.map((r) => r.id)).toEqual([done]);
  });
});

describe('bound areas', () => {
  it('staff bound to one area see and handle only the appeals of rooms in it', async () => {
    const mine = await ownerAppeal(A, uniq('本区'));
    const otherArea = await makeArea(t.owner, A.companyId, uniq('二期'));
    const otherRoom = await makeRoom(t.owner, A.companyId, otherArea, uniq('201-'));
    const role = await makeRole(t.owner, A.companyId, PAGES, OPERATION_KEYS);
    const u = await makeUser(t.owner, { companyId: A.companyId, roleId: role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, otherArea, A.companyId]);
    const bound = await t.login(u.username, u.password);
    const theirs = await post(bound, '/yewu/api/Appeal/Detail', { roomId: otherRoom, typeId: A.typeId, title: uniq('二期'), content: '电梯异响' });
    expect(theirs.body.code).toBe('SUCCESS');
    const ids = (await t.call(bound, { method: 'GET', url: '/yewu/api/Appeal/List?index=1&size=200' })).body.data.map((r: { id: number }) => r.id);
    expect(ids).toEqual([theirs.body.data.id]);
    expect((await t.call(bound, { method: 'GET', url: `/yewu/api/Appeal/Detail?id=${mine}` })).status).toBe(404);
    expect((await post(bound, '/yewu/api/Appeal/Accept', { id: mine })).status).toBe(404);
    expect((await post(bound, '/yewu/api/Appeal/Detail', { roomId: A.roomId, typeId: A.typeId, title: 't', content: 'c' })).status).toBe(404);
  });
});

describe('平台诉求 (company → platform)', () => {
  it('the company submits, the platform sees every company\'s and answers; the company sees only its own', async () => {
    const a = await post(A.token, '/yewu/api/SystemAppeal/Detail', { typeId: A.typeId, title: uniq('开通短信'), content: '请开通短信通道' });
    expect(a.body.code).toBe('SUCCESS');
    const b = await post(B.token, '/yewu/api/SystemAppeal/Detail', { typeId: B.typeId, title: uniq('乙方'), content: '乙方问题' });
    const all = (await t.call(admin, { method: 'GET', url: '/yewu/api/SystemAppeal/List?index=1&size=200' })).body.data.map((r: { id: number }) => r.id);
    expect(all).toEqual(expect.arrayContaining([a.body.data.id, b.body.data.id]));
    const mine = (await t.call(A.token, { method: 'GET', url: '/yewu/api/SystemAppeal/List?index=1&size=200' })).body.data.map((r: { id: number }) => r.id);
    expect(mine).toContain(a.body.data.id);
    expect(mine).not.toContain(b.body.data.id);
    // only the platform accepts and finishes
    const self = await post(A.token, '/yewu/api/SystemAppeal/Accept', { id: a.body.data.id });
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('无权访问：该功能仅限平台管理员使用');
    const id = a.body.data.id;
    expect((await post(admin, '/yewu/api/SystemAppeal/Accept', { id })).body.code).toBe('SUCCESS');
    expect((await post(A.token, '/yewu/api/SystemAppeal/Reply', { id, content: '补充：共 3 个区域' })).body.code).toBe('SUCCESS');
    expect((await post(admin, '/yewu/api/SystemAppeal/Reply', { id, content: '已安排开通' })).body.code).toBe('SUCCESS');
    expect((await post(admin, '/yewu/api/SystemAppeal/Complete', { id, content: '已开通' })).body.code).toBe('SUCCESS');
    const d = await detail(A.token, id, true);
    expect(d.data.status).toBe(2);
    expect(d.data.events.map((e: { byAccess: number }) => e.byAccess)).toEqual([1, 0, 1, 0, 0]);
    // an owner appeal is not a platform appeal
    const o = await ownerAppeal(A);
    expect((await t.call(A.token, { method: 'GET', url: `/yewu/api/SystemAppeal/Detail?id=${o}` })).status).toBe(404);
  });
});

describe('demo data', () => {
  it('the demo company has appeals in every state, overdue ones marked, and a platform appeal answered by the platform', async () => {
    const demo = await t.login('demo', 'demo123');
    const l = (await t.call(demo, { method: 'GET', url: '/yewu/api/Appeal/List?index=1&size=50' })).body.data as { status: number; overdue: boolean }[];
    expect([...new Set(l.map((r) => r.status))].sort()).toEqual([0, 1, 2, 3]);
    expect(l.filter((r) => r.overdue).length).toBeGreaterThanOrEqual(1);
    expect(l.filter((r) => r.status >= 2).every((r) => !r.overdue)).toBe(true);
    const all = (await t.call(admin, { method: 'GET', url: '/yewu/api/SystemAppeal/List?index=1&size=200&status=2' })).body.data as { id: number; companyName: string }[];
    const s = all.filter((r) => r.companyName === '阳光物业演示公司');
    expect(s.length).toBeGreaterThan(0);
    const d = await detail(demo, s[0]!.id, true);
    expect(d.data.events.some((e: { byAccess: number }) => e.byAccess === 0)).toBe(true);
    const types = (await t.call(demo, { method: 'GET', url: '/yewu/api/WorkOrderType/List' })).body;
    expect(types.count).toBeGreaterThanOrEqual(3);
  });
});
