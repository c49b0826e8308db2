import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { demoFloors, fileApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeOtherRoom, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';
import { verifyPassword } from '../auth/crypto.ts';
import { EXPORT_COLUMNS } from './service.ts';

// Owners (userinfo/*), moving in and out with history, the portal password and the .xlsx export.

const t = await fileApp();
const [demo, reader] = await t.signIn('demo', 'reader');
const { demoCompany, floorA, floorB } = await demoFloors(t.owner);
const other = await (async () => {
  const o = await makeOtherRoom(t.owner);
  const r = await t.owner.query(`INSERT INTO owners (company_id, name, phone, room_id, status) VALUES ($1, '他司业主', '13700000000', $2, 1) RETURNING id`, [o.companyId, o.roomId]);
  return { ...o, ownerId: Number(r.rows[0].id) };
})();

const U = '/yewu/api/userinfo';
const count = async (sql: string, params: unknown[] = []) => Number((await t.owner.query(sql, params)).rows[0].n);

/** An 18-digit ID number with a valid check digit for the 17 digits given. */
function idCard(first17: string) {
  const w = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  const sum = w.reduce((acc, wi, i) => acc + wi * Number(first17[i]), 0);
  return first17 + '10X98765432'[sum % 11];
}

let phoneSeq = 0;
const phone = () => `139${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSeq++ % 100).padStart(2, '0')}`;


async function vacantRoom(areaId = floorA) {
  return makeRoom(t.owner, demoCompany, areaId, uniq('空房'));
}

async function newOwner(payload: Record<string, unknown> = {}, token = demo) {
  const r = await t.call(token, { method: 'POST', url: `${U}/detail`, payload: { name: uniq('业主'), phone: phone(), ...payload } });
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data.id as number;
}

const detail = async (id: number) => (await t.call(demo, { method: 'GET', url: `${U}/detail/${id}` })).body.data;

describe('userinfo', () => {
  it('create → list with filters → detail → edit → delete', async () => {
    const name = uniq('王');
    const p = phone();
    const idNumber = idCard('11010519491231002');
    const c = await t.call(demo, {
      method: 'POST', url: `${U}/detail`, payload: { name, phone: p, idNumber, gender: 1, email: 'wang@example.com', memo: '老住户' },
    });
    expect(c.body.code).toBe('SUCCESS');
    const id = c.body.data.id;
    const l = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=10&name=${encodeURIComponent(name)}&phone=${p.slice(3, 9)}` });
    expect(l.body).toMatchObject({ code: 'SUCCESS', count: 1 });
    expect(l.body.data[0]).toMatchObject({
      id, userId: id, name, phone: p, idNumber, gender: 1, email: 'wang@example.com', memo: '老住户', status: 0, roomId: null, hasPassword: false,
    });
    expect(await detail(id)).toMatchObject({ id, name });
    const u = await t.call(demo, { method: 'PUT', url: `${U}/detail`, payload: { id, name: `${name}改`, phone: p, gender: '2' } });
    expect(u.body.code).toBe('SUCCESS');
    expect(await detail(id)).toMatchObject({ name: `${name}改`, gender: 2, idNumber: '', email: '', memo: '' });
    expect((await t.call(demo, { method: 'DELETE', url: `${U}/detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    expect((await t.call(demo, { method: 'GET', url: `${U}/detail/${id}` })).status).toBe(404);
  });

  it('filters by room name, room id, status and area', async () => {
    const room = await vacantRoom(floorB);
    const roomName = (await t.owner.query(`SELECT name FROM rooms WHERE id = $1`, [room])).rows[0].name;
    const id = await newOwner({ roomId: room });
    const byRoom = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=10&roomName=${encodeURIComponent(roomName)}` });
    expect(byRoom.body.data.map((o: { id: number }) => o.id)).toEqual([id]);
    expect(byRoom.body.data[0]).toMatchObject({ roomId: room, roomName, areaId: floorB, status: 1 });
    expect(byRoom.body.data[0].areaName).toMatch(/^阳光园区\/1号楼\/\d层$/);
    const byId = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=10&roomId=${room}` });
    expect(byId.body.count).toBe(1);
    const byArea = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=1000&searchArea=${floorB}` });
    expect(byArea.body.count).toBe(await count(
      `SELECT count(*) AS n FROM owners o JOIN rooms r ON r.id = o.room_id WHERE r.area_id = $1`, [floorB],
    ));
    expect(byArea.body.data.every((o: { areaId: number }) => o.areaId === floorB)).toBe(true);
    const unhoused = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=1&status=0` });
    expect(unhoused.body.count).toBe(await count(`SELECT count(*) AS n FROM owners WHERE company_id = $1 AND status = 0`, [demoCompany]));
  });

  it('creating with a room moves the owner in and writes the history', async () => {
    const room = await vacantRoom();
    const name = uniq('李');
    const id = await newOwner({ name, roomId: room });
    const o = await detail(id);
    expect(o).toMatchObject({ status: 1, roomId: room });
    expect(o.movedInAt).toBeTruthy();
    const h = (await t.owner.query(`SELECT * FROM owner_room_history WHERE owner_id = $1`, [id])).rows;
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({ action: 1, owner_name: name, operator_name: '演示管理员' });
    expect(h[0].room_name).toMatch(/^阳光园区\/1号楼\/\d层\/空房/);
  });

  it('move in, refuse an occupied room, move to another room, move out', async () => {
    const r1 = await vacantRoom();
    const r2 = await vacantRoom(floorB);
    const a = await newOwner();
    const b = await newOwner();
    expect((await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: a, roomId: r1 } })).body.code).toBe('SUCCESS');
    expect(await detail(a)).toMatchObject({ status: 1, roomId: r1 });
    // the room shows its owner
    const room = await t.call(demo, { method: 'GET', url: `/yewu/api/RoomInfo/Detail?Id=${r1}` });
    expect(room.body.data.ownerId).toBe(a);

    const historyBefore = await count(`SELECT count(*) AS n FROM owner_room_history`);
    const refused = await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: b, roomId: r1 } });
    expect(refused.status).toBe(200);
    expect(refused.body.code).toBe('ROOM_OCCUPIED');
    expect(refused.body.message).toMatch(/已有在住业主「.+」，一个房间只能有一位在住业主/);
    expect(await detail(b)).toMatchObject({ status: 0, roomId: null });
    expect(await count(`SELECT count(*) AS n FROM owner_room_history`)).toBe(historyBefore);

    const again = await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: a, roomId: r1 } });
    expect(again.body.code).toBe('ALREADY_IN_ROOM');

    // 换房: out of r1, into r2, both recorded
    expect((await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: a, roomId: r2, memo: '换大房' } })).body.code).toBe('SUCCESS');
    expect(await detail(a)).toMatchObject({ status: 1, roomId: r2 });
    const h = (await t.owner.query(`SELECT action, room_id, memo FROM owner_room_history WHERE owner_id = $1 ORDER BY id`, [a])).rows;
    expect(h.map((x) => [x.action, Number(x.room_id)])).toEqual([[1, r1], [2, r1], [1, r2]]);
    expect(h[2].memo).toBe('换大房');
    // r1 is free again
    expect((await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: b, roomId: r1 } })).body.code).toBe('SUCCESS');

    const out = await t.call(demo, { method: 'POST', url: `${U}/moveOut`, payload: { id: a, memo: '合同到期' } });
    expect(out.body.code).toBe('SUCCESS');
    expect(await detail(a)).toMatchObject({ status: 0, roomId: null, movedInAt: null });
    const last = (await t.owner.query(`SELECT action, memo FROM owner_room_history WHERE owner_id = $1 ORDER BY id DESC LIMIT 1`, [a])).rows[0];
    expect(last).toEqual({ action: 2, memo: '合同到期' });
    const twice = await t.call(demo, { method: 'POST', url: `${U}/moveOut`, payload: { id: a } });
    expect(twice.body.code).toBe('NOT_IN_ROOM');
  });

  it('two owners racing into one room: exactly one gets it', async () => {
    const room = await vacantRoom();
    const a = await newOwner();
    const b = await newOwner();
    const [ra, rb] = await Promise.all([
      t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: a, roomId: room } }),
      t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: b, roomId: room } }),
    ]);
    expect([ra.body.code, rb.body.code].sort()).toEqual(['ROOM_OCCUPIED', 'SUCCESS']);
    expect(await count(`SELECT count(*) AS n FROM owners WHERE room_id = $1 AND status = 1`, [room])).toBe(1);
  });

  it('roomHistory lists the moves with filters', async () => {
    const room = await vacantRoom(floorB);
    const name = uniq('赵');
    const id = await newOwner({ name });
    await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id, roomId: room, memo: '入住登记' } });
    await t.call(demo, { method: 'POST', url: `${U}/moveOut`, payload: { id, memo: '退租' } });
    const all = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?index=1&size=10&ownerName=${encodeURIComponent(name)}` });
    expect(all.body.count).toBe(2);
    expect(all.body.data.map((h: { action: number; memo: string }) => [h.action, h.memo])).toEqual([[2, '退租'], [1, '入住登记']]);
    expect(all.body.data[0]).toMatchObject({ ownerId: id, ownerName: name, roomId: room, areaId: floorB, operatorName: '演示管理员' });
    const outs = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?index=1&size=10&ownerName=${encodeURIComponent(name)}&action=2` });
    expect(outs.body.count).toBe(1);
    const byArea = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?index=1&size=1000&searchArea=${floorB}` });
    expect(byArea.body.data.every((h: { areaId: number }) => h.areaId === floorB)).toBe(true);
    expect(byArea.body.data.some((h: { ownerId: number }) => h.ownerId === id)).toBe(true);
    const today = new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Shanghai' }).format(new Date());
    const inDay = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?index=1&size=10&ownerName=${encodeURIComponent(name)}&startTime=${today}&endTime=${today}` });
    expect(inDay.body.count).toBe(2);
    const before = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?index=1&size=10&ownerName=${encodeURIComponent(name)}&endTime=2000-01-01` });
    expect(before.body.count).toBe(0);
    const bad = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?startTime=昨天` });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('参数「startTime」');
  });

  it('invalid input → 400 naming the field, nothing written', async () => {
    const before = await count(`SELECT count(*) AS n FROM owners`);
    const cases: [Record<string, unknown>, string][] = [
      [{ phone: phone() }, 'name'],
      [{ name: '张三' }, 'phone'],
      [{ name: '张三', phone: '12345678901' }, 'phone'],
      [{ name: '张三', phone: '1380013800' }, 'phone'],
      [{ name: '张三', phone: phone(), idNumber: '110105194912310021' }, 'idNumber'], // wrong check digit
      [{ name: '张三', phone: phone(), idNumber: idCard('11010519990230002') }, 'idNumber'], // 2月30日
      [{ name: '张三', phone: phone(), idNumber: idCard('11010521990101002') }, 'idNumber'], // in the future
      [{ name: '张三', phone: phone(), email: 'not-an-email' }, 'email'],
      [{ name: '张三', phone: phone(), gender: 3 }, 'gender'],
    ];
    for (const [payload, field] of cases) {
      const r = await t.call(demo, { method: 'POST', url: `${U}/detail`, payload });
      expect(r.status, JSON.stringify(payload)).toBe(400);
      expect(r.body.message, JSON.stringify(payload)).toContain(`参数「${field}」`);
    }
    // 11 digits with no mobile prefix: the message names the prefix, not the length (issue 15)
    const prefix = await t.call(demo, { method: 'POST', url: `${U}/detail`, payload: { name: '张三', phone: '23800138000' } });
    expect(prefix.body.message).toContain('号段无效：中国大陆手机号码以 13～19 开头（现为 23）');
    expect(prefix.body.message).not.toContain('11 位');
    const lower = await t.call(demo, { method: 'POST', url: `${U}/detail`, payload: { name: uniq('钱'), phone: phone(), idNumber: idCard('11010519491231002').toLowerCase() } });
    expect(lower.body.code).toBe('SUCCESS'); // a lower-case x is accepted and stored upper-case
    const moveBad = await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: lower.body.data.id } });
    expect(moveBad.status).toBe(400);
    expect(moveBad.body.message).toContain('参数「roomId」');
    expect(await count(`SELECT count(*) AS n FROM owners`)).toBe(before + 1);
    // a room that does not exist: the owner is not created either
    const noRoom = await t.call(demo, { method: 'POST', url: `${U}/detail`, payload: { name: '张三', phone: phone(), roomId: 99999999 } });
    expect(noRoom.status).toBe(404);
    expect(await count(`SELECT count(*) AS n FROM owners`)).toBe(before + 1);
  });

  it('an owner living in a room is not deleted; after moving out the history outlives them', async () => {
    const room = await vacantRoom();
    const name = uniq('孙');
    const id = await newOwner({ name, roomId: room });
    const d = await t.call(demo, { method: 'DELETE', url: `${U}/detail`, payload: { ids: [id] } });
    expect(d.status).toBe(409);
    expect(d.body.message).toMatch(new RegExp(`^业主「${name}」仍在住房间「.+」，请先办理迁出$`));
    expect(await count(`SELECT count(*) AS n FROM owners WHERE id = $1`, [id])).toBe(1);
    await t.call(demo, { method: 'POST', url: `${U}/moveOut`, payload: { id } });
    expect((await t.call(demo, { method: 'DELETE', url: `${U}/detail`, payload: { ids: [id] } })).body.code).toBe('SUCCESS');
    const h = (await t.owner.query(`SELECT owner_id, owner_name FROM owner_room_history WHERE owner_name = $1`, [name])).rows;
    expect(h).toHaveLength(2);
    expect(h.every((x) => x.owner_id === null)).toBe(true);
    // and the room, now empty, can be deleted; its history stays too
    expect((await t.call(demo, { method: 'DELETE', url: `/yewu/api/RoomInfo/Detail/${room}` })).body.code).toBe('SUCCESS');
    expect(await count(`SELECT count(*) AS n FROM owner_room_history WHERE owner_name = $1 AND room_id IS NULL`, [name])).toBe(2);
  });

  it('resetPwd answers a new password once and keeps only its hash', async () => {
    const id = await newOwner();
    const r = await t.call(demo, { method: 'POST', url: `${U}/resetPwd`, payload: { id } });
    expect(r.body.code).toBe('SUCCESS');
    const password = r.body.data.password;
    expect(password).toMatch(/^[A-Za-z2-9]{10}$/);
    const hash = (await t.owner.query(`SELECT password_hash FROM owners WHERE id = $1`, [id])).rows[0].password_hash;
    expect(hash).toMatch(/^\$argon2id\$/);
    expect(await verifyPassword(hash, password)).toBe(true);
    expect((await detail(id)).hasPassword).toBe(true);
    expect(JSON.stringify(await detail(id))).not.toContain(hash);
    const audit = await t.owner.query(`SELECT detail::text AS d FROM audit_log WHERE path = '/yewu/api/userinfo/resetPwd' ORDER BY id DESC LIMIT 1`);
    expect(audit.rows[0].d).not.toContain(password);
    const again = await t.call(demo, { method: 'POST', url: `${U}/resetPwd`, payload: { id } });
    expect(again.body.data.password).not.toBe(password);
  });

  it('unknown id → 404', async () => {
    const n = 99999999;
    expect((await t.call(demo, { method: 'GET', url: `${U}/detail/${n}` })).status).toBe(404);
    expect((await t.call(demo, { method: 'PUT', url: `${U}/detail`, payload: { id: n, name: 'x', phone: phone() } })).status).toBe(404);
    expect((await t.call(demo, { method: 'DELETE', url: `${U}/detail`, payload: { ids: [n] } })).status).toBe(404);
    expect((await t.call(demo, { method: 'POST', url: `${U}/resetPwd`, payload: { id: n } })).status).toBe(404);
    expect((await t.call(demo, { method: 'POST', url: `${U}/moveOut`, payload: { id: n } })).status).toBe(404);
    const id = await newOwner();
    const r = await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id, roomId: n } });
    expect(r.status).toBe(404);
    expect(r.body.message).toBe('房间不存在或无权查看');
  });

  it("another company's owners and rooms are invisible and untouchable", async () => {
    const id = other.ownerId;
    expect((await t.call(demo, { method: 'GET', url: `${U}/detail/${id}` })).status).toBe(404);
    expect((await t.call(demo, { method: 'PUT', url: `${U}/detail`, payload: { id, name: 'hacked', phone: phone() } })).status).toBe(404);
    expect((await t.call(demo, { method: 'DELETE', url: `${U}/detail`, payload: { ids: [id] } })).status).toBe(404);
    expect((await t.call(demo, { method: 'POST', url: `${U}/resetPwd`, payload: { id } })).status).toBe(404);
    expect((await t.call(demo, { method: 'POST', url: `${U}/moveOut`, payload: { id } })).status).toBe(404);
    const mine = await newOwner();
    expect((await t.call(demo, { method: 'POST', url: `${U}/moveIn`, payload: { id: mine, roomId: other.roomId } })).status).toBe(404);
    // a platform admin sees both companies, and still cannot move an owner into another company's room
    const admin = await t.login('admin', 'admin123');
    const cross = await t.call(admin, { method: 'POST', url: `${U}/moveIn`, payload: { id: mine, roomId: other.roomId } });
    expect(cross.status).toBe(404);
    expect(await detail(mine)).toMatchObject({ status: 0, roomId: null });
    const l = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=1000&name=${encodeURIComponent('他司')}` });
    expect(l.body).toMatchObject({ data: [], count: 0 });
    const h = await t.call(demo, { method: 'GET', url: `${U}/roomHistory?index=1&size=1000&roomId=${other.roomId}` });
    expect(h.body.count).toBe(0);
    const row = (await t.owner.query(`SELECT name, password_hash, room_id, status FROM owners WHERE id = $1`, [id])).rows[0];
    expect(row).toEqual({ name: '他司业主', password_hash: '', room_id: other.roomId, status: 1 });
  });

  it('without the page or operation: 403 and nothing written', async () => {
    const calls = [
      ['GET', `${U}/list`], ['GET', `${U}/detail/1`], ['POST', `${U}/detail`], ['PUT', `${U}/detail`], ['DELETE', `${U}/detail`],
      ['POST', `${U}/resetPwd`], ['POST', `${U}/moveIn`], ['POST', `${U}/moveOut`], ['GET', `${U}/roomHistory`], ['GET', `${U}/export`],
    ] as const;
    for (const [method, url] of calls) {
      const r = await t.call(reader, { method, url, payload: method === 'GET' ? undefined : { id: 1, ids: [1], roomId: 1, name: 'x', phone: '13800138000' } });
      expect(r.status, `${method} ${url}`).toBe(403);
    }
    const role = await makeRole(t.owner, demoCompany, ['recordsOwner'], []);
    const u = await makeUser(t.owner, { companyId: demoCompany, roleId: role });
    const token = await t.login(u.username, u.password);
    expect((await t.call(token, { method: 'GET', url: `${U}/list` })).body.code).toBe('SUCCESS');
    const before = await count(`SELECT count(*) AS n FROM owners`);
    expect((await t.call(token, { method: 'POST', url: `${U}/detail`, payload: { name: '张三', phone: phone() } })).status).toBe(403);
    expect((await t.call(token, { method: 'GET', url: `${U}/export` })).status).toBe(403);
    expect(await count(`SELECT count(*) AS n FROM owners`)).toBe(before);
    // the history page alone reads the history
    const hRole = await makeRole(t.owner, demoCompany, ['inRoomRecord'], []);
    const hu = await makeUser(t.owner, { companyId: demoCompany, roleId: hRole });
    const ht = await t.login(hu.username, hu.password);
    expect((await t.call(ht, { method: 'GET', url: `${U}/roomHistory` })).body.code).toBe('SUCCESS');
    expect((await t.call(ht, { method: 'GET', url: `${U}/list` })).status).toBe(403);
  });

  it('a user bound to one floor sees the owners of its rooms and those without a room', async () => {
    const role = await makeRole(t.owner, demoCompany, ['recordsOwner', 'inRoomRecord'], ['owner.basic']);
    const u = await makeUser(t.owner, { companyId: demoCompany, roleId: role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, floorB, demoCompany]);
    const token = await t.login(u.username, u.password);
    const l = await t.call(token, { method: 'GET', url: `${U}/list?index=1&size=1000` });
    const expected = await count(
      `SELECT count(*) AS n FROM owners o LEFT JOIN rooms r ON r.id = o.room_id WHERE o.company_id = $1 AND (o.room_id IS NULL OR r.area_id = $2)`,
      [demoCompany, floorB],
    );
    expect(l.body.count).toBe(expected);
    expect(l.body.data.every((o: { areaId: number | null }) => o.areaId === null || o.areaId === floorB)).toBe(true);
    const elsewhere = (await t.owner.query(`SELECT o.id FROM owners o JOIN rooms r ON r.id = o.room_id WHERE r.area_id = $1 LIMIT 1`, [floorA])).rows[0].id;
    expect((await t.call(token, { method: 'GET', url: `${U}/detail/${elsewhere}` })).status).toBe(404);
    const h = await t.call(token, { method: 'GET', url: `${U}/roomHistory?index=1&size=1000` });
    expect(h.body.data.every((x: { areaId: number }) => x.areaId === floorB)).toBe(true);
  });
});

describe('userinfo/export', () => {
  async function download(token: string, query = '') {
    const res = await t.app.inject({ method: 'GET', url: `${U}/export${query}`, headers: { authorization: token } });
    return res;
  }
  async function sheetRows(buf: Buffer) {
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const ws = wb.worksheets[0];
    const rows: unknown[][] = [];
    ws.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    return { name: ws.name, rows };
  }

  it('streams a real .xlsx whose rows match the list', async () => {
    const res = await download(demo, '?name=' + encodeURIComponent('王'));
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('业主档案.xlsx')}`);
    expect(res.headers['transfer-encoding']).toBe('chunked');
    const { name, rows } = await sheetRows(res.rawPayload);
    expect(name).toBe('业主档案');
    expect(rows[0]).toEqual(EXPORT_COLUMNS.map((c) => c.header));
    const list = await t.call(demo, { method: 'GET', url: `${U}/list?index=1&size=1000&name=${encodeURIComponent('王')}` });
    expect(list.body.count).toBeGreaterThan(0);
    expect(rows.length - 1).toBe(list.body.count);
    for (let i = 0; i < list.body.data.length; i++) {
      const o = list.body.data[i];
      const r = rows[i + 1];
      expect(r[0]).toBe(o.id);
      expect(r[1]).toBe(o.name);
      expect(r[2]).toBe(o.phone);
      expect(r[5] ?? null).toBe(o.roomName || null);
      expect(r[7]).toBe({ 0: '未入住', 1: '在住', 2: '已销户' }[o.status as 0 | 1 | 2]);
      expect(String(r[11])).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });

  it('exports thousands of owners in batches, newest first, only the caller company', async () => {
    const companyId = await makeCompany(t.owner);
    const areaId = await makeArea(t.owner, companyId, '导出园区');
    await t.owner.query(
      `INSERT INTO rooms (company_id, area_id, name) SELECT $1, $2, '房' || g FROM generate_series(1, 2500) g`, [companyId, areaId],
    );
    await t.owner.query(
      `INSERT INTO owners (company_id, room_id, name, phone, status)
       SELECT $1, r.id, '导出业主' || r.name, '138' || lpad(r.id::text, 8, '0'), 1 FROM rooms r WHERE r.company_id = $1`, [companyId],
    );
    const role = await makeRole(t.owner, companyId, ['recordsOwner'], ['owner.export']);
    const u = await makeUser(t.owner, { companyId, roleId: role });
    const token = await t.login(u.username, u.password);
    const res = await download(token);
    expect(res.statusCode).toBe(200);
    const { rows } = await sheetRows(res.rawPayload);
    const ids = (await t.owner.query(`SELECT id FROM owners WHERE company_id = $1 ORDER BY id DESC`, [companyId])).rows.map((r) => Number(r.id));
    expect(rows.slice(1).map((r) => r[0])).toEqual(ids);
    expect(rows[1][6]).toBe('导出园区');
    expect(JSON.stringify(rows)).not.toContain('他司业主');
  });

  it('bad filters → 400 before anything is streamed', async () => {
    const res = await download(demo, '?status=9');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('参数「status」');
  });
});
