import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { addReadings, billingCompany, insertAlarmScheme, makeMeter, type BillingCompany } from './fixtures.ts';
import { sweep } from './settlement.ts';
import { now as clock } from '../../clock.ts';

// Issue 11 item 11: an account in arrears whose close waits for the no-disconnect hours is shown as
// 待断电 with the time the close will be taken, on /energy, the room detail and /home — not as
// 断电 while its meter still reads back 通; 已断电 only once the read-back says so. The window is
// set around the server's clock (CLOCK_AT may shift it), so the test means the same at any hour.

const Y = '/yewu/api';
const hhmm = (ms: number) => new Date(ms + 8 * 3600_000).toISOString().slice(11, 16);
const get = async (url: string) => {
  const r = await t.call(c.token, { method: 'GET', url });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data;
};

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 1 });

describe('supply state of an account in arrears', () => {
  it('待断电 (with its time) while deferred and 通; 已断电 only after the read-back', async () => {
    const now = Date.now();
    const at = clock().getTime();
    const end = hhmm(at + 3600_000);
    const night = await insertAlarmScheme(t.owner, c.companyId, { noCloseStart: hhmm(at - 3600_000), noCloseEnd: end });
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: c.rooms[0], schemeId: c.schemes.flat, alarmSchemeId: night });
    await addReadings(t, c.companyId, m, [{ at: new Date(now - 2 * 3600_000), total: '0' }, { at: new Date(now - 3600_000), total: '100' }]);
    await sweep(t.db);
    const acc = await t.owner.query(`SELECT alarm_level, close_deferred FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [c.owners[0]]);
    expect(acc.rows[0]).toMatchObject({ alarm_level: 3, close_deferred: true });

    const [row] = await get(`${Y}/RoomInfo/GetEnergyRoom?index=1&size=10&searchArea=${c.parkId}`);
    expect(row.electricAlarm).toBe(3);
    expect(row.electricSupply).toBe('pending');
    expect(row.electricAlarmText).toMatch(/^欠费·待断电（预计 \d\d-\d\d \d\d:\d\d）$/);
    expect(row.electricAlarmText).toContain(end);
    expect(row.electricCloseAt.slice(11)).toBe(end);
    const detail = await get(`${Y}/RoomInfo/GetEnergyRoomDetail?roomId=${c.rooms[0]}`);
    expect(detail.accounts.find((a: { wallet: string }) => a.wallet === 'electric')).toMatchObject({ supply: 'pending', alarmText: row.electricAlarmText });
    let home = await get(`${Y}/Home/BillingSummary?searchArea=${c.parkId}`);
    expect(home.accounts).toMatchObject({ arrearsCount: 1, closedByArrearsCount: 0, pendingCloseCount: 1 });

    // the close was taken and the meter reads back 断
    await t.owner.query(`UPDATE meters SET valve_state = 0 WHERE id = $1`, [m]);
    await t.owner.query(`UPDATE accounts SET close_deferred = false WHERE owner_id = $1 AND wallet = 'electric'`, [c.owners[0]]);
    const [after] = await get(`${Y}/RoomInfo/GetEnergyRoom?index=1&size=10&searchArea=${c.parkId}`);
    expect(after).toMatchObject({ electricSupply: 'off', electricAlarmText: '欠费·已断电', electricCloseAt: null });
    home = await get(`${Y}/Home/BillingSummary?searchArea=${c.parkId}`);
    expect(home.accounts).toMatchObject({ closedByArrearsCount: 1, pendingCloseCount: 0 });
  });
});
