import type pg from 'pg';
import { OPERATION_KEYS } from '@meter/contracts';
import type { TestApp } from '../../../test/helpers.ts';
import { makeArea, makeCompany, makeRole, makeRoom, makeUser, uniq } from '../../../test/factories.ts';

// Fixtures of the billing integration tests: a company with rooms, owners, charging and alarm
// schemes, meters, and readings stored as the ingest stores them.

let n = 0;
const stamp = () => `${Date.now() % 100000}`.padStart(5, '0') + `${process.pid % 100}`.padStart(2, '0');
/** meter addresses that never collide with the demo seed (20/30) or the device tests (91/92) */
export const address = (kind: number) => (kind === 2 ? `9400${stamp()}${`${n++ % 1000}`.padStart(3, '0')}` : `93${stamp()}${`${n++ % 1000}`.padStart(3, '0')}`);

export const FINANCE_ROUTES = [
  'energy', 'compre', 'copyread', 'financerecode', 'billprint', 'timeSubsidy', 'accountCancel', 'accountOff',
  'notesPay', 'notesMessage', 'reportCheck', 'reportFees', 'reportDeduct', 'reportBank', 'recordsTable', 'comprePublic',
];

export interface BillingCompany {
  companyId: number;
  parkId: number;
  floorId: number;
  rooms: number[];
  owners: number[];
  token: string;
  userId: number;
  /** 统一电价 0.6800 / 阶梯 (200 / 400 kWh, 月累计) / 水 4.2000 */
  schemes: { flat: number; tiered: number; water: number };
  /** alarm 1 ¥20, alarm 2 ¥10, close ¥0 */
  alarm: number;
}

