import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

/** an answer's bytes as the ArrayBuffer exceljs reads (a copy: Buffer's pool is not one) */
const bytes = (b: Buffer): ArrayBuffer => new Uint8Array(b).buffer;

// Excel import on the real database, per kind: a good file imports every row; one bad row imports
// nothing and the preview names its row and column; the same file twice imports once; rows land in
// the caller's company; an opening balance is a journal row of kind opening and equals the balance.

let t: TestApp;
let co: { companyId: number; token: string; park: string; parkId: number };
let other: { companyId: number; token: string };
let noOps: string;

const I = '/yewu/api/import';
const PAGES = ['recordsArea', 'recordsRoom', 'recordsOwner', 'recordsCollect', 'recordsTable', 'energy'];
const q = async (sql: string, params: unknown[] = []) => (await t.owner.query(sql, params)).rows;
const n = async (sql: string, params: unknown[] = []) => Number((await q(sql, params))[0].n);

async function company(name = uniq('导入单位')) {
  const companyId = await makeCompany(t.owner, name);
  const role = await makeRole(t.owner, companyId, PAGES, OPERATION_KEYS);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  return { companyId, token: await t.login(u.username, u.password) };
}

/**
 * The kind's template as served, filled from row 3 (row 2 is the example), base64 for the upload.
 * The template's drop-down lists stay behind unless `dropDowns`: exceljs expands each list's range
 * (IMPORT_MAX_ROWS rows a column) into one entry per cell on load and merges them back on save, about
 * 4 s a file on a busy machine; the server reads the values only (one upload below keeps the lists).
 */
