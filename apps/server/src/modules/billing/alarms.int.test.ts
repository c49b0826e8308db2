import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { addReadings, billingCompany, insertAlarmScheme, makeMeter, type BillingCompany } from './fixtures.ts';
import { retryCloses } from './periodic.ts';
import { settleMeters } from './settlement.ts';
import { nextAlarm } from './alarms.ts';

// Balance alarms end to end: settlement deducts, the alarm scheme notifies once per crossing, the
// meters are closed once through the command pipeline, a top-up opens them once; a protected room
// is not closed until its protection ends.

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 4 });

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000);
const settle = (ids: number[]) => t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, ids, { skipLocked: false }));
const prepay = (roomId: number, amount: string) =>
  t.call(c.token, { method: 'POST', url: '/yewu/api/Energy/Prepay', payload: { roomId, wallet: 'electric', amount, payMethod: 'cash' } });
const commands = async (meterIds: number[]) =>
  (await t.owner.query(`SELECT meter_id, kind, origin, status, memo FROM commands WHERE meter_id = ANY($1) ORDER BY id`, [meterIds])).rows;
const notes = async (ownerId: number) =>
  (await t.owner.query(`SELECT level, channel, content, status FROM notifications WHERE owner_id = $1 ORDER BY id`, [ownerId])).rows;
