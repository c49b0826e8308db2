import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { logProvider, sendQueued } from '../notify/index.ts';
import { addReadings, billingCompany, FINANCE_ROUTES, makeMeter, type BillingCompany } from './fixtures.ts';
import { settleMeters } from './settlement.ts';

// 群发短信 (/systemSend): owners chosen by arrears or meter kind; the preview counts those with a mobile
// number and prices them at the company's SMS price; the send needs the previewed count (the list
// changed: refused), queues one message each with the variables filled in, and the progress follows
// the worker's sending to the end.

let t: TestApp;
let c: BillingCompany;

beforeAll(async () => {
  t = await testApp();
  c = await billingCompany(t, { rooms: 3, routes: [...FINANCE_ROUTES, 'systemSend'] });
  await t.owner.query(`UPDATE companies SET sms_price_fen = 6 WHERE id = $1`, [c.companyId]);
  await t.owner.query(`UPDATE owners SET phone = '13900000001' WHERE id = $1`, [c.owners[1]]);
  await t.owner.query(`UPDATE owners SET phone = '' WHERE id = $1`, [c.owners[2]]);
  // room 1: an electric meter in arrears (−17.00); room 2: a water meter
  const m = await makeMeter(t.owner, { companyId: c.companyId, roomId: c.rooms[0], schemeId: c.schemes.flat });
  await makeMeter(t.owner, { companyId: c.companyId, roomId: c.rooms[1], kind: 2, schemeId: c.schemes.water });
  await addReadings(t, c.companyId, m, [{ at: new Date(Date.now() - 3600_000), total: '25' }]);
  await t.db.tx(SYSTEM_SCOPE, (tx) => settleMeters(tx, [m], { skipLocked: false }));
});
afterAll(() => t.close());

const post = (url: string, payload: Record<string, unknown>) => t.call(c.token, { method: 'POST', url, payload });
const content = '【{company}】{owner}您好，{room}明日停水检修。';

describe('群发短信', () => {
  it('previews by arrears and meter kind, with count, cost and the messages as they read', async () => {
    const all = await post('/sms/bulk/preview', { content });
    expect(all.status, JSON.stringify(all.body)).toBe(200);
    expect(all.body.data).toMatchObject({ owners: 3, count: 2, priceFen: 6, costFen: 12 });
    expect(all.body.data.sample[0].content).toMatch(/^【测试单位.*】业主1您好，101明日停水检修。$/);
    expect((await post('/sms/bulk/preview', { content, arrearsOnly: true })).body.data).toMatchObject({ owners: 1, count: 1 });
    expect((await post('/sms/bulk/preview', { content, meterKind: 2 })).body.data.sample.map((s: { roomName: string }) => s.roomName)).toEqual(['102']);
    expect((await post('/sms/bulk/preview', { content, areaId: c.floorId })).body.data.count).toBe(2);
    const bad = await post('/sms/bulk/preview', { content: '{balance}' });
    expect(bad.status).toBe(400);
  });

  it('sends after confirmation of the previewed count and reports progress to the end', async () => {
    const changed = await post('/sms/bulk/send', { content, expectCount: 3 });
    expect(changed.body.code).toBe('BULK_CHANGED');
    expect(changed.body.message).toContain('请重新预览');
    const sent = await post('/sms/bulk/send', { content, expectCount: 2 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    const batch = sent.body.data.batch as string;
    expect(sent.body.data).toMatchObject({ total: 2, queued: 2, sent: 0, done: false });
    await sendQueued(t.db, logProvider(() => {}), 500);
    const p = await t.call(c.token, { method: 'GET', url: `/sms/bulk/progress?batch=${batch}` });
    expect(p.body.data).toMatchObject({ total: 2, queued: 0, sent: 2, failed: 0, costFen: 12, done: true });
    const rows = (await t.owner.query(`SELECT level, phone, content FROM notifications WHERE idempotency_key LIKE $1 ORDER BY id`, [`bulk:${batch}:%`])).rows;
    expect(rows.map((r) => r.phone)).toEqual(['13800000000', '13900000001']);
    expect(rows.every((r) => r.level === 6)).toBe(true);
  });
});
