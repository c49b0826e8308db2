import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { balances, billingCompany, FINANCE_ROUTES, makeMeter, type BillingCompany } from '../billing/fixtures.ts';
import { post } from '../billing/ledger.ts';
import { settleMeters } from '../billing/settlement.ts';
import { ingestReadings, SOURCE } from './ingest.ts';

// A reading that cannot be true (issue 11 item 8): one report jumping 5,000 kWh is held — stored with
// exception 'implausible' and an 'implausible' warning — and billed nothing; readings after it go on
// from the last good one; a person accepts it (billed once, later readings continue from it) or
// rejects it (never billed). The books hold throughout: balance == Σ journal, each reading settled once.

const V1 = '/device/api/v1';

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 2, routes: [...FINANCE_ROUTES, 'warnElectricError', 'warnCopyReadError'] });

const H = 3600_000;
const T0 = Date.now();
const at = (hoursAgo: number) => new Date(T0 - hoursAgo * H);

async function singlePhaseMeter(room: number, owner: number) {
  const id = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, initial: '100' });
  await t.owner.query('UPDATE meters SET phase_id = 1 WHERE id = $1', [id]);
  await t.db.tx({ companyId: c.companyId, allCompanies: false, areaIds: null, userId: null }, (tx) =>
    post(tx, { companyId: c.companyId, ownerId: owner, roomId: room, wallet: 'electric', kind: 'prepay', amountFen: 100_000, idempotencyKey: `test:${Math.random()}` }));
  return id;
}

const report = (meterId: number, hoursAgo: number, total: string) =>
  t.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: { id: meterId, companyId: c.companyId, areaId: null }, readAt: at(hoursAgo), total, source: SOURCE.report }]));
const settle = (meterId: number) => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, [meterId], { skipLocked: false }));
const q = async (sql: string, p: unknown[]) => (await t.owner.query(sql, p)).rows;
const exceptions = async (meterId: number) => (await q('SELECT total, exception FROM readings WHERE meter_id = $1 ORDER BY read_at', [meterId])).map((r) => [r.total, r.exception]);
const latest = async (meterId: number) => (await q('SELECT total FROM meter_latest WHERE meter_id = $1', [meterId]))[0].total;
const warning = async (meterId: number) => (await q(`SELECT id, status, handle_memo, detail FROM device_warnings WHERE meter_id = $1 AND kind = 'implausible'`, [meterId]))[0];
const api = (method: 'PUT' | 'GET', url: string, payload?: object) => t.call(c.token, { method, url: `${V1}/${url}`, payload });
async function books(owner: number) {
  const b = await balances(t.owner, owner);
  expect(b.electric.balance).toBe(b.electric.sum);
  return b.electric.balance;
}