async function filled(kind: string, rows: Record<string, string>[], token = co.token, { dropDowns = false } = {}) {
  const res = await t.app.inject({ method: 'GET', url: `${I}/${kind}/template`, headers: { authorization: token } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('spreadsheetml');
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes(res.rawPayload), { ignoreNodes: dropDowns ? [] : ['dataValidations'] });
  const ws = wb.getWorksheet('导入数据')!;
  const headers = (ws.getRow(1).values as unknown[]).slice(1).map((h) => String(h).replace(/\*$/, ''));
  rows.forEach((r, i) => {
    for (const [h, v] of Object.entries(r)) {
      const col = headers.indexOf(h);
      if (col < 0) throw new Error(`no column ${h}`);
      ws.getCell(3 + i, col + 1).value = v;
    }
  });
  return { fileName: `${kind}-${uniq('f')}.xlsx`, content: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64') };
}

const preview = (kind: string, file: object, token = co.token) => t.call(token, { method: 'POST', url: `${I}/${kind}/preview`, payload: file });
const commit = (kind: string, file: object, token = co.token) => t.call(token, { method: 'POST', url: `${I}/${kind}/commit`, payload: file });

function ok(r: { status: number; body: any }) {
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
}

let phoneSeq = 0;
const phone = () => `135${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSeq++ % 100).padStart(2, '0')}`;
let digitSeq = Date.now() % 1e8;
const digits = (len: number) => String(digitSeq++).padStart(len, '9').slice(-len);

beforeAll(async () => {
  t = await testApp();
  const c = await company();
  const park = uniq('园区');
  const parkId = await makeArea(t.owner, c.companyId, park);
  co = { ...c, park, parkId };
  other = await company();
  const role = await makeRole(t.owner, co.companyId, ['recordsOwner']);
  const u = await makeUser(t.owner, { companyId: co.companyId, roleId: role });
  noOps = await t.login(u.username, u.password);
});
afterAll(() => t.close());

describe('templates', () => {
  it('every kind has a template with Chinese headers, an example row and enum drop-downs', async () => {
    for (const kind of ['area', 'room', 'owner', 'collector', 'meter', 'opening']) {
      const res = await t.app.inject({ method: 'GET', url: `${I}/${kind}/template`, headers: { authorization: co.token } });
      expect(res.statusCode).toBe(200);
      expect(decodeURIComponent(String(res.headers['content-disposition']))).toContain('导入模板.xlsx');
      const wb = new ExcelJS.Workbook();
      // headers, example and help sheet here; the drop-downs (slow to load: see filled) of two kinds below
      await wb.xlsx.load(bytes(res.rawPayload), { ignoreNodes: ['dataValidations'] });
      const ws = wb.getWorksheet('导入数据')!;
      expect(String(ws.getCell(1, 1).value)).toMatch(/[\u4e00-\u9fa5]/);
      expect(ws.getRow(2).cellCount).toBeGreaterThan(0);
      expect(wb.getWorksheet('填写说明')).toBeTruthy();
    }
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(bytes((await t.app.inject({ method: 'GET', url: `${I}/owner/template`, headers: { authorization: co.token } })).rawPayload));
    // 性别 (column D) offers its labels
    expect(wb.getWorksheet('导入数据')!.getCell('D3').dataValidation).toMatchObject({ type: 'list' });
    // 表具方案 (column C) suggests the plans by name but admits a typed code
    const meter = new ExcelJS.Workbook();
    await meter.xlsx.load(bytes((await t.app.inject({ method: 'GET', url: `${I}/meter/template`, headers: { authorization: co.token } })).rawPayload));
    expect(meter.getWorksheet('导入数据')!.getCell('C3').dataValidation).toMatchObject({ type: 'list' });
    expect(meter.getWorksheet('导入数据')!.getCell('C3').dataValidation.showErrorMessage).toBeFalsy();
    expect(meter.getWorksheet('导入数据')!.getCell('B3').dataValidation).toMatchObject({ type: 'list', showErrorMessage: true });
  });

  it('an unknown kind is refused in Chinese; a user without the add permission is refused', async () => {
    const bad = await t.call(co.token, { method: 'GET', url: `${I}/people/template` });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain('导入类别无效');
    const file = await filled('owner', [{ 业主姓名: '甲', 手机号码: phone() }]);
    expect((await preview('owner', file, noOps)).status).toBe(403);
  });
});

describe('areas and rooms', () => {
  it('imports a tree (parents from the same file), refuses a bad file whole, imports the same file once', async () => {
    const rows: Record<string, string>[] = [
      { 区域名称: '1层', 上级区域: `${co.park}/A栋` },
      { 区域名称: 'A栋', 上级区域: co.park, 区域类型: '普通区域', 省: '广东省', 市: '深圳市' },
      { 区域名称: '2层', 上级区域: `${co.park}/A栋`, 排序: '2' },
    ];
    // one bad row: 市 without 省, and a parent that exists nowhere
    const bad = await filled('area', [...rows, { 区域名称: 'X', 上级区域: `${co.park}/无此楼` }]);
    const p = ok(await preview('area', bad));
    expect(p).toMatchObject({ total: 4, okCount: 3, errorCount: 1 });
    expect(p.errors).toEqual([{ row: 6, column: '上级区域', message: expect.stringContaining('不存在') }]);
    const refused = await commit('area', bad);
    expect(refused.body.code).toBe('IMPORT_INVALID');
    expect(refused.body.message).toContain('第 6 行「上级区域」');
    expect(await n(`SELECT count(*) AS n FROM areas WHERE company_id = $1`, [co.companyId])).toBe(1);

    // this upload keeps the template's drop-down lists, as Excel saves a filled template
    const good = await filled('area', rows, co.token, { dropDowns: true });
    expect(ok(await preview('area', good))).toMatchObject({ total: 3, okCount: 3, errorCount: 0, alreadyImported: null });
    expect(ok(await commit('area', good))).toMatchObject({ imported: 3, duplicate: false });
    const again = ok(await commit('area', good));
    expect(again).toMatchObject({ imported: 0, duplicate: true });
    expect(ok(await preview('area', good)).alreadyImported).toMatchObject({ rows: 3 });
    const tree = await q(`SELECT a.name, a.deep, p.name AS parent, a.province FROM areas a LEFT JOIN areas p ON p.id = a.parent_id WHERE a.company_id = $1 ORDER BY a.deep, a.name`, [co.companyId]);
    expect(tree).toEqual([
      { name: co.park, deep: 0, parent: null, province: '' },
      { name: 'A栋', deep: 1, parent: co.park, province: '广东省' },
      { name: '1层', deep: 2, parent: 'A栋', province: '' },
      { name: '2层', deep: 2, parent: 'A栋', province: '' },
    ]);
    // the same rows in another file are duplicates of the database
    const dup = ok(await preview('area', await filled('area', [rows[1]])));
    expect(dup.errors[0]).toMatchObject({ row: 3, column: '区域名称', message: expect.stringContaining('已存在') });
  });

  it('rooms: the form rules name the column; duplicates within the file and the database', async () => {
    const floor = `${co.park}/A栋/1层`;
    const rows = ['101', '102', '103'].map((name) => ({ 房间名称: name, 所属区域: floor, 装修情况: '精装' }));
    const bad = await filled('room', [
      ...rows,
      { 房间名称: '104', 所属区域: floor, '面积（㎡）': '-5' },
      { 房间名称: '101', 所属区域: floor },
      { 房间名称: '105', 所属区域: floor, 朝向: '朝天' },
    ]);
    const p = ok(await preview('room', bad));
    expect(p.errors).toEqual([
      { row: 6, column: '面积（㎡）', message: '面积（㎡）不能小于 0' },
      { row: 7, column: '房间名称', message: expect.stringContaining('与第 3 行重复') },
      { row: 8, column: '朝向', message: expect.stringContaining('不是有效的朝向') },
    ]);
    expect((await commit('room', bad)).body.code).toBe('IMPORT_INVALID');
    expect(await n(`SELECT count(*) AS n FROM rooms WHERE company_id = $1`, [co.companyId])).toBe(0);
    const good = await filled('room', rows);
    expect(ok(await commit('room', good)).imported).toBe(3);
    expect(ok(await commit('room', good)).duplicate).toBe(true);
    expect(await q(`SELECT name, decoration FROM rooms WHERE company_id = $1 ORDER BY name`, [co.companyId])).toEqual([
      { name: '101', decoration: 2 }, { name: '102', decoration: 2 }, { name: '103', decoration: 2 },
    ]);
  });
});

describe('a user bound to areas', () => {
  it('writes the same full paths, only inside the bound areas; no top-level areas', async () => {
    const role = await makeRole(t.owner, co.companyId, PAGES, OPERATION_KEYS);
    const u = await makeUser(t.owner, { companyId: co.companyId, roleId: role });
    const building = Number((await q(`SELECT id FROM areas WHERE company_id = $1 AND name = 'A栋'`, [co.companyId]))[0].id);
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, building, co.companyId]);
    const bound = await t.login(u.username, u.password);
    const areas = ok(await preview('area', await filled('area', [{ 区域名称: '3层', 上级区域: `${co.park}/A栋` }, { 区域名称: '新园区' }], bound), bound));
    expect(areas.errors).toEqual([{ row: 4, column: '上级区域', message: expect.stringContaining('只能在已授权的区域下') }]);
    const rooms = ok(await preview('room', await filled('room', [
      { 房间名称: '绑定房', 所属区域: `${co.park}/A栋/1层` },
      { 房间名称: '园区房', 所属区域: co.park },
    ], bound), bound));
    expect(rooms.errors).toEqual([{ row: 4, column: '所属区域', message: expect.stringContaining('不存在或无权使用') }]);
    ok(await commit('area', await filled('area', [{ 区域名称: '3层', 上级区域: `${co.park}/A栋` }], bound), bound));
    expect(await q(`SELECT p.name AS parent, a.deep FROM areas a JOIN areas p ON p.id = a.parent_id WHERE a.company_id = $1 AND a.name = '3层'`, [co.companyId])).toEqual([{ parent: 'A栋', deep: 2 }]);
  });
});

