import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { dlt645 } from '@meter/protocol';
import { fileHarness, imei15, until } from './harness.test-util.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { ingestReadings, SOURCE } from './ingest.ts';
import { now as clock } from '../../clock.ts';

// The device side end to end: real app, gateway on a real TCP port, real Mosquitto, worker, and
// simulated collectors/meters (@meter/simulator) on the other end of the sockets.

const V1 = '/device/api/v1';
const h = await fileHarness();
const c = await h.company();
const {
  collectorId,
  meters: [elec, elec2, water],
  fleet,
} = await h.station(c, [
  { kind: 'electric', initialTotal: 1000 },
  { kind: 'electric', initialTotal: 500 },
  { kind: 'water', initialTotal: 20 },
]);

const post = (url: string, payload: unknown, token = c.token) => h.call(token, { method: 'POST', url: `${V1}/${url}`, payload: payload as object });
const get = (url: string, token = c.token) => h.call(token, { method: 'GET', url: `${V1}/${url}` });

describe('gateway: registration, online state', () => {
  it('a simulated collector registers by IMEI and shows online with its last contact', async () => {
    const row = await until(async () => {
      const r = await h.q1<{ online: boolean; last_seen_at: Date | null }>('SELECT online, last_seen_at FROM collectors WHERE id = $1', [collectorId]);
      return r.online ? r : undefined;
    });
    expect(row.last_seen_at).toBeInstanceOf(Date);
    expect(h.gateway.stats().connections).toBeGreaterThanOrEqual(1);
  });

  it('an unknown IMEI is answered ERR unknown and closed; a malformed registration ERR invalid', async () => {
    const talk = (line: string) =>
      new Promise<string>((resolve) => {
        const s = net.connect(h.gateway.port, '127.0.0.1');
        let got = '';
        s.on('data', (d) => (got += d.toString()));
        s.on('close', () => resolve(got));
        s.write(line);
      });
    expect(await talk('REG 999999999999999\n')).toBe('ERR unknown\n');
    expect(await talk('HELLO\n')).toBe('ERR invalid\n');
  });
});

