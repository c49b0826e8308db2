import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Fleet } from '@meter/simulator';
import { hashPassword } from '../auth/crypto.ts';
import { harness, imei15, until, type Harness, type TestCompany } from './harness.test-util.ts';

// 批量拉闸/关阀 as one task (issue 16 item 8): one request with the valve password queues every close
// the rules allow as a task; the worker carries them out with a read-back and the task counts them
// (its progress on /task and /longRange); refused meters are answered, not queued; a second bulk close
// sends nothing to a meter already off (the read-back comes first), so no meter is switched twice.

const V1 = '/device/api/v1';
let h: Harness;
let c: TestCompany;
let fleet: Fleet;
const meters: { id: number; address: string; kind: 1 | 2 }[] = [];
let protectedMeter: { id: number; address: string };

const post = (url: string, payload: unknown) => h.call(c.token, { method: 'POST', url: `${V1}/${url}`, payload: payload as object });
const get = (url: string) => h.call(c.token, { method: 'GET', url: `${V1}/${url}` });
const task = async (id: number) => (await get(`device/read/task/list?id=${id}&index=1&size=1`)).body.data[0];
const closes = async (ids: number[]) =>
  (await h.owner.query(`SELECT meter_id, count(*)::int AS n FROM commands WHERE kind = 'close' AND meter_id = ANY($1::bigint[]) GROUP BY meter_id`, [ids])).rows;

beforeAll(async () => {
  h = await harness();
  c = await h.company();
  const imeis = [imei15(), imei15()];
  const defs = [];
  for (const imei of imeis) {
    const collectorId = await h.collector(c.companyId, imei);
    const list = [];
    for (const kind of [1, 1, 2] as const) {
      const m = await h.meter(c, { kind, collectorId });
      meters.push({ ...m, kind });
      list.push({ address: m.address, kind: kind === 1 ? ('electric' as const) : ('water' as const), initialTotal: 100 });
    }
    defs.push({ imei, meters: list });
  }
  // one single-phase meter (the valve password is asked), one protected meter (refused without a reason)
  await h.owner.query('UPDATE meters SET phase_id = 1 WHERE id = $1', [meters[0].id]);
  await h.owner.query('UPDATE companies SET valve_control_pwd = $2 WHERE id = $1', [c.companyId, await hashPassword('654321')]);
  protectedMeter = meters[4];
  await h.owner.query(`INSERT INTO protections (company_id, meter_id, kind, reason) VALUES ($1, $2, 1, '医疗设备')`, [c.companyId, protectedMeter.id]);
  fleet = await h.fleet(defs);
});

afterAll(async () => {
  await h?.close();
});

describe('bulk close (device/order/close/bulk)', () => {
  it('asks the valve password once for the selection: without it nothing is queued', async () => {
    const r = await post('device/order/close/bulk', { ids: meters.map((m) => m.id), memo: '批量' });
    expect(r.body.code).toBe('VALVE_PWD_REQUIRED');
    expect(await closes(meters.map((m) => m.id))).toEqual([]);
  });

  it('queues every allowed close as a task, refuses the protected meter, and closes each meter once with a read-back', async () => {
    const r = await post('device/order/close/bulk', { ids: meters.map((m) => m.id), memo: '批量拉闸', password: '654321' });
    expect(r.body.code).toBe('SUCCESS');
    expect(r.body.data).toMatchObject({ queued: 5, joined: 0 });
    expect(r.body.data.refused).toEqual([expect.objectContaining({ meterId: protectedMeter.id, code: 'METER_PROTECTED', overridable: true })]);
    const taskId = r.body.data.taskId as number;
    const done = await until(async () => {
      const t = await task(taskId);
      return t?.status === 'done' ? t : undefined;
    }, 30_000, 'bulk close task done');
    expect(done).toMatchObject({ origin: 3, originText: '批量拉闸/关阀', total: 5, succeeded: 5, failed: 0, pending: 0, statusText: '已完成' });
    const others = meters.filter((m) => m.id !== protectedMeter.id);
    for (const m of others) {
      const sim = fleet.meter(m.address)!;
      expect(sim.supplyOn).toBe(false);
      expect(sim.counters.actuationCommands).toBe(1);
    }
    expect(fleet.meter(protectedMeter.address)!.supplyOn).toBe(true);
    const statuses = await h.owner.query(`SELECT status, read_task_id FROM commands WHERE kind = 'close' AND meter_id = ANY($1::bigint[])`, [others.map((m) => m.id)]);
    expect(statuses.rows.every((x) => x.status === 'succeeded' && Number(x.read_task_id) === taskId)).toBe(true);
  });

  it('forced with a reason, the refused meter is closed; meters already off are read back and sent nothing again', async () => {
    const r = await post('device/order/close/bulk', { ids: meters.map((m) => m.id), memo: '强制', overrideReason: '业主申请检修', password: '654321' });
    expect(r.body.data).toMatchObject({ queued: 6, refused: [] });
    await until(async () => ((await task(r.body.data.taskId))?.status === 'done' ? true : undefined), 30_000, 'forced task done');
    for (const m of meters) {
      const sim = fleet.meter(m.address)!;
      expect(sim.supplyOn).toBe(false);
      // one actuating frame each, over both tasks
      expect(sim.counters.actuationCommands).toBe(1);
    }
    const t = await task(r.body.data.taskId);
    expect(t).toMatchObject({ total: 6, succeeded: 6, failed: 0 });
  });

  it('the task list shows bulk closes with their origin filter', async () => {
    const r = await get('device/read/task/list?origin=3&index=1&size=10');
    expect(r.body.count).toBe(2);
    expect(r.body.data.every((t: { originText: string }) => t.originText === '批量拉闸/关阀')).toBe(true);
  });
});