describe('owners', () => {
  it('imports owners moved into their rooms (history written), refuses an occupied room, lands in the caller company', async () => {
    const floor = `${co.park}/A栋/1层`;
    const p1 = phone();
    const p2 = phone();
    const bad = await filled('owner', [
      { 业主姓名: '张三', 手机号码: p1, 性别: '男', 入住房间: `${floor}/101` },
      { 业主姓名: '李四', 手机号码: '23800138000', 入住房间: `${floor}/101` },
    ]);
    const p = ok(await preview('owner', bad));
    expect(p.errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([[4, '手机号码'], [4, '入住房间']]);
    expect((await commit('owner', bad)).body.code).toBe('IMPORT_INVALID');
    expect(await n(`SELECT count(*) AS n FROM owners WHERE company_id = $1`, [co.companyId])).toBe(0);

    const good = await filled('owner', [
      { 业主姓名: '张三', 手机号码: p1, 性别: '男', 入住房间: `${floor}/101` },
      { 业主姓名: '李四', 手机号码: p2 },
    ]);
    expect(ok(await commit('owner', good)).imported).toBe(2);
    expect(ok(await commit('owner', good)).imported).toBe(0);
    const owners = await q(`SELECT o.name, o.gender, o.status, r.name AS room FROM owners o LEFT JOIN rooms r ON r.id = o.room_id WHERE o.company_id = $1 ORDER BY o.name`, [co.companyId]);
    expect(owners).toEqual([{ name: '张三', gender: 1, status: 1, room: '101' }, { name: '李四', gender: 0, status: 0, room: null }]);
    expect(await n(`SELECT count(*) AS n FROM owner_room_history WHERE company_id = $1 AND action = 1 AND room_name = $2`, [co.companyId, `${floor}/101`])).toBe(1);
    // another company cannot reach these rooms: the path does not resolve there
    const foreign = ok(await preview('owner', await filled('owner', [{ 业主姓名: '王五', 手机号码: phone(), 入住房间: `${floor}/102` }], other.token), other.token));
    expect(foreign.errors[0]).toMatchObject({ row: 3, column: '入住房间', message: expect.stringContaining('不存在') });
    // an owner phone already registered
    const again = ok(await preview('owner', await filled('owner', [{ 业主姓名: '张三', 手机号码: p1 }])));
    expect(again.errors[0]).toMatchObject({ column: '手机号码', message: expect.stringContaining('已登记') });
    // the audit log names the import
    expect(await n(`SELECT count(*) AS n FROM audit_log WHERE company_id = $1 AND target LIKE '导入业主 2 行%'`, [co.companyId])).toBe(1);
  });
});

describe('collectors and meters', () => {
  it('imports collectors and meters behind them; IMEI and address unique across the platform', async () => {
    const imei = digits(15);
    const bad = await filled('collector', [
      { 采集器名称: '采集器甲', IMEI: imei, 采集器方案: '4G', 安装区域: `${co.park}/A栋` },
      { 采集器名称: '采集器乙', IMEI: '12345', 采集器方案: '4G', 安装区域: `${co.park}/A栋` },
    ]);
    expect(ok(await preview('collector', bad)).errors).toEqual([{ row: 4, column: 'IMEI', message: 'IMEI 须为 15 位数字' }]);
    expect((await commit('collector', bad)).body.code).toBe('IMPORT_INVALID');
    const good = await filled('collector', [{ 采集器名称: '采集器甲', IMEI: imei, 采集器方案: '4G', 安装区域: `${co.park}/A栋` }]);
    expect(ok(await commit('collector', good)).imported).toBe(1);
    expect(ok(await commit('collector', good)).duplicate).toBe(true);
    // the same IMEI from another company: taken on the platform
    const foreign = ok(await preview('collector', await filled('collector', [{ 采集器名称: '他司', IMEI: imei, 采集器方案: '4G', 安装区域: 'x' }], other.token), other.token));
    expect(foreign.errors.find((e: { column: string }) => e.column === 'IMEI')?.message).toContain('已被其他采集器使用');

    const floor = `${co.park}/A栋/1层`;
    const a1 = digits(12);
    const a2 = digits(14);
    const meters: Record<string, string>[] = [
      { 表具类别: '电表', 表具方案: '0', 表地址: a1, 房间: `${floor}/101`, '采集器 IMEI': imei },
      { 表具类别: '水表', 表具方案: 'NB-IoT（151）', 表地址: a2, 房间: `${floor}/101` },
    ];
    const badMeters = await filled('meter', [...meters, { 表具类别: '电表', 表具方案: '0', 表地址: a2.slice(0, 13), 房间: `${floor}/101` }]);
    expect(ok(await preview('meter', badMeters)).errors).toEqual([{ row: 5, column: '表地址', message: expect.stringContaining('12 位') }]);
    expect((await commit('meter', badMeters)).body.code).toBe('IMPORT_INVALID');
    expect(await n(`SELECT count(*) AS n FROM meters WHERE company_id = $1`, [co.companyId])).toBe(0);
    const goodMeters = await filled('meter', meters);
    expect(ok(await commit('meter', goodMeters)).imported).toBe(2);
    expect(ok(await commit('meter', goodMeters)).imported).toBe(0);
    const rows = await q(`SELECT m.kind, m.plan, m.address, c.imei AS collector, r.name AS room, m.area_id = r.area_id AS "areaFollows" FROM meters m JOIN rooms r ON r.id = m.room_id LEFT JOIN collectors c ON c.id = m.collector_id WHERE m.company_id = $1 ORDER BY m.kind`, [co.companyId]);
    expect(rows).toEqual([
      { kind: 1, plan: 0, address: a1, collector: imei, room: '101', areaFollows: true },
      { kind: 2, plan: 151, address: a2, collector: null, room: '101', areaFollows: true },
    ]);
    expect(ok(await preview('meter', goodMeters)).errors[0]).toMatchObject({ column: '表地址', message: expect.stringContaining('已存在') });
  });
});

describe('opening balances', () => {
  it('books kind opening through the ledger, equals the balance, refuses a second opening or an owner with other journal rows', async () => {
    const areaId = await makeArea(t.owner, co.companyId, uniq('期初楼'), co.parkId, 1);
    const path = (await q(`SELECT name FROM areas WHERE id = $1`, [areaId]))[0].name;
    const roomId = await makeRoom(t.owner, co.companyId, areaId, 'B101');
    const p1 = phone();
    const p2 = phone();
    ok(await commit('owner', await filled('owner', [{ 业主姓名: '期初甲', 手机号码: p1, 入住房间: `${co.park}/${path}/B101` }, { 业主姓名: '期初乙', 手机号码: p2 }])));
    const ids = new Map((await q(`SELECT id, phone FROM owners WHERE phone = ANY($1)`, [[p1, p2]])).map((r) => [r.phone, Number(r.id)]));
    const [o1, o2] = [ids.get(p1)!, ids.get(p2)!];
    const rows: Record<string, string>[] = [
      { 业主手机号码: p1, 业主姓名: '期初甲', 房间: `${co.park}/${path}/B101`, 钱包: '电费', '期初余额（元）': '150.50' },
      { 业主手机号码: p1, 钱包: '水费', '期初余额（元）': '-20' },
      { 业主手机号码: p2, 钱包: '电费', '期初余额（元）': '8' },
    ];
    const bad = await filled('opening', [...rows, { 业主手机号码: p2, 钱包: '水费', '期初余额（元）': '0' }, { 业主手机号码: p1, 业主姓名: '别人', 钱包: '补贴', '期初余额（元）': '1' }]);
    const p = ok(await preview('opening', bad));
    expect(p.errors).toEqual([
      { row: 6, column: '期初余额（元）', message: '期初余额不能为 0' },
      { row: 7, column: '业主姓名', message: expect.stringContaining('不符') },
    ]);
    expect((await commit('opening', bad)).body.code).toBe('IMPORT_INVALID');
    expect(await n(`SELECT count(*) AS n FROM journal WHERE owner_id = ANY($1)`, [[o1, o2]])).toBe(0);

    const good = await filled('opening', rows);
    expect(ok(await commit('opening', good)).imported).toBe(3);
    expect(ok(await commit('opening', good)).duplicate).toBe(true);
    const j = await q(`SELECT owner_id AS "ownerId", wallet, kind, pay_method AS "payMethod", amount_fen::int AS fen, room_id AS "roomId" FROM journal WHERE owner_id = ANY($1) ORDER BY owner_id = $2 DESC, wallet`, [[o1, o2], o1]);
    expect(j).toEqual([
      { ownerId: o1, wallet: 'electric', kind: 'opening', payMethod: 'system', fen: 15050, roomId },
      { ownerId: o1, wallet: 'water', kind: 'opening', payMethod: 'system', fen: -2000, roomId },
      { ownerId: o2, wallet: 'electric', kind: 'opening', payMethod: 'system', fen: 800, roomId: null },
    ]);
    expect(await n(`SELECT count(*) AS n FROM accounts ac WHERE ac.owner_id = ANY($1) AND ac.balance_fen <> (SELECT coalesce(sum(amount_fen), 0) FROM journal WHERE account_id = ac.id)`, [[o1, o2]])).toBe(0);
    expect(await n(`SELECT sum(balance_fen)::int AS n FROM accounts WHERE owner_id = ANY($1)`, [[o1, o2]])).toBe(15050 - 2000 + 800);

    // a second opening for the same wallet, in another file
    const second = ok(await preview('opening', await filled('opening', [{ 业主手机号码: p2, 钱包: '电费', '期初余额（元）': '9' }])));
    expect(second.errors[0]).toMatchObject({ column: '钱包', message: expect.stringContaining('已有期初余额') });
    // an owner with a counter payment cannot get an opening balance any more
    ok(await t.call(co.token, { method: 'POST', url: '/yewu/api/Energy/Prepay', payload: { roomId, wallet: 'electric', amount: '10.00', payMethod: 'cash' } }));
    const late = ok(await preview('opening', await filled('opening', [{ 业主手机号码: p1, 钱包: '补贴', '期初余额（元）': '5' }])));
    expect(late.errors[0]).toMatchObject({ column: '业主手机号码', message: expect.stringContaining('已有充值') });
  });
});

describe('tenancy', () => {
  it('a platform admin picks the company (searchCompanyID); company staff cannot write into another company', async () => {
    const admin = await t.login('admin', 'admin123');
    const file = await filled('owner', [{ 业主姓名: '平台导入', 手机号码: phone() }], admin);
    const none = await preview('owner', file, admin);
    expect(none.body.code).toBe('COMPANY_REQUIRED');
    ok(await t.call(admin, { method: 'POST', url: `${I}/owner/commit?searchCompanyID=${other.companyId}`, payload: file }));
    expect(await n(`SELECT count(*) AS n FROM owners WHERE name = '平台导入' AND company_id = $1`, [other.companyId])).toBe(1);
    // a company user's searchCompanyID is ignored: the rows land in the user's own company
    const mine = await filled('owner', [{ 业主姓名: '越权导入', 手机号码: phone() }]);
    ok(await t.call(co.token, { method: 'POST', url: `${I}/owner/commit?searchCompanyID=${other.companyId}`, payload: mine }));
    expect(await q(`SELECT company_id AS "companyId" FROM owners WHERE name = '越权导入'`)).toEqual([{ companyId: co.companyId }]);
  });
});

describe('the import log', () => {
  it('lists the committed files of the caller company only', async () => {
    const mine = ok(await t.call(co.token, { method: 'GET', url: `${I}/log?index=1&size=50` }));
    expect(mine.length).toBeGreaterThanOrEqual(6);
    expect(new Set(mine.map((r: { kindName: string }) => r.kindName))).toEqual(new Set(['区域', '房间', '业主', '采集器', '表具', '期初余额']));
    const theirs = await t.call(other.token, { method: 'GET', url: `${I}/log?index=1&size=50` });
    // only the owner file the platform admin imported into it above
    expect(theirs.body.count).toBe(1);
    expect(mine.map((r: { id: number }) => r.id)).not.toContain(theirs.body.data[0].id);
  });
});
