import { describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { fileApp, signedInStaff } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRoom, uniq } from '../../../test/factories.ts';
import { hashPassword } from '../auth/index.ts';

// Notices on real PostgreSQL: draft → publish → withdraw, sanitizing, SMS through the outbox, read
// counts (companies for a system notice, owners for a company notice), tenancy and owner scope.

const t = await fileApp();
interface Co { companyId: number; token: string; userId: number; areaA: number; areaB: number; ownerA: number; ownerB: number; ownerNoPhone: number }
const PAGES = ['addedNotice', 'systemNotice'];

async function owner(companyId: number, areaId: number, phone: string) {
  const roomId = await makeRoom(t.owner, companyId, areaId, uniq('101-'));
  const r = await t.owner.query(`INSERT INTO owners (company_id, room_id, name, phone) VALUES ($1, $2, $3, $4) RETURNING id`, [companyId, roomId, uniq('业主'), phone]);
  return Number(r.rows[0].id);
}

async function company(): Promise<Co> {
  const companyId = await makeCompany(t.owner);
  const { token, id: userId } = await signedInStaff(t, companyId, PAGES, OPERATION_KEYS);
  const areaA = await makeArea(t.owner, companyId, uniq('一期'));
  const areaB = await makeArea(t.owner, companyId, uniq('二期'));
  return {
    companyId, token, userId, areaA, areaB,
    ownerA: await owner(companyId, areaA, '13800138001'), ownerB: await owner(companyId, areaB, '13800138002'), ownerNoPhone: await owner(companyId, areaA, ''),
  };
}

const [admin] = await t.signIn('admin');
const A = await company();
const B = await company();

const call = (token: string | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) => t.call(token, { method, url, payload });
const sms = async (noticeId: number) =>
  (await t.owner.query(`SELECT owner_id, phone, content, level FROM notifications WHERE idempotency_key LIKE $1 ORDER BY owner_id`, [`notice:${noticeId}:%`])).rows;