describe('readings', () => {
  it('a read requested through the API comes back as a stored reading', async () => {
    const r = await post('device/order/read', { ids: [elec.id, water.id] });
    expect(r.body.code).toBe('SUCCESS');
    const cmds = r.body.data.commands as { meterId: number; status: string; reply: { total: string } }[];
    expect(cmds.map((x) => x.status)).toEqual(['succeeded', 'succeeded']);
    const sim = fleet.meter(elec.address)!.snapshot();
    const stored = await h.q1<{ total: string; source: number; exception: string; command_id: number }>(
      'SELECT total, source, exception, command_id FROM readings WHERE meter_id = $1 ORDER BY read_at DESC LIMIT 1',
      [elec.id],
    );
    expect(stored.source).toBe(2);
    expect(stored.exception).toBe('');
    expect(Number(stored.total)).toBeCloseTo(sim.total, 1);
    expect(Number(stored.command_id)).toBe((cmds[0] as unknown as { id: number }).id);
    const latest = await h.q1<{ total: string }>('SELECT total FROM meter_latest WHERE meter_id = $1', [water.id]);
    expect(Number(latest.total)).toBeCloseTo(fleet.meter(water.address)!.snapshot().total, 1);
    const meter = await until(async () => {
      const m = await h.q1<{ online: boolean; valve_state: number }>('SELECT online, valve_state FROM meters WHERE id = $1', [elec.id]);
      return m.online ? m : undefined;
    }, 3000, 'meter online');
    expect(meter).toEqual({ online: true, valve_state: 1 });
    // and the list pages see it
    const list = await get(`device/reading/list?meterId=${elec.id}`);
    expect(list.body.count).toBeGreaterThanOrEqual(1);
    expect(list.body.data[0].sourceText).toBe('随机抄表');
  });

  it('a reading lower than the last is stored as an exception with a warning, never moving the latest value', async () => {
    fleet.setFault(elec2.address, 'reversed', 5);
    await post('device/order/read', { ids: [elec2.id] }); // first read: the meter steps back once
    // the first read of this meter has nothing to compare with; read again after resetting
    const first = await h.q1<{ total: string }>('SELECT total FROM meter_latest WHERE meter_id = $1', [elec2.id]);
    fleet.setFault(elec2.address, 'reversed', 50);
    const r = await post('device/order/read', { ids: [elec2.id] });
    expect(r.body.data.commands[0].reply.exception).toBe('backwards');
    const latest = await h.q1<{ total: string }>('SELECT total FROM meter_latest WHERE meter_id = $1', [elec2.id]);
    expect(latest.total).toBe(first.total);
    const w = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1 AND kind = 'backwards' AND status = 0`, [elec2.id]);
    expect(w.n).toBe(1);
    const list = await get('device/unusual/list?type=backwards&status=0');
    expect(list.body.data.some((x: { meterId: number }) => x.meterId === elec2.id)).toBe(true);
  });

  it('storing is idempotent per (meter, read_at): the same reading twice is stored once', async () => {
    const readAt = new Date(Date.now() - 1000);
    const spare = await h.meter(c, { kind: 2 });
    const item = { meter: { id: spare.id, companyId: c.companyId, areaId: c.areaId }, readAt, total: '99999.00', source: SOURCE.manual, operatorId: c.userId };
    const first = await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [item, item]));
    expect(first.results.map((r) => r.stored)).toEqual([true, false]);
    const again = await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [item]));
    expect(again.results[0].stored).toBe(false);
    const n = await h.q1<{ n: number }>('SELECT count(*)::int AS n FROM readings WHERE meter_id = $1 AND read_at = $2', [spare.id, readAt]);
    expect(n.n).toBe(1);
    // an older reading is kept as an exception and leaves the latest value alone
    const older = await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ ...item, readAt: new Date(readAt.getTime() - 3600_000), total: '1.00' }]));
    expect(older.results[0]).toMatchObject({ stored: true, exception: 'older' });
    expect((await h.q1<{ total: string }>('SELECT total FROM meter_latest WHERE meter_id = $1', [spare.id])).total).toBe('99999.00');
  });
});

describe('valve/relay commands', () => {
  it('a close reaches the simulated meter, is confirmed by read-back, and the meter shows closed', async () => {
    const r = await post('device/order/open', { id: elec.id, open: false, memo: '欠费拉闸测试' });
    expect(r.body.code).toBe('SUCCESS');
    expect(r.body.data.status).toBe('succeeded');
    expect(r.body.data.message).toContain('拉闸成功');
    expect(fleet.meter(elec.address)!.supplyOn).toBe(false);
    const m = await h.q1<{ valve_state: number }>('SELECT valve_state FROM meters WHERE id = $1', [elec.id]);
    expect(m.valve_state).toBe(0);
    const cmd = await h.q1<{ status: string; attempts: number; memo: string; requested_by: number; reply: { valve: number } }>(
      'SELECT status, attempts, memo, requested_by, reply FROM commands WHERE id = $1',
      [r.body.data.id],
    );
    expect(cmd).toMatchObject({ status: 'succeeded', attempts: 1, memo: '欠费拉闸测试', requested_by: c.userId });
    expect(cmd.reply.valve).toBe(0);
    // 拉闸 frame and its reply are in the device log
    await h.gateway.flush();
    const down = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE meter_id = $1 AND direction = 'down' AND decoded->>'label' = '拉闸'`, [elec.id]);
    expect(down.n).toBe(1);
    // the no-power list shows it; opening brings supply back
    const np = await get('device/nopower/list');
    expect(np.body.data.some((x: { id: number }) => x.id === elec.id)).toBe(true);
    const o = await post('device/order/open', { id: elec.id, open: true, memo: '充值合闸' });
    expect(o.body.data.status).toBe('succeeded');
    expect(fleet.meter(elec.address)!.supplyOn).toBe(true);
  });

  it('a duplicate close while one is pending joins it and actuates once', async () => {
    const before = fleet.meter(elec2.address)!.actuations;
    fleet.setFault(elec2.address, 'slowReplies', 300);
    const [a, b] = await Promise.all([
      post('device/order/open', { id: elec2.id, open: false, memo: '第一次' }),
      post('device/order/open', { id: elec2.id, open: false, memo: '第二次' }),
    ]);
    fleet.clearFaults(elec2.address);
    expect(a.body.code).toBe('SUCCESS');
    expect(b.body.code).toBe('SUCCESS');
    expect(a.body.data.id).toBe(b.body.data.id);
    expect([a.body.data.joined, b.body.data.joined].filter(Boolean)).toHaveLength(1);
    expect(fleet.meter(elec2.address)!.actuations - before).toBe(1);
    const n = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM commands WHERE meter_id = $1 AND kind = 'close'`, [elec2.id]);
    expect(n.n).toBe(1);
    await h.gateway.flush();
    const frames = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE meter_id = $1 AND direction = 'down' AND decoded->>'label' = '拉闸'`, [elec2.id]);
    expect(frames.n).toBe(1);
    // closing again once closed: the read-back shows it closed already, nothing is sent
    const again = await post('device/order/open', { id: elec2.id, open: false, memo: '重复' });
    expect(again.body.data.status).toBe('succeeded');
    expect(again.body.data.reply.already).toBe(true);
    expect(fleet.meter(elec2.address)!.actuations - before).toBe(1);
    await post('device/order/open', { id: elec2.id, open: true });
  });

  it('a stuck valve: the meter acknowledges but the read-back disagrees → failed, with a warning', async () => {
    fleet.setFault(water.address, 'stuckValve', true);
    const r = await post('device/order/open', { id: water.id, open: false });
    fleet.clearFaults(water.address);
    expect(r.body.code).toBe('COMMAND_FAILED');
    expect(r.body.message).toContain('与指令不符');
    const w = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1 AND kind = 'valve_mismatch' AND status = 0`, [water.id]);
    expect(w.n).toBe(1);
    const open = await get('device/unusual/open/list');
    const row = open.body.data.find((x: { meterId: number }) => x.meterId === water.id);
    expect(row.kindText).toBe('阀门/继电器状态与指令不符');
    const deal = await h.call(c.token, { method: 'PUT', url: `${V1}/device/unusual/deal`, payload: { id: row.id, memo: '已派人检修' } });
    expect(deal.body.data).toEqual({ handled: 1, skipped: 0 });
  });

  it('a command to an offline meter ends timed_out', async () => {
    const lonely = await h.collector(c.companyId);
    const m = await h.meter(c, { kind: 1, collectorId: lonely });
    const r = await post('device/order/open', { id: m.id, open: false });
    expect(r.body.code).toBe('COMMAND_TIMEOUT');
    expect(r.body.message).toContain('设备离线');
    const cmd = await h.q1<{ status: string; attempts: number; finished_at: Date }>(`SELECT status, attempts, finished_at FROM commands WHERE meter_id = $1`, [m.id]);
    expect(cmd.status).toBe('timed_out');
    expect(cmd.attempts).toBe(2);
    expect(cmd.finished_at).toBeInstanceOf(Date);
    const list = await get(`device/order/list?meterId=${m.id}`);
    expect(list.body.data[0]).toMatchObject({ status: 'timed_out', statusText: '超时' });
  });

  it('a meter that stops answering behind a live collector times out too, and is marked offline', async () => {
    fleet.setFault(elec2.address, 'offline', true);
    const r = await post('device/order/read', { ids: [elec2.id] });
    fleet.clearFaults(elec2.address);
    expect(r.body.data.commands[0].status).toBe('timed_out');
    expect(r.body.data.commands[0].error).toBe('设备应答超时');
    const m = await h.q1<{ online: boolean }>('SELECT online FROM meters WHERE id = $1', [elec2.id]);
    expect(m.online).toBe(false);
    const fails = await get('device/read/fail/list?num=1');
    expect(fails.body.data.some((x: { id: number; fails: number }) => x.id === elec2.id && x.fails >= 1)).toBe(true);
  });

  it('reads failing 3 times in a row raise 连续抄表失败 with a work order; a good read closes both', async () => {
    const open = () => h.owner.query<{ id: string; detail: { fails: number; lastError: string } }>(
      `SELECT id, detail FROM device_warnings WHERE meter_id = $1 AND kind = 'read_fail' AND status = 0`, [elec2.id]);
    const readOnce = async () => (await post('device/order/read', { ids: [elec2.id] })).body.data.commands[0].status as string;
    // a good read first: the streak counts from it
    expect(await readOnce()).toBe('succeeded');
    fleet.setFault(elec2.address, 'offline', true);
    try {
      expect(await readOnce()).toBe('timed_out');
      expect(await readOnce()).toBe('timed_out');
      // two failures: no warning yet (the writer's warning check runs right after the outcome; give it a moment)
      await new Promise((r) => setTimeout(r, 300));
      expect((await open()).rows).toEqual([]);
      expect(await readOnce()).toBe('timed_out');
      const w = await until(async () => (await open()).rows[0], 5000, 'read_fail warning');
      expect(w.detail).toMatchObject({ fails: 3, lastError: '设备应答超时' });
    } finally {
      fleet.clearFaults(elec2.address);
    }
    const list = await get(`device/unusual/list?type=read_fail&status=0&size=100`);
    expect(list.body.data.filter((x: { meterId: number }) => x.meterId === elec2.id)).toMatchObject([{ kind: 'read_fail', kindText: '连续抄表失败' }]);
    // its 设备工单, open (待受理 or 处理中)
    const orders = () => h.owner.query<{ status: number }>(`SELECT status FROM appeals WHERE kind = 3 AND meter_id = $1 AND exception_kind = 'read_fail'`, [elec2.id]);
    expect((await orders()).rows.map((r) => r.status)).toEqual([expect.any(Number)]);
    expect([0, 1]).toContain((await orders()).rows[0].status);

    expect(await readOnce()).toBe('succeeded');
    await until(async () => ((await open()).rows.length === 0 ? true : undefined), 5000, 'read_fail closed');
    const closed = await h.q1<{ handle_memo: string }>(`SELECT handle_memo FROM device_warnings WHERE meter_id = $1 AND kind = 'read_fail'`, [elec2.id]);
    expect(closed.handle_memo).toBe('抄表已成功（自动）');
    expect((await orders()).rows.map((r) => r.status)).toEqual([2]); // 已完成
  });
});

describe('protection and no-disconnect hours', () => {
  it('closing a protected meter is refused without an override reason; a reason lets a person close it', async () => {
    await h.owner.query(`INSERT INTO protections (company_id, meter_id, kind, reason) VALUES ($1, $2, 1, '高考保电')`, [c.companyId, elec.id]);
    const r = await post('device/order/open', { id: elec.id, open: false });
    expect(r.status).toBe(200);
    expect(r.body.code).toBe('METER_PROTECTED');
    expect(r.body.message).toContain('保电');
    expect(r.body.message).toContain('高考保电');
    expect(fleet.meter(elec.address)!.supplyOn).toBe(true);
    const n = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM commands WHERE meter_id = $1 AND kind = 'close' AND created_at > now() - interval '5 seconds'`, [elec.id]);
    expect(n.n).toBe(0);
    const forced = await post('device/order/open', { id: elec.id, open: false, overrideReason: '业主申请停电检修' });
    expect(forced.body.data.status).toBe('succeeded');
    expect(fleet.meter(elec.address)!.supplyOn).toBe(false);
    await h.owner.query('UPDATE protections SET active = false WHERE meter_id = $1', [elec.id]);
    await post('device/order/open', { id: elec.id, open: true });
  });

  it('保电 on/off (metering pages) holds power on the meter itself through protect commands', async () => {
    const on = await post('protect/start', { kind: 1, meterIds: [elec2.id], reason: '医疗设备' });
    expect(on.body.code).toBe('SUCCESS');
    await until(async () => (await h.q1<{ status: string }>(`SELECT status FROM commands WHERE meter_id = $1 AND kind = 'protect_on'`, [elec2.id])).status === 'succeeded');
    expect(fleet.meter(elec2.address)!.snapshot().powerHold).toBe(true);
    const refused = await post('device/order/open', { id: elec2.id, open: false });
    expect(refused.body.code).toBe('METER_PROTECTED');
    const off = await post('protect/end', { kind: 1, meterIds: [elec2.id] });
    expect(off.body.code).toBe('SUCCESS');
    await until(async () => (await h.q1<{ status: string }>(`SELECT status FROM commands WHERE meter_id = $1 AND kind = 'protect_off'`, [elec2.id])).status === 'succeeded');
    expect(fleet.meter(elec2.address)!.snapshot().powerHold).toBe(false);
  });

  it('inside the alarm scheme’s no-disconnect hours a close is refused unless overridden', async () => {
    // a window that covers now (China time) whatever the hour the test runs
    const { rows } = await h.owner.query(
      `INSERT INTO alarm_schemes (company_id, name, no_close_start, no_close_end) VALUES ($1, $2, '00:00', '00:00') RETURNING id`,
      [c.companyId, `夜间不断电${Date.now()}`],
    );
    await h.owner.query('UPDATE meters SET alarm_scheme_id = $1 WHERE id = $2', [rows[0].id, water.id]);
    const r = await post('device/order/open', { id: water.id, open: false });
    expect(r.body.code).toBe('NO_CLOSE_PERIOD');
    expect(r.body.message).toContain('不断电时段');
    expect(r.body.message).toContain('关阀');
    // a window that does not cover now (the server's clock, which CLOCK_AT may shift): allowed
    const hh = new Date(clock().getTime() + 8 * 3600_000).getUTCHours();
    const later = (x: number) => `${String((hh + x) % 24).padStart(2, '0')}:00`;
    await h.owner.query('UPDATE alarm_schemes SET no_close_start = $1, no_close_end = $2 WHERE id = $3', [later(2), later(3), rows[0].id]);
    const ok = await post('device/order/open', { id: water.id, open: false });
    expect(ok.body.data.status).toBe('succeeded');
    await post('device/order/open', { id: water.id, open: true });
    await h.owner.query('UPDATE meters SET alarm_scheme_id = NULL WHERE id = $1', [water.id]);
  });
});