describe('a reading that cannot be true', () => {
  it('is held and billed nothing; later readings go on from the last good one; rejected, it is never billed', async () => {
    const [room, owner] = [c.rooms[0], c.owners[0]];
    const m = await singlePhaseMeter(room, owner);
    await report(m, 5, '100.00');
    await report(m, 4, '101.00');
    await settle(m);
    const before = await books(owner);

    const jump = await report(m, 3, '5101.00');
    expect(jump.results[0]).toMatchObject({ stored: true, exception: 'implausible' });
    expect(await latest(m)).toBe('101.00');
    expect(await settle(m)).toMatchObject({ readings: 0, amountFen: 0 });
    expect(await books(owner)).toBe(before);
    const w = await warning(m);
    expect(w).toMatchObject({ status: 0 });
    expect(w.detail).toMatchObject({ total: '5101.00', lastTotal: '101.00', used: '5000.00' });
    // visible on the warning pages, in words
    const list = await api('GET', 'device/unusual/list?type=implausible&status=0');
    expect(list.body.data.find((x: { id: number }) => Number(x.id) === Number(w.id))).toMatchObject({ kindText: '读数异常跳变（待确认）' });

    // the next real reading is compared with 101, not 5101: good, and billed (0.5 kWh at 0.68)
    const next = await report(m, 2, '101.50');
    expect(next.results[0].exception).toBe('');
    expect(await settle(m)).toMatchObject({ readings: 1, amountFen: 34 });
    expect(await books(owner)).toBe(before - 34);
    expect(await q(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1 AND kind = 'backwards'`, [m])).toEqual([{ n: 0 }]);

    // a good reading came after it: it can no longer be accepted — refused, nothing changed
    const refused = await api('PUT', 'device/unusual/reading/accept', { id: w.id });
    expect(refused.body.code).toBe('READING_SUPERSEDED');
    expect((await warning(m)).status).toBe(0);
    // nor closed by the generic 处理
    const dealt = await api('PUT', 'device/unusual/deal', { ids: [w.id], memo: 'x' });
    expect(dealt.body.code).toBe('REVIEW_REQUIRED');
    expect(await exceptions(m)).toEqual([['100.00', ''], ['101.00', ''], ['5101.00', 'implausible'], ['101.50', '']]);

    const rejected = await api('PUT', 'device/unusual/reading/reject', { id: w.id, memo: '现场核实为表计故障' });
    expect(rejected.body.code).toBe('SUCCESS');
    expect(rejected.body.data).toMatchObject({ accepted: 0, rejected: 1 });
    expect(await exceptions(m)).toEqual([['100.00', ''], ['101.00', ''], ['5101.00', 'rejected'], ['101.50', '']]);
    expect(await warning(m)).toMatchObject({ status: 1, handle_memo: expect.stringContaining('现场核实为表计故障') });
    expect(await settle(m)).toMatchObject({ readings: 0 });
    expect(await books(owner)).toBe(before - 34);
    // handled once only
    expect((await api('PUT', 'device/unusual/reading/reject', { id: w.id })).body.code).toBe('WARNING_HANDLED');
  });

  it('accepted, it is billed once and later readings go on from it', async () => {
    const [room, owner] = [c.rooms[1], c.owners[1]];
    const m = await singlePhaseMeter(room, owner);
    await report(m, 5, '100.00');
    await settle(m);
    const before = await books(owner);
    // a real jump (a meter swapped without its archive changed, say): it and the next are held
    expect((await report(m, 4, '5100.00')).results[0].exception).toBe('implausible');
    expect((await report(m, 3, '5101.00')).results[0].exception).toBe('implausible');
    expect(await settle(m)).toMatchObject({ readings: 0 });
    expect(await books(owner)).toBe(before);
    const w = await warning(m);

    const ok = await api('PUT', 'device/unusual/reading/accept', { id: w.id, memo: '已核实' });
    expect(ok.body.code).toBe('SUCCESS');
    expect(ok.body.data).toMatchObject({ accepted: 2, rejected: 0 });
    expect(await exceptions(m)).toEqual([['100.00', ''], ['5100.00', ''], ['5101.00', '']]);
    expect(await latest(m)).toBe('5101.00');
    // 5,001 kWh at 0.68: ¥3,400.68, billed once
    expect(await settle(m)).toMatchObject({ readings: 2, amountFen: 340_068 });
    expect(await settle(m)).toMatchObject({ readings: 0 });
    expect(await books(owner)).toBe(before - 340_068);
    // one settlement per accepted reading; the first (100 against the initial 100) consumed nothing and
    // writes no settlement row (a zero reading only moves the cursor: /copyread shows no 0.0000 rows)
    expect(await q('SELECT count(*)::int AS n, count(DISTINCT read_at)::int AS d FROM settlements WHERE meter_id = $1', [m])).toEqual([{ n: 2, d: 2 }]);
    // the next reading compares with the accepted value
    expect((await report(m, 2, '5102.00')).results[0].exception).toBe('');
    expect(await settle(m)).toMatchObject({ readings: 1, amountFen: 68 });
    expect(await books(owner)).toBe(before - 340_068 - 68);
  });

  it('a person’s own reading (人工抄表) is not held', async () => {
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: null, initial: '0' });
    await report(m, 5, '1.00');
    const r = await t.db.tx(SYSTEM_SCOPE, (tx) =>
      ingestReadings(tx, [{ meter: { id: m, companyId: c.companyId, areaId: null }, readAt: at(4), total: '9000.00', source: SOURCE.manual }]));
    expect(r.results[0].exception).toBe('');
  });
});
