import { describe, expect, it } from 'vitest';
import type { ElectricMeter, WaterMeter } from '@meter/simulator';
import { fileHarness } from './harness.test-util.ts';

// Setting meter parameters end to end: API → commands row → worker → executor (configSet: a DL/T 645
// 写数据 0x14, then a read-back of the same DI that must match; CJ/T 188 写结算日 / 写标准时间) →
// gateway over real TCP → simulated collector → simulated meter, which stores the value.

const V1 = '/device/api/v1';
const h = await fileHarness();
const c = await h.company();
const {
  meters: [elec, locked, water],
  fleet,
} = await h.station(c, [
  { kind: 'electric', initialTotal: 100 },
  // the platform writes with password 000000 (DLT645_PASSWORD 02000000): this meter wants another
  { kind: 'electric', initialTotal: 100, password: 'A1B2C3' },
  { kind: 'water', initialTotal: 10 },
]);

const post = (url: string, payload: unknown) => h.call(c.token, { method: 'POST', url: `${V1}/${url}`, payload: payload as object });
const electric = (address: string) => fleet.meter(address) as ElectricMeter;


describe('DL/T 645 parameters reach the simulated meter and are read back', () => {
  it('透支限额下发 (device/order/limit) writes 04001003 over TCP, reads it back and succeeds; the meter holds it', async () => {
    expect(electric(elec.address).parameters.overdraftLimit).toBe(0);
    const r = await post('device/order/limit', { id: elec.id, limitPrice: '88.50', memo: '透支额度调整' });
    expect(r.body.code).toBe('SUCCESS');
    expect(r.body.data).toMatchObject({ status: 'succeeded', kind: 'limit', reply: { set: { overdraftLimit: '88.50' } } });
    expect(electric(elec.address).parameters.overdraftLimit).toBe(88.5);
    expect(electric(elec.address).writes).toBe(1);
    const cmd = await h.q1<{ status: string; attempts: number; error: string }>('SELECT status, attempts, error FROM commands WHERE id = $1', [r.body.data.id]);
    expect(cmd).toMatchObject({ status: 'succeeded', attempts: 1, error: '' });
    const cfg = await h.q1<{ op: string; params: Record<string, string> }>('SELECT op, params FROM meter_configs WHERE command_id = $1', [r.body.data.id]);
    expect(cfg).toEqual({ op: 'set', params: { overdraftLimit: '88.50' } });
    // the write went out as a logged control frame, with its normal reply
    await h.gateway.flush();
    const down = await h.q1<{ n: number }>(`SELECT count(*)::int AS n FROM device_reports WHERE meter_id = $1 AND direction = 'down' AND decoded->>'label' = '设置透支金额限值'`, [elec.id]);
    expect(down.n).toBe(1);
  });

  it('参数设置 (device/order/config/set) of 报警金额1/2 and the CT ratio succeeds; 参数读取 then answers them', async () => {
    const r = await post('device/order/config/set', { id: elec.id, params: { alarm1Money: 30, alarm2Money: '15.5', ctRatio: 200 } });
    expect(r.body.code).toBe('SUCCESS');
    expect(r.body.data).toMatchObject({ status: 'succeeded', reply: { set: { alarm1Money: '30', alarm2Money: '15.5', ctRatio: '200' } } });
    expect(electric(elec.address).parameters).toMatchObject({ alarm1Money: 30, alarm2Money: 15.5, ctRatio: 200, overdraftLimit: 88.5, ptRatio: 1 });
    const read = await post('device/read/config', { id: elec.id });
    expect(read.body.code).toBe('SUCCESS');
    expect(read.body.data.reply.params).toMatchObject({
      alarm1Money: 30,
      alarm2Money: 15.5,
      overdraftLimit: 88.5,
      hoardLimit: 999999.99,
      closeAllowMoney: 0,
      ctRatio: 200,
      ptRatio: 1,
      meterNumber: elec.address,
      address: elec.address,
      valve: 1,
    });
  });

  it('修改表号 (device/order/update/no) writes 04000402 and reads the new number back', async () => {
    const r = await post('device/order/update/no', { id: elec.id, no: '202611220001' });
    expect(r.body.data).toMatchObject({ status: 'succeeded', reply: { set: { meterNumber: '202611220001' } } });
    expect(electric(elec.address).parameters.meterNumber).toBe('202611220001');
  });

  it('a meter with another password refuses the write (密码错/未授权): the command fails with the Chinese reason, nothing changes', async () => {
    const r = await post('device/order/limit', { id: locked.id, limitPrice: 50 });
    expect(r.body.code).toBe('COMMAND_FAILED');
    expect(r.body.message).toContain('透支限额下发失败');
    expect(r.body.message).toContain('设备拒绝执行（密码错误或未授权）');
    const cmd = await h.q1<{ status: string; attempts: number; error: string }>(
      `SELECT status, attempts, error FROM commands WHERE meter_id = $1 AND kind = 'limit' ORDER BY id DESC LIMIT 1`,
      [locked.id],
    );
    expect(cmd).toEqual({ status: 'failed', attempts: 1, error: '设备拒绝执行（密码错误或未授权）' });
    const m = electric(locked.address);
    expect(m.parameters.overdraftLimit).toBe(0);
    expect(m.writes).toBe(0);
    expect(m.counters.refused).toBe(1);
    // the same password guards remote control
    const close = await post('device/order/open', { id: locked.id, open: false, memo: '密码测试' });
    expect(close.body.code).toBe('COMMAND_FAILED');
    expect(close.body.message).toContain('密码错误或未授权');
    expect(m.supplyOn).toBe(true);
  });
});

