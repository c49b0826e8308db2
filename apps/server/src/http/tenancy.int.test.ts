import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser } from '../../test/factories.ts';
import { ROUTES, OPERATION_KEYS } from '@meter/contracts';

// Company A's staff must get nothing of company B on every endpoint that exists (DESIGN §5), and
// the database itself must show nothing when no tenant is set.
//
// The two sweeps send about a thousand requests each, one after another: 17–40 s on a quiet machine,
// more than a minute beside the suite's heaviest files on a busy one (a run timed out at the default 60 s).
const SWEEP_MS = 240_000;

const SECRET = '乙方机密';
let t: TestApp;
let aToken: string;
let b: { companyId: number; userId: number; roleId: number; areaId: number; roomId: number };

beforeAll(async () => {
  t = await testApp();
  const companyA = await makeCompany(t.owner);
  const allRoutes = ROUTES.filter((r) => r.access === undefined).map((r) => r.key);
  const aRole = await makeRole(t.owner, companyA, allRoutes, OPERATION_KEYS);
  const aUser = await makeUser(t.owner, { companyId: companyA, roleId: aRole });
  aToken = await t.login(aUser.username, aUser.password);

  const companyId = await makeCompany(t.owner, `${SECRET}单位${Date.now()}`);
  const roleId = await makeRole(t.owner, companyId, allRoutes, OPERATION_KEYS, `${SECRET}角色`);
  const u = await makeUser(t.owner, { companyId, roleId, username: `secretb${Date.now()}` });
  await t.owner.query(`UPDATE admin_users SET real_name = $1 WHERE id = $2`, [`${SECRET}用户`, u.id]);
  const areaId = await makeArea(t.owner, companyId, `${SECRET}园区`);
  const roomId = await makeRoom(t.owner, companyId, areaId, `${SECRET}房间`);
  b = { companyId, userId: u.id, roleId, areaId, roomId };
  // B's staff do something, so B has audit rows too
  const bToken = await t.login(u.username, u.password);
  await t.call(bToken, { method: 'POST', url: '/yonghu/api/admin/role', payload: { name: `${SECRET}新角色` } });
});
afterAll(() => t.close());

/** Fill every path parameter and the usual id-like query fields with B's ids. */
function urlFor(url: string, id: number) {
  const path = url.replace(/:(\w+)/g, String(id));
  const q = new URLSearchParams({
    id: String(id), Id: String(id), roomId: String(id), userId: String(id), companyId: String(b.companyId),
    searchCompanyID: String(b.companyId), searchArea: String(b.areaId), index: '1', size: '100',
  });
  return `${path}?${q}`;
}