const level = async (ownerId: number) =>
  Number((await t.owner.query(`SELECT alarm_level FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [ownerId])).rows[0].alarm_level);

describe('nextAlarm', () => {
  const th = { alarm1Fen: 2000, alarm2Fen: 1000, closeFen: 0, overdraftFen: 0 };
  it('notifies each threshold once and closes once per crossing', () => {
    expect(nextAlarm(0, 2500, th)).toEqual({ level: 0, notify: null, valve: null });
    expect(nextAlarm(0, 1500, th)).toEqual({ level: 1, notify: 1, valve: null });
    expect(nextAlarm(1, 1400, th)).toEqual({ level: 1, notify: null, valve: null });
    expect(nextAlarm(1, 900, th)).toEqual({ level: 2, notify: 2, valve: null });
    expect(nextAlarm(2, 0, th)).toEqual({ level: 3, notify: 3, valve: 'close' });
    expect(nextAlarm(3, -100, th)).toEqual({ level: 3, notify: null, valve: null });
    // a top-up above the close threshold opens, alarms 1 and 2 stay sent until above alarm 1
    expect(nextAlarm(3, 500, th)).toEqual({ level: 2, notify: null, valve: 'open' });
    expect(nextAlarm(2, 1500, th)).toEqual({ level: 2, notify: null, valve: null });
    expect(nextAlarm(2, 3000, th)).toEqual({ level: 0, notify: null, valve: null });
    // straight from plenty to nothing: one notification (the deepest), one close
    expect(nextAlarm(0, -1, th)).toEqual({ level: 3, notify: 3, valve: 'close' });
  });
  it('the overdraft allowance moves the close threshold down', () => {
    const od = { ...th, overdraftFen: 1000 };
    expect(nextAlarm(2, -500, od).valve).toBeNull();
    expect(nextAlarm(2, -1000, od).valve).toBe('close');
  });
  it('no alarm scheme: nothing is raised, a closed account opens', () => {
    expect(nextAlarm(0, -100, null)).toEqual({ level: 0, notify: null, valve: null });
    expect(nextAlarm(3, -100, null)).toEqual({ level: 0, notify: null, valve: 'open' });
  });
});

describe('balance alarms through settlement and the counter', () => {
  it('a balance falling below the close threshold gives exactly one close; a top-up one open', async () => {
    const [room, owner] = [c.rooms[0], c.owners[0]];
    const m1 = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, alarmSchemeId: c.alarm });
    const m2 = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, alarmSchemeId: c.alarm });
    expect((await prepay(room, '30.00')).body.code).toBe('SUCCESS');
    // 25 kWh × 0.68 = 17.00 → balance 13.00: below alarm 1 (20)
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(10), total: '25' }]);
    await settle([m1, m2]);
    expect(await level(owner)).toBe(1);
    // 5 kWh more → 9.60: below alarm 2 (10)
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(9), total: '30' }]);
    await settle([m1]);
    // 15 kWh more → −0.60: at the close threshold, both meters of the room close
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(8), total: '45' }]);
    await settle([m1]);
    expect(await level(owner)).toBe(3);
    // still more consumption while closed: no second close
    await addReadings(t, c.companyId, m1, [{ at: hoursAgo(7), total: '46' }]);
    await addReadings(t, c.companyId, m2, [{ at: hoursAgo(7), total: '1' }]);
    await settle([m1, m2]);
    let cmds = await commands([m1, m2]);
    expect(cmds.map((x) => [x.meter_id, x.kind, x.origin])).toEqual([[m1, 'close', 2], [m2, 'close', 2]]);
    expect(cmds[0].memo).toContain('余额不足自动拉闸');
    const n = await notes(owner);
    expect(n.map((x) => x.level)).toEqual([1, 2, 3]);
    expect(n[2].content).toMatch(/已欠费，系统将自动断电/);

    // a top-up that leaves the balance at or below the threshold opens nothing
    const owed = (await t.owner.query(`SELECT balance_fen FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [owner])).rows[0].balance_fen;
    expect(Number(owed)).toBeLessThan(0);
    // the close commands finished (as the worker would have them)
    await t.owner.query(`UPDATE commands SET status = 'succeeded', finished_at = now() WHERE meter_id = ANY($1)`, [[m1, m2]]);
    await t.owner.query(`UPDATE meters SET valve_state = 0 WHERE id = ANY($1)`, [[m1, m2]]);
    // the top-up brings it back above the threshold: one open per meter
    expect((await prepay(room, '50.00')).body.code).toBe('SUCCESS');
    expect((await prepay(room, '10.00')).body.code).toBe('SUCCESS');
    cmds = await commands([m1, m2]);
    expect(cmds.filter((x) => x.kind === 'open').map((x) => [x.meter_id, x.origin])).toEqual([[m1, 2], [m2, 2]]);
    expect(await level(owner)).toBe(0);
  });

  it('a protected room is not closed; once its protection ends the owed close is taken', async () => {
    const [room, owner] = [c.rooms[1], c.owners[1]];
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, alarmSchemeId: c.alarm });
    await t.owner.query(`INSERT INTO protections (company_id, meter_id, kind, reason) VALUES ($1, $2, 1, '病人在家')`, [c.companyId, m]);
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(5), total: '10' }]);
    await settle([m]);
    expect(await level(owner)).toBe(3);
    expect(await commands([m])).toEqual([]);
    // still protected: asking again takes nothing
    await retryCloses(t.db);
    expect(await commands([m])).toEqual([]);
    // protection over: the deferred close is requested once
    await t.owner.query(`UPDATE protections SET active = false WHERE meter_id = $1`, [m]);
    await retryCloses(t.db);
    await retryCloses(t.db);
    expect((await commands([m])).map((x) => [x.kind, x.origin])).toEqual([['close', 2]]);
  });

  it('an automatic close the meter did not carry out is asked again once the meter is heard from, at most three failures a day; not after a person opened it', async () => {
    const [room, owner] = [c.rooms[3], c.owners[3]];
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, alarmSchemeId: c.alarm });
    await t.owner.query(`UPDATE meters SET valve_state = 1, online = false WHERE id = $1`, [m]);
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(5), total: '10' }]);
    await settle([m]);
    expect(await level(owner)).toBe(3);
    expect((await commands([m])).map((x) => [x.kind, x.origin])).toEqual([['close', 2]]);
    // the collector was offline: the close timed out (as the worker ends it)
    const fail = () => t.owner.query(`UPDATE commands SET status = 'timed_out', finished_at = now() - interval '2 minutes' WHERE meter_id = $1 AND status IN ('queued', 'sent')`, [m]);
    const heard = () => t.owner.query(`UPDATE meters SET online = true, last_seen_at = now() WHERE id = $1`, [m]);
    await fail();
    // not heard from since: nothing is sent to a meter that cannot answer
    await retryCloses(t.db);
    expect(await commands([m])).toHaveLength(1);
    // the meter reports again: one close, and only one while it is on its way
    await heard();
    await retryCloses(t.db);
    await retryCloses(t.db);
    let cmds = await commands([m]);
    expect(cmds.map((x) => [x.kind, x.origin, x.status])).toEqual([['close', 2, 'timed_out'], ['close', 2, 'queued']]);
    expect(cmds[1].memo).toMatch(/此前拉闸未成功/);
    // it fails again twice more (a relay that does not move): after the third failure of the day, no more
    await fail(); await heard(); await retryCloses(t.db);
    await fail(); await heard(); await retryCloses(t.db);
    expect(await commands([m])).toHaveLength(3);
    await fail(); await heard(); await retryCloses(t.db);
    expect(await commands([m])).toHaveLength(3);
    // a failure a day old no longer counts; but a person opened the meter since: that decision stands
    await t.owner.query(`UPDATE commands SET created_at = created_at - interval '2 days', finished_at = finished_at - interval '2 days' WHERE meter_id = $1`, [m]);
    await t.owner.query(`INSERT INTO commands (company_id, meter_id, kind, status, origin, expires_at, finished_at) VALUES ($1, $2, 'open', 'succeeded', 1, now(), now() - interval '1 minute')`, [c.companyId, m]);
    await heard();
    await retryCloses(t.db);
    cmds = await commands([m]);
    expect(cmds.map((x) => x.kind)).toEqual(['close', 'close', 'close', 'open']);
  });

  it('inside the no-disconnect hours of the alarm scheme the close waits', async () => {
    const [room, owner] = [c.rooms[2], c.owners[2]];
    // a window covering the whole day (start = end)
    const allDay = await insertAlarmScheme(t.owner, c.companyId, { noCloseStart: '00:00', noCloseEnd: '00:00' });
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: room, schemeId: c.schemes.flat, alarmSchemeId: allDay });
    await addReadings(t, c.companyId, m, [{ at: hoursAgo(5), total: '10' }]);
    await settle([m]);
    expect(await level(owner)).toBe(3);
    expect(await commands([m])).toEqual([]);
    expect((await t.owner.query(`SELECT close_deferred FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [owner])).rows[0].close_deferred).toBe(true);
    // a top-up before the window ends: nothing is owed any more
    expect((await prepay(room, '100.00')).body.code).toBe('SUCCESS');
    expect((await t.owner.query(`SELECT close_deferred FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [owner])).rows[0].close_deferred).toBe(false);
  });

  it('queued notifications are sent through the provider and marked sent', async () => {
    const { sendQueued } = await import('../notify/service.ts');
    const sent: string[] = [];
    // a run sends at most 100 (the demo companies' low balances are queued too): drain the queue
    let n = 0;
    for (let k; (k = await sendQueued(t.db, { name: 'test', send: async (m) => void sent.push(m.content) })) > 0;) n += k;
    expect(n).toBeGreaterThan(0);
    expect(sent.some((s) => s.includes('已低于第一报警金额'))).toBe(true);
    const q = await t.owner.query(`SELECT count(*)::int AS n FROM notifications WHERE company_id = $1 AND status = 'queued'`, [c.companyId]);
    expect(q.rows[0].n).toBe(0);
  });
});