describe('倍率异常 (rate_error): the CT ratio read back against the one the platform set', () => {
  const warning = () => h.q1<{ n: number; detail: Record<string, number> | null }>(
    `SELECT count(*)::int AS n, max(detail::text)::jsonb AS detail FROM device_warnings WHERE meter_id = $1 AND kind = 'rate_error' AND status = 0`, [elec.id]);
  const order = () => h.q1<{ status: number } | undefined>(`SELECT status FROM appeals WHERE kind = 3 AND meter_id = $1 AND exception_kind = 'rate_error' ORDER BY id DESC LIMIT 1`, [elec.id]);

  it('a meter answering another ratio (the simulator\'s rateError fault) opens one warning and one 设备工单; the right ratio again closes both', async () => {
    // the platform set 200 above; the meter now answers 50
    fleet.setFault(elec.address, 'rateError', 50);
    expect((await post('device/read/config', { id: elec.id })).body.data.reply.params.ctRatio).toBe(50);
    // an on-demand full reading checks it too: still one warning
    const full = await post('device/order/read', { ids: [elec.id], full: true });
    expect(full.body.data.commands[0]).toMatchObject({ status: 'succeeded' });
    expect(await warning()).toEqual({ n: 1, detail: expect.objectContaining({ expected: 200, actual: 50 }) });
    expect(await order()).toMatchObject({ status: 0 });
    // a plain reading (no ratio read) decides nothing
    await post('device/order/read', { ids: [elec.id] });
    expect((await warning()).n).toBe(1);

    fleet.setFault(elec.address, 'rateError', 0);
    await post('device/order/read', { ids: [elec.id], full: true });
    expect((await warning()).n).toBe(0);
    expect(await order()).toMatchObject({ status: 2 });
  });

  it('a meter the platform never set a ratio on is expected to answer 1', async () => {
    fleet.setFault(locked.address, 'rateError', 30);
    await post('device/order/read', { ids: [locked.id], full: true });
    const w = await h.q1<{ detail: Record<string, number> }>(`SELECT detail FROM device_warnings WHERE meter_id = $1 AND kind = 'rate_error' AND status = 0`, [locked.id]);
    expect(w.detail).toMatchObject({ expected: 1, actual: 30 });
    fleet.setFault(locked.address, 'rateError', 0);
  });
});

describe('CJ/T 188 parameters reach the simulated water meter', () => {
  it('写结算日 (settleDay) and 写标准时间 (syncTime) through device/order/config/set succeed and take effect', async () => {
    const w = fleet.meter(water.address) as WaterMeter;
    w.setFault('clockDrift', -600);
    const r = await post('device/order/config/set', { id: water.id, params: { settleDay: 15, syncTime: 1 } });
    expect(r.body.code).toBe('SUCCESS');
    expect(r.body.data).toMatchObject({ status: 'succeeded', reply: { set: { settleDay: '15', syncTime: '1' } } });
    expect(w.settleDay).toBe(15);
    expect(w.writes).toBe(2);
    expect(Math.abs(w.meterTime() - Date.now())).toBeLessThan(5_000);
  });
});

describe('the answers no other test reads match their declarations (endpoints/control.ts; checked under tests)', () => {
  const get = (url: string) => h.call(c.token, { method: 'GET', url: `${V1}/${url}` });

  it('校时, 指令详情, LoRa/NB 参数 and the LoRa list', async () => {
    const sync = await post('device/order/time/sync', { id: elec.id });
    expect(sync.body.code, JSON.stringify(sync.body)).toBe('SUCCESS');
    expect(sync.body.data).toMatchObject({ kind: 'time_sync', status: 'succeeded' });
    const one = await get(`device/order?id=${sync.body.data.id}`);
    expect(one.body.data).toMatchObject({ id: sync.body.data.id, address: elec.address, kind: 'time_sync' });
    const read = await h.call(c.token, { method: 'POST', url: `${V1}/device/order/lora/config/read?id=${elec.id}` });
    expect(read.body.data).toMatchObject({ kind: 'config_read', status: 'succeeded' });
    // a meter of another plan is refused on the LoRa and NB pages
    for (const ch of ['lora', 'nb']) {
      const set = await post(`device/order/${ch}/config/set`, { id: elec.id, params: { alarm1Money: 20 } });
      expect(set.body.code).toBe('WRONG_PLAN');
    }
    const lora = await post('device/order/lora/list', { index: 1, size: 10 });
    expect(lora.body).toMatchObject({ code: 'SUCCESS', data: [], count: 0 });
  });

  it('设备上报日志 and 功率记录', async () => {
    await h.gateway.flush();
    const reports = await get(`device/report/list?index=1&size=5&meterId=${elec.id}`);
    expect(reports.body.code).toBe('SUCCESS');
    expect(reports.body.data.length).toBeGreaterThan(0);
    expect(reports.body.data[0]).toMatchObject({ meterId: elec.id, address: elec.address });
    const power = await get(`device/power/report?index=1&size=5&meterId=${elec.id}`);
    expect(power.body.code, JSON.stringify(power.body)).toBe('SUCCESS');
    expect(Array.isArray(power.body.data)).toBe(true);
  });
});