describe('robustness', () => {
  it('a garbage stream and malformed frames on one connection do not disturb the others', async () => {
    const badImei = imei15();
    const badCollector = await h.collector(c.companyId, badImei);
    const s = net.connect(h.gateway.port, '127.0.0.1');
    await new Promise<void>((resolve) => s.once('connect', () => resolve()));
    const got: string[] = [];
    s.on('data', (d) => got.push(d.toString('latin1')));
    s.write(await h.reg(badImei));
    await until(async () => got.join('').includes('OK\n'), 5000, 'registration OK');
    // random bytes, a frame with a bad checksum, a checksum-valid frame with a non-BCD address
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 37 + 11) & 0xff));
    const frame = Buffer.from(dlt645.encode({ kind: 'read', direction: 'response', address: elec.address, dataId: 0x00010000, values: { value: 1 } }));
    frame[frame.length - 2] ^= 0x55;
    const nonBcd = Buffer.from([0x68, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x68, 0x91, 0x00, 0x00, 0x16]);
    nonBcd[10] = [...nonBcd.subarray(0, 10)].reduce((a, b) => (a + b) & 0xff, 0);
    const reading = h.call(c.token, { method: 'POST', url: `${V1}/device/order/read`, payload: { ids: [elec.id, water.id] } });
    for (let i = 0; i < 20; i++) s.write(Buffer.concat([junk, frame, nonBcd]));
    s.write('HB\n');
    const r = await reading;
    expect(r.body.data.commands.map((x: { status: string }) => x.status)).toEqual(['succeeded', 'succeeded']);
    await until(async () => (await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE collector_id = $1 AND error <> ''`, [badCollector])).n > 0, 5000, 'error reports');
    const errs = await h.owner.query(`SELECT error FROM device_reports WHERE collector_id = $1 AND error <> ''`, [badCollector]);
    expect(errs.rows.length).toBeLessThanOrEqual(20); // rate-limited per connection
    expect(errs.rows.some((x) => String(x.error).startsWith('丢弃无法识别的字节'))).toBe(true);
    expect(s.destroyed).toBe(false);
    s.destroy();
    // the gateway still accepts new work
    const again = await post('device/order/read', { ids: [elec.id] });
    expect(again.body.data.commands[0].status).toBe('succeeded');
  });

  it('a second connection with the same IMEI replaces the first', async () => {
    const dupImei = imei15();
    await h.collector(c.companyId, dupImei);
    const line = await h.reg(dupImei);
    const open = () =>
      new Promise<net.Socket>((resolve) => {
        const s = net.connect(h.gateway.port, '127.0.0.1', () => s.write(line));
        s.once('data', () => resolve(s));
      });
    const first = await open();
    const closed = new Promise<void>((resolve) => first.once('close', () => resolve()));
    const second = await open();
    await closed;
    expect(second.destroyed).toBe(false);
    second.destroy();
  });
});

describe('exception detection', () => {
  it('consumption while the relay is off opens a consumption_closed warning', async () => {
    const m = await h.meter(c, { kind: 1 });
    const ident = { id: m.id, companyId: c.companyId, areaId: c.areaId };
    const t = Date.now() - 60_000;
    await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: ident, readAt: new Date(t), total: '100.00', source: SOURCE.automatic, valve: 0 }]));
    await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: ident, readAt: new Date(t + 30_000), total: '100.00', source: SOURCE.automatic, valve: 0 }]));
    expect((await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1`, [m.id])).n).toBe(0);
    const r = await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: ident, readAt: new Date(t + 60_000), total: '103.50', source: SOURCE.automatic, valve: 0 }]));
    expect(r.results[0]).toMatchObject({ stored: true, exception: '' });
    const w = await h.q1<{ kind: string; detail: { from: string; to: string } }>(`SELECT kind, detail FROM device_warnings WHERE meter_id = $1`, [m.id]);
    expect(w).toMatchObject({ kind: 'consumption_closed', detail: { from: '100.00', to: '103.50' } });
  });

  it('a low battery reported by a water meter opens a low_battery warning', async () => {
    fleet.setFault(water.address, 'lowBattery', true);
    const r = await post('device/order/read', { ids: [water.id] });
    fleet.clearFaults(water.address);
    expect(r.body.data.commands[0].status).toBe('succeeded');
    const w = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1 AND kind = 'low_battery' AND status = 0`, [water.id]);
    expect(w.n).toBe(1);
  });

  it('devices offline too long get a warning; a device left online by a dead gateway is set offline', async () => {
    const silentId = await h.collector(c.companyId);
    await h.owner.query(`UPDATE collectors SET online = false, last_seen_at = now() - interval '3 hours' WHERE id = $1`, [silentId]);
    const ghostId = await h.collector(c.companyId);
    await h.owner.query(`UPDATE collectors SET online = true, last_seen_at = now() - interval '10 minutes' WHERE id = $1`, [ghostId]);
    await h.worker.offlineSweep();
    expect((await h.q1<{ online: boolean }>('SELECT online FROM collectors WHERE id = $1', [ghostId])).online).toBe(false);
    const w = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE collector_id = $1 AND kind = 'offline' AND status = 0`, [silentId]);
    expect(w.n).toBe(1);
    // once: a second sweep refreshes the open warning instead of adding one
    await h.worker.offlineSweep();
    expect((await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE collector_id = $1 AND kind = 'offline'`, [silentId])).n).toBe(1);
    // the live test collector is not touched
    expect((await h.q1<{ online: boolean }>('SELECT online FROM collectors WHERE id = $1', [collectorId])).online).toBe(true);
  });
});

describe('a meter without readings for too long', () => {
  it('gets a no_read warning that the 抄表异常 list can search by, in words; a reading closes it on the next sweep', async () => {
    const m = await h.meter(c, { kind: 1 });
    const ident = { id: m.id, companyId: c.companyId, areaId: c.areaId };
    await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: ident, readAt: new Date(Date.now() - 5 * 86400_000), total: '10.00', source: SOURCE.automatic }]));
    await h.worker.offlineSweep();
    const list = await get(`device/unusual/list?type=no_read&status=0&size=100`);
    expect(list.status).toBe(200);
    const mine = list.body.data.filter((w: { meterId: number }) => w.meterId === m.id);
    expect(mine).toMatchObject([{ kind: 'no_read', kindText: '长时间无读数' }]);
    // a reading arrives: the next sweep closes the warning
    await h.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, [{ meter: ident, readAt: new Date(Date.now() - 1000), total: '11.00', source: SOURCE.automatic }]));
    await h.worker.offlineSweep();
    expect((await h.q1<{ status: number }>(`SELECT status FROM device_warnings WHERE meter_id = $1 AND kind = 'no_read'`, [m.id])).status).toBe(1);
  });
});

describe('scheduled reading and lists', () => {
  it('a scheduled round reads every reachable meter and records a read task', async () => {
    const queued = await h.worker.scheduleReads(true);
    expect(queued).toBeGreaterThanOrEqual(3);
    const task = await until(async () => {
      const t = await h.q1<{ status: string; total: number; succeeded: number; failed: number }>(
        'SELECT status, total, succeeded, failed FROM read_tasks WHERE company_id = $1 AND origin = 1 ORDER BY id DESC LIMIT 1',
        [c.companyId],
      );
      return t?.status === 'done' ? t : undefined;
    }, 20_000, 'read task done');
    expect(task.succeeded).toBeGreaterThanOrEqual(3);
    expect(task.succeeded + task.failed).toBe(task.total);
    const n = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM readings WHERE meter_id = $1 AND source = 1`, [elec.id]);
    expect(n.n).toBeGreaterThanOrEqual(1);
    const tasks = await get('device/read/task/list');
    expect(tasks.body.data[0]).toMatchObject({ originText: '定时抄表', statusText: '已完成' });
    // the first read of a day is a full one: the clock was checked
    const latest = await h.q1<{ registers: Record<string, unknown> }>('SELECT registers FROM meter_latest WHERE meter_id = $1', [elec.id]);
    expect(latest.registers.clockAt).toBeTruthy();
    expect(typeof latest.registers.voltageA).toBe('number');
    const unread = await get('device/read/unread/list');
    expect(unread.body.data.some((x: { id: number }) => x.id === elec.id)).toBe(false);
  });

  it('a drifting meter clock opens a warning and is answered by a time sync', async () => {
    fleet.setFault(elec.address, 'clockDrift', 900);
    await h.owner.query(`UPDATE meter_latest SET registers = registers - 'clockAt' WHERE meter_id = $1`, [elec.id]);
    await h.worker.scheduleReads(true);
    await until(async () => (await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_warnings WHERE meter_id = $1 AND kind = 'clock_drift'`, [elec.id])).n === 1, 20_000, 'drift warning');
    await until(async () => (await h.q1<{ status: string }>(`SELECT status FROM commands WHERE meter_id = $1 AND kind = 'time_sync' ORDER BY id DESC LIMIT 1`, [elec.id]))?.status === 'succeeded', 20_000, 'time sync');
    expect(Math.abs(fleet.meter(elec.address)!.snapshot().meterTime.getTime() - Date.now())).toBeLessThan(10_000);
    const w = await h.q1<{ status: number; handle_memo: string }>(`SELECT status, handle_memo FROM device_warnings WHERE meter_id = $1 AND kind = 'clock_drift'`, [elec.id]);
    expect(w.status).toBe(1);
    expect(w.handle_memo).toContain('已自动校时');
  });

  it('user/bill/by/device gives the room’s meters with their readings and usage', async () => {
    const r = await get(`user/bill/by/device?roomId=${c.roomId}`);
    expect(r.body.code).toBe('SUCCESS');
    const e = r.body.data.find((x: { meterId: number }) => x.meterId === elec.id);
    expect(e.unit).toBe('kWh');
    expect(e.readings.length).toBeGreaterThanOrEqual(2);
    expect(Number(e.usage)).toBeGreaterThanOrEqual(0);
  });

  it('another company sees none of it', async () => {
    const other = await h.company();
    const list = await get('device/order/list', other.token);
    expect(list.body.count).toBe(0);
    const r = await post('device/order/open', { id: elec.id, open: false }, other.token);
    expect(r.status).toBe(404);
    const w = await get('device/unusual/list', other.token);
    expect(w.body.count).toBe(0);
  });

  it('permissions: a role without the valve operation is refused', async () => {
    const reader = await h.company(['device.readEnergy'], ['casualCopy']);
    const m = await h.meter(reader, { kind: 1 });
    const r = await post('device/order/open', { id: m.id, open: false }, reader.token);
    expect(r.status).toBe(403);
  });
});