describe('物业公告', () => {
  it('draft → publish (SMS to the owners of the areas named) → withdraw → publish again (nobody texted twice)', async () => {
    const type = await call(A.token, 'POST', '/yewu/api/NoticeType/Detail', { name: uniq('停水通知') });
    const c = await call(A.token, 'POST', '/yewu/api/Notice/Detail', {
      typeId: type.body.data.id, title: '明日停水', areaIds: [A.areaA], sendSms: true,
      content: '<p onclick="x()">明日 9:00–12:00 停水<script>alert(1)</script></p><img src="https://cdn.example.com/a.png">',
    });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id as number;
    let d = (await call(A.token, 'GET', `/yewu/api/Notice/Detail?id=${id}`)).body.data;
    expect(d).toMatchObject({ status: 0, statusText: '草稿', typeName: expect.stringContaining('停水通知'), audience: 2, readCount: 0, smsCount: 0 });
    expect(d.content).toBe('<p>明日 9:00–12:00 停水</p><img src="https://cdn.example.com/a.png" />');
    expect(await sms(id)).toHaveLength(0);

    const p = await call(A.token, 'POST', '/yewu/api/Notice/Publish', { id });
    expect(p.body).toMatchObject({ code: 'SUCCESS', data: { smsCount: 1 } });
    const sent = await sms(id);
    expect(sent.map((r) => Number(r.owner_id))).toEqual([A.ownerA]);
    expect(sent[0].content).toContain('明日停水');
    expect(sent[0].level).toBe(7);
    expect((await call(A.token, 'POST', '/yewu/api/Notice/Publish', { id })).body).toMatchObject({ code: 'NOTICE_STATE', message: '该公告已发布，不能发布' });
    expect((await call(A.token, 'PUT', '/yewu/api/Notice/Detail', { id, title: 'x', content: '<p>x</p>' })).body.code).toBe('NOTICE_STATE');

    expect((await call(A.token, 'POST', '/yewu/api/Notice/Withdraw', { id })).body.code).toBe('SUCCESS');
    d = (await call(A.token, 'GET', `/yewu/api/Notice/Detail?id=${id}`)).body.data;
    expect(d.status).toBe(2);
    expect(d.withdrawnAt).not.toBeNull();
    expect((await call(A.token, 'POST', '/yewu/api/Notice/Remove', { id })).body.code).toBe('NOTICE_STATE');
    expect((await call(A.token, 'POST', '/yewu/api/Notice/Publish', { id })).body.data.smsCount).toBe(0);
    expect(await sms(id)).toHaveLength(1);
  });

  it('refuses an empty body, an area of another company and a blank title', async () => {
    const empty = await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: '空', content: '<p><br></p><script>x</script>' });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toContain('请填写公告内容');
    expect((await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: '跨单位', content: '<p>x</p>', areaIds: [B.areaA] })).status).toBe(404);
    const blank = await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: ' ', content: '<p>x</p>' });
    expect(blank.status).toBe(400);
    expect(blank.body.message).toContain('请填写公告标题');
  });

  it('owners see only the published notices addressed to their own room, and their reads are counted', async () => {
    const all = (await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: uniq('全体'), content: '<p>全体业主</p>' })).body.data.id;
    const onlyB = (await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: uniq('二期'), content: '<p>二期</p>', areaIds: [A.areaB] })).body.data.id;
    const draft = (await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: uniq('草稿'), content: '<p>草稿</p>' })).body.data.id;
    await call(A.token, 'POST', '/yewu/api/Notice/Publish', { id: all });
    await call(A.token, 'POST', '/yewu/api/Notice/Publish', { id: onlyB });
    // each owner signs in to the owner app (room + password) and reads with their own session
    const pass = await hashPassword('Owner-pass-1');
    const tokens = new Map<number, string>();
    for (const o of [A.ownerA, A.ownerB, B.ownerA]) {
      await t.owner.query(`UPDATE owners SET password_hash = $2 WHERE id = $1`, [o, pass]);
      const roomId = Number((await t.owner.query(`SELECT room_id FROM owners WHERE id = $1`, [o])).rows[0].room_id);
      tokens.set(o, (await call(null, 'POST', '/yewu/api/OwnerApp/Login/Room', { roomId, password: 'Owner-pass-1' })).body.data.token);
    }
    const seen = (ownerId: number) => call(tokens.get(ownerId)!, 'GET', '/yewu/api/OwnerNotice/List?size=100');
    const read = (ownerId: number, id: number) => call(tokens.get(ownerId)!, 'POST', '/yewu/api/OwnerNotice/Read', { id });
    // staff tokens are not owner sessions
    expect((await call(A.token, 'GET', '/yewu/api/OwnerNotice/List?size=100')).status).toBe(401);
    const a = (await seen(A.ownerA)).body.data.map((r: { id: number }) => r.id);
    expect(a).toContain(all);
    expect(a).not.toContain(onlyB);
    expect(a).not.toContain(draft);
    expect((await seen(A.ownerB)).body.data.map((r: { id: number }) => r.id)).toEqual(expect.arrayContaining([all, onlyB]));
    // an owner cannot open a notice not addressed to them, nor another company's owner any
    expect((await read(A.ownerA, onlyB)).status).toBe(404);
    expect((await seen(B.ownerA)).body.data.map((x: { id: number }) => x.id)).not.toContain(all);
    expect((await read(B.ownerA, all)).status).toBe(404);
    const r = await read(A.ownerB, onlyB);
    expect(r.body.data).toMatchObject({ id: onlyB, content: '<p>二期</p>', read: true });
    await read(A.ownerB, onlyB);
    expect((await call(A.token, 'GET', `/yewu/api/Notice/Detail?id=${onlyB}`)).body.data.readCount).toBe(1);
    expect((await seen(A.ownerB)).body.data.find((x: { id: number }) => x.id === onlyB).read).toBe(true);
    // withdrawn: gone from the owner's list
    await call(A.token, 'POST', '/yewu/api/Notice/Withdraw', { id: onlyB });
    expect((await seen(A.ownerB)).body.data.map((x: { id: number }) => x.id)).not.toContain(onlyB);
  });

  it('tenancy: company B sees nothing of A\'s notices and cannot act on them', async () => {
    const id = (await call(A.token, 'POST', '/yewu/api/Notice/Detail', { title: uniq('甲方'), content: '<p>甲</p>' })).body.data.id;
    const l = await call(B.token, 'GET', '/yewu/api/Notice/List?size=100');
    expect(l.body.data.map((r: { id: number }) => r.id)).not.toContain(id);
    expect((await call(B.token, 'GET', `/yewu/api/Notice/Detail?id=${id}`)).status).toBe(404);
    expect((await call(B.token, 'POST', '/yewu/api/Notice/Publish', { id })).status).toBe(404);
    expect((await call(B.token, 'PUT', '/yewu/api/Notice/Detail', { id, title: 'x', content: '<p>x</p>' })).status).toBe(404);
  });
});

