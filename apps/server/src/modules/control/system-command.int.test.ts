import { describe, expect, it } from 'vitest';
import { fileApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { billingCompany, insertAlarmScheme, makeMeter, type BillingCompany } from '../billing/fixtures.ts';
import { ORIGIN } from './rules.ts';
import { requestSystemCommand, type SystemCommandRequest } from './service.ts';

// The control module's system-side request (billing's automatic valve, account closing, jobs): the
// rules of a person's command — one pending command per meter and kind, an opposite queued command
// superseded, no close of a protected meter or inside no-disconnect hours — without the override.

const t = await fileApp();
const c: BillingCompany = await billingCompany(t, { rooms: 1 });

const ask = (r: Omit<SystemCommandRequest, 'origin' | 'memo'> & Partial<SystemCommandRequest>) =>
  t.db.tx(SYSTEM_SCOPE, (tx) => requestSystemCommand(tx, { origin: ORIGIN.automatic, memo: '测试', ...r }));
const commands = async (meterId: number) =>
  (await t.owner.query(`SELECT id, kind, status, origin, requester_name, override_reason FROM commands WHERE meter_id = $1 ORDER BY id`, [meterId])).rows;
const meter = () => makeMeter(t.owner, { companyId: c.companyId, roomId: c.rooms[0], schemeId: c.schemes.flat, alarmSchemeId: c.alarm });

describe('requestSystemCommand', () => {
  it('queues a command as the system; a second request while it is pending joins it', async () => {
    const m = await meter();
    const a = await ask({ meterId: m, kind: 'close' });
    expect(a).toMatchObject({ meterId: m, created: true });
    const b = await ask({ meterId: m, kind: 'close' });
    expect(b).toEqual({ meterId: m, commandId: a.commandId, created: false });
    const rows = await commands(m);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'close', status: 'queued', origin: ORIGIN.automatic, requester_name: '系统', override_reason: '' });
  });

  it('an opposite queued valve command is superseded', async () => {
    const m = await meter();
    await ask({ meterId: m, kind: 'close' });
    const open = await ask({ meterId: m, kind: 'open' });
    expect(open.created).toBe(true);
    expect((await commands(m)).map((x) => [x.kind, x.status])).toEqual([['close', 'expired'], ['open', 'queued']]);
  });

  it('never forces a close: a protected meter is skipped, and an open still goes through', async () => {
    const m = await meter();
    await t.owner.query(`INSERT INTO protections (company_id, meter_id, kind, reason) VALUES ($1, $2, 1, '保电测试')`, [c.companyId, m]);
    expect(await ask({ meterId: m, kind: 'close' })).toEqual({ meterId: m, commandId: null, created: false, skipped: '保电中' });
    // the same for a person's action carried out by the system (account closing)
    expect((await ask({ meterId: m, kind: 'close', origin: ORIGIN.manual, requestedBy: c.userId, requesterName: '张三' })).skipped).toBe('保电中');
    expect((await ask({ meterId: m, kind: 'open' })).created).toBe(true);
    expect((await commands(m)).map((x) => x.kind)).toEqual(['open']);
  });

  it('inside the no-disconnect hours a close is skipped with the reason', async () => {
    const allDay = await insertAlarmScheme(t.owner, c.companyId, { noCloseStart: '00:00', noCloseEnd: '00:00' });
    const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: c.rooms[0], schemeId: c.schemes.flat, alarmSchemeId: allDay });
    const r = await ask({ meterId: m, kind: 'close' });
    expect(r.created).toBe(false);
    expect(r.commandId).toBeNull();
    expect(r.skipped).toBeTruthy();
    expect(await commands(m)).toEqual([]);
  });

  it('a meter out of use is skipped; a rolled-back caller queues nothing', async () => {
    const m = await meter();
    await t.owner.query('UPDATE meters SET status = 0 WHERE id = $1', [m]);
    expect((await ask({ meterId: m, kind: 'open' })).skipped).toBe('表具已停用');
    await t.owner.query('UPDATE meters SET status = 1 WHERE id = $1', [m]);
    await expect(
      t.db.tx(SYSTEM_SCOPE, async (tx) => {
        await requestSystemCommand(tx, { meterId: m, kind: 'close', origin: ORIGIN.automatic, memo: '回滚' });
        throw new Error('rollback');
      }),
    ).rejects.toThrow('rollback');
    expect(await commands(m)).toEqual([]);
  });
});