describe('tenancy', () => {
  it('every GET endpoint shows company A nothing of company B', async () => {
    const gets = t.app.apiRoutes.filter((r) => r.method === 'GET');
    expect(gets.length).toBeGreaterThan(5);
    for (const r of gets) {
      for (const id of [b.userId, b.roleId, b.areaId, b.roomId, b.companyId]) {
        const res = await t.call(aToken, { method: 'GET', url: urlFor(r.url, id) });
        expect(JSON.stringify(res.body), `${r.url} id=${id}`).not.toContain(SECRET);
        expect(res.status, r.url).toBeLessThan(500);
      }
    }
  }, SWEEP_MS);

  it('every mutation aimed at company B changes nothing of it', async () => {
    const before = await snapshot();
    const muts = t.app.apiRoutes.filter((r) => r.method !== 'GET' && !r.url.includes('login') && !r.url.includes('logout'));
    for (const r of muts) {
      for (const id of [b.userId, b.roleId, b.areaId, b.roomId]) {
        const res = await t.call(aToken, {
          method: r.method as 'PUT',
          url: urlFor(r.url, id),
          payload: { id, ids: [id], companyId: b.companyId, status: 0, name: 'hacked', realName: 'hacked', username: `hack${id}`, password: 'Hacked123', routes: [], operations: [] },
        });
        expect(JSON.stringify(res.body), `${r.method} ${r.url}`).not.toContain(SECRET);
        expect(res.body.code === 'SUCCESS' && r.url.includes('manager'), `${r.url} must not succeed`).toBe(false);
      }
    }
    expect(await snapshot()).toEqual(before);
  }, SWEEP_MS);

  async function snapshot() {
    const q = async (sql: string) => (await t.owner.query(sql, [b.companyId])).rows;
    return {
      users: await q(`SELECT id, username, real_name, status, role_id, password_hash FROM admin_users WHERE company_id = $1 ORDER BY id`),
      roles: await q(`SELECT id, name, routes, operations FROM roles WHERE company_id = $1 ORDER BY id`),
      areas: await q(`SELECT id, name, parent_id FROM areas WHERE company_id = $1 ORDER BY id`),
      rooms: await q(`SELECT id, name FROM rooms WHERE company_id = $1 ORDER BY id`),
      sessions: await q(`SELECT count(*) FILTER (WHERE revoked_at IS NULL) AS live FROM sessions WHERE company_id = $1`),
    };
  }

  it('the app role sees no tenant rows when no tenant is set', async () => {
    const c = await t.db.pool.connect();
    try {
      for (const table of ['companies', 'roles', 'admin_users', 'areas', 'rooms', 'owners', 'sessions', 'audit_log', 'user_areas']) {
        const { rows } = await c.query(`SELECT count(*)::int AS n FROM ${table}`);
        expect(rows[0].n, table).toBe(0);
      }
      // and with a tenant set it sees exactly that tenant's rows
      await c.query('BEGIN');
      await c.query(`SELECT set_config('app.company_id', $1, true)`, [String(b.companyId)]);
      const { rows } = await c.query(`SELECT DISTINCT company_id FROM rooms`);
      expect(rows.map((r) => Number(r.company_id))).toEqual([b.companyId]);
      await c.query('ROLLBACK');
    } finally {
      c.release();
    }
  });

  it('the app role cannot bypass row-level security', async () => {
    const { rows } = await t.owner.query(`SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = 'meter_app'`);
    expect(rows[0]).toEqual({ rolsuper: false, rolbypassrls: false });
    const owners = await t.owner.query(`SELECT count(*)::int AS n FROM pg_tables WHERE schemaname = 'public' AND tableowner = 'meter_app'`);
    expect(owners.rows[0].n).toBe(0);
    const forced = await t.owner.query(
      `SELECT relname FROM pg_class WHERE relname = ANY($1) AND relforcerowsecurity AND relrowsecurity`,
      [['companies', 'roles', 'admin_users', 'areas', 'rooms', 'owners', 'sessions', 'audit_log', 'user_areas']],
    );
    expect(forced.rows).toHaveLength(9);
  });

  it('every table with a company_id column forces row-level security; partitions are closed to the app', async () => {
    const { rows } = await t.owner.query(`
      SELECT c.relname, c.relrowsecurity AS rls, c.relforcerowsecurity AS forced, c.relispartition AS part,
             has_table_privilege('meter_app', c.oid, 'SELECT') AS app_select
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
        AND EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = c.oid AND a.attname = 'company_id' AND NOT a.attisdropped)`);
    expect(rows.length).toBeGreaterThan(10);
    for (const r of rows) {
      if (r.part) expect(r.app_select, `${r.relname} (partition) must not be readable directly`).toBe(false);
      else expect(r.rls && r.forced, `${r.relname} must FORCE ROW LEVEL SECURITY`).toBe(true);
    }
  });

  it('a user bound to an area sees only that area and what lies below it', async () => {
    const companyId = await makeCompany(t.owner);
    const park = await makeArea(t.owner, companyId, '甲园区');
    const b1 = await makeArea(t.owner, companyId, '一号楼', park, 1);
    const b2 = await makeArea(t.owner, companyId, '二号楼', park, 1);
    await makeRoom(t.owner, companyId, b1, '一号楼101');
    await makeRoom(t.owner, companyId, b2, '二号楼101');
    const role = await makeRole(t.owner, companyId, ['home']);
    const u = await makeUser(t.owner, { companyId, roleId: role });
    await t.owner.query(`INSERT INTO user_areas (user_id, area_id, company_id) VALUES ($1, $2, $3)`, [u.id, b1, companyId]);
    const token = await t.login(u.username, u.password);
    const tree = await t.call(token, { method: 'GET', url: '/yewu/api/GetAreaTree' });
    const text = JSON.stringify(tree.body.data);
    expect(text).toContain('一号楼101');
    expect(text).not.toContain('二号楼');
    expect(tree.body.data[0].name).toBe('一号楼');
  });
});

describe('platform admin', () => {
  it('acts across companies, or inside one with searchCompanyID', async () => {
    const token = await t.login('admin', 'admin123');
    const all = await t.call(token, { method: 'GET', url: '/yewu/api/Company/getUserCompanyList' });
    expect(all.body.data.length).toBeGreaterThan(2);
    const tree = await t.call(token, { method: 'GET', url: `/yewu/api/GetAreaTree?searchCompanyID=${b.companyId}` });
    expect(tree.body.data.map((n: { name: string }) => n.name)).toEqual([`${SECRET}园区`]);
  });
});