describe('系统公告', () => {
  it('the platform publishes; company users see it with an unread badge; reads count companies', async () => {
    const c = await call(admin, 'POST', '/yewu/api/SystemNotice/Detail', { category: 2, title: uniq('系统维护'), content: '<p>今晚 23:00 维护</p>' });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id as number;
    const inbox = async (token: string) => (await call(token, 'GET', '/yewu/api/SystemNotice/Inbox')).body.data;
    expect((await inbox(A.token)).rows.map((r: { id: number }) => r.id)).not.toContain(id);
    expect((await call(A.token, 'POST', '/yewu/api/SystemNotice/Read', { id })).status).toBe(404);
    expect((await call(admin, 'POST', '/yewu/api/SystemNotice/Publish', { id })).body.code).toBe('SUCCESS');

    const before = await inbox(A.token);
    expect(before.rows.find((r: { id: number }) => r.id === id)).toMatchObject({ read: false, categoryText: '维护通知' });
    const read = await call(A.token, 'POST', '/yewu/api/SystemNotice/Read', { id });
    expect(read.body.data).toMatchObject({ id, content: '<p>今晚 23:00 维护</p>' });
    const after = await inbox(A.token);
    expect(after.unread).toBe(before.unread - 1);
    expect(after.rows.find((r: { id: number }) => r.id === id).read).toBe(true);
    await call(A.token, 'POST', '/yewu/api/SystemNotice/Read', { id });
    const d = (await call(admin, 'GET', `/yewu/api/SystemNotice/Detail?id=${id}`)).body.data;
    expect(d.readCompanies).toBe(1);
    expect(d.totalCompanies).toBeGreaterThanOrEqual(2);

    // only the platform writes them
    const w = await call(A.token, 'POST', '/yewu/api/SystemNotice/Withdraw', { id });
    expect(w.status).toBe(403);
    expect((await call(A.token, 'GET', '/yewu/api/SystemNotice/List')).status).toBe(403);
    expect((await call(admin, 'POST', '/yewu/api/SystemNotice/Withdraw', { id })).body.code).toBe('SUCCESS');
    expect((await inbox(B.token)).rows.map((r: { id: number }) => r.id)).not.toContain(id);
  });

  it('a draft is edited and deleted; a published one is neither', async () => {
    const id = (await call(admin, 'POST', '/yewu/api/SystemNotice/Detail', { title: uniq('草稿'), content: '<p>a</p>' })).body.data.id;
    expect((await call(admin, 'PUT', '/yewu/api/SystemNotice/Detail', { id, title: '改过的标题', content: '<p>b</p>' })).body.code).toBe('SUCCESS');
    expect((await call(admin, 'GET', `/yewu/api/SystemNotice/Detail?id=${id}`)).body.data).toMatchObject({ title: '改过的标题', content: '<p>b</p>' });
    await call(admin, 'POST', '/yewu/api/SystemNotice/Publish', { id });
    expect((await call(admin, 'POST', '/yewu/api/SystemNotice/Remove', { id })).body.code).toBe('NOTICE_STATE');
    const other = (await call(admin, 'POST', '/yewu/api/SystemNotice/Detail', { title: uniq('删'), content: '<p>a</p>' })).body.data.id;
    expect((await call(admin, 'POST', '/yewu/api/SystemNotice/Remove', { id: other })).body.code).toBe('SUCCESS');
    expect((await call(admin, 'GET', `/yewu/api/SystemNotice/Detail?id=${other}`)).status).toBe(404);
  });
});
