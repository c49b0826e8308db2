import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATION_KEYS } from '@meter/contracts';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeUser, uniq } from '../../../test/factories.ts';

// Issue 15 item 9, "must show": a 10,000-row file previews and imports in under 60 s; two commits of
// the same file at the same moment import it once.

let t: TestApp;
let token: string;
let companyId: number;
let park: string;

const I = '/yewu/api/import';

async function file(kind: string, rows: Record<string, string>[]) {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('导入数据');
  const headers = Object.keys(rows[0]);
  ws.addRow(headers);
  for (const r of rows) ws.addRow(headers.map((h) => r[h]));
  return { fileName: `${kind}-${uniq('bulk')}.xlsx`, content: Buffer.from(await wb.xlsx.writeBuffer()).toString('base64') };
}

beforeAll(async () => {
  t = await testApp();
  companyId = await makeCompany(t.owner);
  const role = await makeRole(t.owner, companyId, ['recordsArea', 'recordsRoom', 'recordsOwner'], OPERATION_KEYS);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  token = await t.login(u.username, u.password);
  park = uniq('大园区');
  await makeArea(t.owner, companyId, park);
});
afterAll(() => t.close());

describe('bulk', () => {
  it('10,000 rooms: preview and commit each well under 60 s, every row written', { timeout: 180_000 }, async () => {
    const rows = Array.from({ length: 10_000 }, (_, i) => ({ 房间名称: `R${String(i).padStart(5, '0')}`, 所属区域: park, '面积（㎡）': '50' }));
    const f = await file('room', rows);
    let at = Date.now();
    const p = await t.call(token, { method: 'POST', url: `${I}/room/preview`, payload: f });
    expect(p.body.data).toMatchObject({ total: 10_000, okCount: 10_000, errorCount: 0 });
    const previewMs = Date.now() - at;
    expect(previewMs).toBeLessThan(60_000);
    at = Date.now();
    const c = await t.call(token, { method: 'POST', url: `${I}/room/commit`, payload: f });
    expect(c.body.data).toMatchObject({ imported: 10_000 });
    const commitMs = Date.now() - at;
    console.info(`10,000 rows: preview ${previewMs} ms, commit ${commitMs} ms`);
    expect(commitMs).toBeLessThan(60_000);
    const { rows: n } = await t.owner.query(`SELECT count(*)::int AS n FROM rooms WHERE company_id = $1`, [companyId]);
    expect(n[0].n).toBe(10_000);
  });

  it('the same file committed twice at once is imported once', async () => {
    const f = await file('area', [{ 区域名称: '并发楼', 上级区域: park }, { 区域名称: '并发楼二', 上级区域: park }]);
    const [a, b] = await Promise.all([0, 1].map(() => t.call(token, { method: 'POST', url: `${I}/area/commit`, payload: f })));
    expect([a.body.data.imported, b.body.data.imported].sort()).toEqual([0, 2]);
    expect([a.body.data.duplicate, b.body.data.duplicate].sort()).toEqual([false, true]);
    const { rows } = await t.owner.query(`SELECT count(*)::int AS n FROM areas WHERE company_id = $1 AND name LIKE '并发楼%'`, [companyId]);
    expect(rows[0].n).toBe(2);
  });
});