export async function insertScheme(owner: pg.Pool, companyId: number, s: {
  name?: string; kind?: number; monthType?: number | null; mode?: string; unitPrice?: string;
  tiers?: { upTo: string | null; price: string }[]; monthlyFeeFen?: number; minimumChargeFen?: number; from?: string;
}) {
  const { rows } = await owner.query(
    `INSERT INTO charging_schemes (company_id, name, kind, charging_month_type) VALUES ($1, $2, $3, $4) RETURNING id`,
    [companyId, s.name ?? uniq('方案'), s.kind ?? 1, s.monthType ?? null],
  );
  const id = Number(rows[0].id);
  await owner.query(
    `INSERT INTO charging_scheme_versions (company_id, scheme_id, effective_from, mode, unit_price, tiers, monthly_fee_fen, minimum_charge_fen)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [companyId, id, s.from ?? '2020-01-01T00:00:00+08:00', s.mode ?? 'flat', s.unitPrice ?? '0', JSON.stringify(s.tiers ?? []), s.monthlyFeeFen ?? 0, s.minimumChargeFen ?? 0],
  );
  return id;
}

export async function insertAlarmScheme(owner: pg.Pool, companyId: number, a: { kind?: number; alarm1Fen?: number; alarm2Fen?: number; closeFen?: number; overdraftFen?: number; noCloseStart?: string; noCloseEnd?: string } = {}) {
  const { rows } = await owner.query(
    `INSERT INTO alarm_schemes (company_id, name, kind, alarm1_fen, alarm2_fen, close_fen, overdraft_fen, notify_sms, no_close_start, no_close_end)
     VALUES ($1, $2, $3, $4, $5, $6, $7, true, $8, $9) RETURNING id`,
    [companyId, uniq('报警'), a.kind ?? 1, a.alarm1Fen ?? 2000, a.alarm2Fen ?? 1000, a.closeFen ?? 0, a.overdraftFen ?? 0, a.noCloseStart ?? '', a.noCloseEnd ?? ''],
  );
  return Number(rows[0].id);
}

export async function makeOwner(owner: pg.Pool, companyId: number, roomId: number | null, name = uniq('业主')) {
  const { rows } = await owner.query(
    `INSERT INTO owners (company_id, room_id, name, phone, status) VALUES ($1, $2, $3, '13800000000', $4) RETURNING id`,
    [companyId, roomId, name, roomId == null ? 0 : 1],
  );
  return Number(rows[0].id);
}

export async function makeMeter(owner: pg.Pool, m: {
  companyId: number; roomId: number | null; areaId?: number | null; kind?: number; schemeId?: number | null; alarmSchemeId?: number | null;
  multiplier?: string; initial?: string; name?: string;
}) {
  const kind = m.kind ?? 1;
  const { rows } = await owner.query(
    `INSERT INTO meters (company_id, room_id, area_id, name, kind, plan, address, multiplier, charging_scheme_id, alarm_scheme_id, initial_reading, valve_state)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 1) RETURNING id`,
    [m.companyId, m.roomId, m.areaId ?? null, m.name ?? (kind === 2 ? '水表' : '电表'), kind, kind === 2 ? 100 : 0, address(kind), m.multiplier ?? '1',
      m.schemeId ?? null, m.alarmSchemeId ?? null, m.initial ?? '0'],
  );
  return Number(rows[0].id);
}

export async function billingCompany(t: TestApp, o: { ops?: string[]; routes?: string[]; rooms?: number } = {}): Promise<BillingCompany> {
  const companyId = await makeCompany(t.owner);
  const parkId = await makeArea(t.owner, companyId, uniq('园区'));
  const floorId = await makeArea(t.owner, companyId, '1层', parkId, 1);
  const rooms: number[] = [];
  const owners: number[] = [];
  for (let i = 0; i < (o.rooms ?? 3); i++) {
    const roomId = await makeRoom(t.owner, companyId, floorId, `10${i + 1}`);
    await t.owner.query(`UPDATE rooms SET size_m2 = $2 WHERE id = $1`, [roomId, String(50 + i * 25)]);
    rooms.push(roomId);
    owners.push(await makeOwner(t.owner, companyId, roomId, `业主${i + 1}`));
  }
  const role = await makeRole(t.owner, companyId, o.routes ?? FINANCE_ROUTES, o.ops ?? OPERATION_KEYS);
  const u = await makeUser(t.owner, { companyId, roleId: role });
  const token = await t.login(u.username, u.password);
  const schemes = {
    flat: await insertScheme(t.owner, companyId, { name: uniq('统一电价'), unitPrice: '0.6800' }),
    tiered: await insertScheme(t.owner, companyId, {
      name: uniq('阶梯电价'), monthType: 1, mode: 'tiered', tiers: [{ upTo: '200', price: '0.5283' }, { upTo: '400', price: '0.5783' }, { upTo: null, price: '0.8283' }],
    }),
    water: await insertScheme(t.owner, companyId, { name: uniq('水价'), kind: 2, unitPrice: '4.2000' }),
  };
  const alarm = await insertAlarmScheme(t.owner, companyId);
  return { companyId, parkId, floorId, rooms, owners, token, userId: u.id, schemes, alarm };
}

/**
 * Stores good readings as the ingest does (readings + meter_latest, the newest good reading), with
 * the owner connection: the tests of settlement do not depend on the gateway.
 */
export async function addReadings(t: TestApp, companyId: number, meterId: number, rs: { at: Date | string; total: string; registers?: Record<string, number> }[]) {
  for (const r of rs) {
    const at = typeof r.at === 'string' ? r.at : r.at.toISOString();
    await t.owner.query(`INSERT INTO readings (company_id, meter_id, read_at, source, total, registers) VALUES ($1, $2, $3, 1, $4, $5)`, [
      companyId, meterId, at, r.total, JSON.stringify(r.registers ?? {}),
    ]);
    await t.owner.query(
      `INSERT INTO meter_latest (meter_id, company_id, read_at, total, registers, source) VALUES ($1, $2, $3, $4, $5, 1)
       ON CONFLICT (meter_id) DO UPDATE SET read_at = excluded.read_at, total = excluded.total, registers = excluded.registers, updated_at = now()
       WHERE meter_latest.read_at < excluded.read_at`,
      [meterId, companyId, at, r.total, JSON.stringify(r.registers ?? {})],
    );
  }
}

/** Each wallet of an owner: balance, Σ journal and alarm level. */
export async function balances(owner: pg.Pool, ownerId: number) {
  const { rows } = await owner.query(
    `SELECT a.wallet, a.balance_fen, a.alarm_level, (SELECT coalesce(sum(j.amount_fen), 0) FROM journal j WHERE j.account_id = a.id) AS sum
     FROM accounts a WHERE a.owner_id = $1`,
    [ownerId],
  );
  return Object.fromEntries(rows.map((r) => [r.wallet, { balance: Number(r.balance_fen), sum: Number(r.sum), level: Number(r.alarm_level) }])) as Record<string, { balance: number; sum: number; level: number }>;
}
