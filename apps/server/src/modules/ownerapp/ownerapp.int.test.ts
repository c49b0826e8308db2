import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { addReadings, billingCompany, makeMeter, type BillingCompany } from '../billing/fixtures.ts';
import { sweep } from '../billing/index.ts';
import { freshKeys } from '../payment/emulator/keys.ts';
import type { Emulator } from '../payment/emulator/server.ts';
import { emulatedGateways, emulatorInto } from '../payment/emulated.test-util.ts';
import type { Payments } from '../payment/index.ts';
import { hashPassword } from '../auth/index.ts';
import { EventBus } from '../realtime/index.ts';

// 业主端 (issue 15 item 8): the owner's own sign-in (SMS code through the outbox: hashed, expiring,
// limited; room + password), the owner token kind (owner endpoints only; back-office tokens none of
// them), tenancy between owners, and a top-up through the WeChat Pay emulator that credits and reopens
// the supply as a counter payment does.

const O = '/yewu/api/OwnerApp';
const keys = freshKeys();
let em: Emulator;
let t: TestApp;
let a: BillingCompany;
let b: BillingCompany;
let seq = 0;
const bus = new EventBus();
const phone = () => `139${String(process.pid % 10000).padStart(4, '0')}${String(seq++).padStart(4, '0')}`;
const q = async (text: string, params: unknown[] = []) => (await t.owner.query(text, params)).rows;
const post = (token: string | null, url: string, payload: unknown) => t.call(token, { method: 'POST', url, payload: payload as Record<string, unknown> });
const get = (token: string | null, url: string) => t.call(token, { method: 'GET', url });
const ok = (r: { status: number; body: any }) => {
  expect(r.body?.code, JSON.stringify(r.body)).toBe('SUCCESS');
  return r.body.data;
};
/** the code the SMS carried (the outbox row: what the sender hands to the provider) */
const smsCode = async (p: string) => {
  const [n] = await q(`SELECT content FROM notifications WHERE phone = $1 AND level = 8 ORDER BY id DESC LIMIT 1`, [p]);
  return /验证码为 (\d{6})/.exec(n.content)![1];
};
const phoneLogin = async (p: string) => {
  ok(await post(null, `${O}/Login/Code`, { phone: p }));
  return ok(await post(null, `${O}/Login/Phone`, { phone: p, code: await smsCode(p) })).token as string;
};

beforeAll(async () => {
  em = await emulatorInto(keys, () => t);
  const payments: Payments = { ttlMs: 3600_000, gateways: emulatedGateways(keys, em) };
  t = await testApp({ idleMinutes: 30, maxHours: 12, loginPerIp: 1000, loginPerAccount: 1000 }, { payments, bus });
  a = await billingCompany(t, { rooms: 3 });
  b = await billingCompany(t, { rooms: 1 });
});
afterAll(async () => {
  await t?.close();
  await em?.close();
});

describe('owner sign-in', () => {
  it('phone + SMS code: queued through the outbox, only its hash kept; cooldown, wrong, spent and expired codes refused in Chinese', async () => {
    const p = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [a.owners[0], p]);
    const sent = ok(await post(null, `${O}/Login/Code`, { phone: p }));
    expect(sent).toEqual({ expiresIn: 300, cooldown: 60 });
    const code = await smsCode(p);
    const [row] = await q(`SELECT code_hash, expires_at - created_at AS ttl FROM owner_login_codes WHERE phone = $1`, [p]);
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);
    expect((await q(`SELECT status, company_id FROM notifications WHERE phone = $1 AND level = 8`, [p]))[0]).toMatchObject({ status: 'queued', company_id: a.companyId });

    const again = await post(null, `${O}/Login/Code`, { phone: p });
    expect(again.body.code).toBe('OWNER_CODE_TOO_SOON');
    expect(again.body.message).toMatch(/^验证码已发送，请 \d+ 秒后再试$/);
    expect((await post(null, `${O}/Login/Code`, { phone: phone() })).body.code).toBe('OWNER_PHONE_UNKNOWN');
    const bad = await post(null, `${O}/Login/Code`, { phone: '2380013800' });
    expect(bad.status).toBe(400);

    const wrong = code === '000000' ? '000001' : '000000';
    const w = await post(null, `${O}/Login/Phone`, { phone: p, code: wrong });
    expect(w.body).toMatchObject({ code: 'OWNER_CODE_WRONG', message: '验证码错误，请重新输入' });
    const s = ok(await post(null, `${O}/Login/Phone`, { phone: p, code }));
    expect(s.owner).toMatchObject({ id: a.owners[0], phone: p });
    expect(s.companyId).toBe(a.companyId);
    // used once
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code })).body.code).toBe('OWNER_CODE_EXPIRED');

    // five wrong tries spend a code; an expired code is refused
    await q(`UPDATE owner_login_codes SET created_at = created_at - interval '2 minutes' WHERE phone = $1`, [p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    const c2 = await smsCode(p);
    const wrong2 = c2 === '000000' ? '000001' : '000000';
    for (let i = 0; i < 4; i++) expect((await post(null, `${O}/Login/Phone`, { phone: p, code: wrong2 })).body.code).toBe('OWNER_CODE_WRONG');
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code: wrong2 })).body.message).toBe('验证码错误次数过多，请重新获取');
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code: c2 })).body.code).toBe('OWNER_CODE_EXPIRED');
    await q(`UPDATE owner_login_codes SET created_at = created_at - interval '2 minutes' WHERE phone = $1`, [p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    const c3 = await smsCode(p);
    await q(`UPDATE owner_login_codes SET expires_at = now() - interval '1 second' WHERE phone = $1`, [p]);
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code: c3 })).body).toMatchObject({ code: 'OWNER_CODE_EXPIRED', message: '验证码已失效，请重新获取' });
    // five codes an hour per phone
    await q(`UPDATE owner_login_codes SET created_at = created_at - interval '2 minutes' WHERE phone = $1`, [p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    await q(`UPDATE owner_login_codes SET created_at = created_at - interval '2 minutes' WHERE phone = $1`, [p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    await q(`UPDATE owner_login_codes SET created_at = created_at - interval '2 minutes' WHERE phone = $1`, [p]);
    expect((await post(null, `${O}/Login/Code`, { phone: p })).body).toMatchObject({ code: 'OWNER_CODE_LIMIT', message: '该手机号获取验证码次数过多，请 1 小时后再试' });
  });

  it('room + password (the owner-portal password staff reset); one answer for every failure', async () => {
    // as userinfo/resetPwd stores it: the argon2 hash only
    await q(`UPDATE owners SET password_hash = $2 WHERE id = $1`, [a.owners[1], await hashPassword('Room-102-pass')]);
    const s = ok(await post(null, `${O}/Login/Room`, { roomId: a.rooms[1], password: 'Room-102-pass' }));
    expect(s.owner.id).toBe(a.owners[1]);
    const me = ok(await get(s.token, `${O}/Me`));
    expect(me.rooms.map((r: { roomId: number }) => r.roomId)).toEqual([a.rooms[1]]);
    const wrong = await post(null, `${O}/Login/Room`, { roomId: a.rooms[1], password: 'not-it' });
    const none = await post(null, `${O}/Login/Room`, { roomId: a.rooms[2], password: 'not-it' });
    expect(wrong.body).toEqual(none.body);
    expect(wrong.body.code).toBe('OWNER_LOGIN_FAILED');
    // logout ends the session
    ok(await post(s.token, `${O}/Logout`, {}));
    expect((await get(s.token, `${O}/Me`)).status).toBe(401);
  });
});

describe('owner tenancy', () => {
  it('an owner sees and pays only their own rooms; owner and back-office tokens do not cross', async () => {
    const p = phone();
    // one phone, two rooms of company A: both are this owner's; room 3 (another phone) is not
    await q(`UPDATE owners SET phone = $2 WHERE id = ANY($1)`, [[a.owners[0], a.owners[1]], p]);
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [a.owners[2], phone()]);
    const token = await phoneLogin(p);
    const me = ok(await get(token, `${O}/Me`));
    expect(me.rooms.map((r: { roomId: number }) => r.roomId).sort()).toEqual([a.rooms[0], a.rooms[1]].sort());

    for (const other of [a.rooms[2], b.rooms[0]]) {
      expect((await get(token, `${O}/Usage?roomId=${other}`)).status).toBe(404);
      expect((await get(token, `${O}/Journal?roomId=${other}`)).status).toBe(404);
      expect((await get(token, `${O}/Bills?roomId=${other}`)).status).toBe(404);
      expect((await get(token, `${O}/Upload/Token?roomId=${other}`)).status).toBe(404);
      expect((await post(token, `${O}/Pay`, { roomId: other, wallet: 'electric', amount: '10', channel: 'wechat' })).status).toBe(404);
    }
    expect(await q(`SELECT 1 FROM payments WHERE room_id = ANY($1)`, [[a.rooms[2], b.rooms[0]]])).toHaveLength(0);
    // an order of B's owner is not found for A's
    const bPhone = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [b.owners[0], bPhone]);
    const bToken = await phoneLogin(bPhone);
    const bOrder = ok(await post(bToken, `${O}/Pay`, { roomId: b.rooms[0], wallet: 'electric', amount: '1', channel: 'wechat' }));
    expect((await get(token, `${O}/Pay/Order?outTradeNo=${bOrder.outTradeNo}`)).status).toBe(404);
    expect((await post(token, `${O}/Pay/SimulatePaid`, { outTradeNo: bOrder.outTradeNo })).status).toBe(404);
    expect(ok(await get(bToken, `${O}/Pay/Order?outTradeNo=${bOrder.outTradeNo}`)).status).toBe('created');

    // owner tokens on back-office endpoints, and back-office tokens on owner endpoints: 401
    for (const url of ['/yewu/api/RoomInfo/GetEnergyRoom?index=1&size=10', '/yonghu/api/admin/user/token', '/yewu/api/Upload/Token?kind=Private']) {
      expect((await get(token, url)).status, url).toBe(401);
    }
    expect((await post(token, '/yewu/api/Energy/Prepay', { roomId: a.rooms[0], wallet: 'electric', amount: '1' })).status).toBe(401);
    expect((await get(a.token, `${O}/Me`)).status).toBe(401);
    expect((await get(a.token, '/yewu/api/OwnerNotice/List')).status).toBe(401);
    expect((await post(a.token, `${O}/Pay`, { roomId: a.rooms[0], wallet: 'electric', amount: '1', channel: 'wechat' })).status).toBe(401);
    expect((await get(null, `${O}/Me`)).status).toBe(401);
  });
});

describe('top-up through the WeChat Pay emulator', () => {
  it('the owner pays on the payer page: credited once, the account leaves arrears and the supply is reopened', async () => {
    const room = a.rooms[2];
    const p = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [a.owners[2], p]);
    const m = await makeMeter(t.owner, { companyId: a.companyId, roomId: room, schemeId: a.schemes.flat, alarmSchemeId: a.alarm });
    const now = Date.now();
    await addReadings(t, a.companyId, m, [{ at: new Date(now - 2 * 3600_000), total: '0' }, { at: new Date(now - 3600_000), total: '100' }]);
    await sweep(t.db);
    // 100 kWh × 0.68 = ¥68 of arrears: closed (the read-back said 断)
    expect((await q(`SELECT alarm_level, balance_fen FROM accounts WHERE owner_id = $1 AND wallet = 'electric'`, [a.owners[2]]))[0])
      .toMatchObject({ alarm_level: 3, balance_fen: -6800 });
    await q(`UPDATE commands SET status = 'succeeded' WHERE meter_id = $1 AND status IN ('queued', 'sent')`, [m]);
    await q(`UPDATE meters SET valve_state = 0 WHERE id = $1`, [m]);

    const token = await phoneLogin(p);
    const before = ok(await get(token, `${O}/Me`)).rooms[0];
    expect(before.accounts.find((x: { wallet: string }) => x.wallet === 'electric')).toMatchObject({ balance: '-68.00', alarmLevel: 3, supply: 'off' });
    expect(before.meters).toEqual([expect.objectContaining({ id: m, valveState: 0 })]);

    const o = ok(await post(token, `${O}/Pay`, { roomId: room, wallet: 'electric', amount: '100', channel: 'wechat' }));
    expect(o).toMatchObject({ emulated: true, simulated: false, status: 'created', amount: '100.00' });
    // the H5 flow: the owner's browser opens the code URL, the emulator's payer page, and confirms
    const page = await (await fetch(o.codeUrl)).text();
    const action = /action="([^"]+)"/.exec(page)![1];
    expect(await (await fetch(em.url + action, { method: 'POST' })).text()).toContain('商户已确认到账');
    // a real provider is configured: the owner cannot "simulate" a payment
    expect((await post(token, `${O}/Pay/SimulatePaid`, { outTradeNo: o.outTradeNo })).body.code).toBe('NOT_SIMULATED');

    expect(ok(await get(token, `${O}/Pay/Order?outTradeNo=${o.outTradeNo}`))).toMatchObject({ status: 'paid', statusText: '已支付', amount: '100.00' });
    expect(await q(`SELECT 1 FROM journal WHERE idempotency_key = $1`, [`pay:${o.outTradeNo}`])).toHaveLength(1);
    // no counter receipt: nobody at the counter took it
    expect(await q(`SELECT 1 FROM receipts r JOIN payments p ON p.journal_id = r.journal_id WHERE p.out_trade_no = $1`, [o.outTradeNo])).toHaveLength(0);
    expect(await q(`SELECT kind, status FROM commands WHERE meter_id = $1 AND kind = 'open'`, [m])).toEqual([{ kind: 'open', status: 'queued' }]);
    const after = ok(await get(token, `${O}/Me`)).rooms[0];
    expect(after.accounts.find((x: { wallet: string }) => x.wallet === 'electric')).toMatchObject({ balance: '32.00', alarmLevel: 0, supply: null });

    const journal = ok(await get(token, `${O}/Journal?roomId=${room}&size=10`));
    expect(journal[0]).toMatchObject({ kind: 'prepay', kindText: '充值', amount: '100.00', balanceAfter: '32.00', payMethodText: '微信' });
    const usage = ok(await get(token, `${O}/Usage?roomId=${room}&by=month`));
    expect(usage.at(-1)).toMatchObject({ electric: '100.00', electricAmount: '68.00' });
    const bills = ok(await get(token, `${O}/Bills?roomId=${room}`));
    expect(bills[0]).toMatchObject({ electric: '100.00', total: '68.00' });
  });
});

describe('live updates over the websocket', () => {
  it('{auth} with an owner token: the events of their own meters only; logging out closes it', async () => {
    const p = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [a.owners[0], p]);
    const mine = await makeMeter(t.owner, { companyId: a.companyId, roomId: a.rooms[0], schemeId: a.schemes.flat });
    const notMine = await makeMeter(t.owner, { companyId: a.companyId, roomId: a.rooms[1], schemeId: a.schemes.flat });
    const token = await phoneLogin(p);
    const ws = await t.app.injectWS('/ws');
    const messages: { type: string; code?: string; data?: { meterId?: number } }[] = [];
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('message', (m) => messages.push(JSON.parse(String(m))));
    ws.send(JSON.stringify({ auth: token }));
    await expect.poll(() => messages.find((m) => m.type === 'ready')).toMatchObject({ ownerId: a.owners[0], companyId: a.companyId });
    bus.emit({ companyId: a.companyId, kind: 'command', body: { meterId: notMine, status: 'succeeded' } });
    bus.emit({ companyId: b.companyId, kind: 'command', body: { meterId: mine, status: 'succeeded' } });
    bus.emit({ companyId: a.companyId, kind: 'reading', body: { meterId: mine, total: '1.00' } });
    await expect.poll(() => messages.filter((m) => m.type !== 'ready').length).toBe(1);
    expect(messages.at(-1)).toMatchObject({ type: 'reading', data: { meterId: mine } });
    ok(await post(token, `${O}/Logout`, {}));
    expect(await Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 5000))])).toBe(4001);
  });
});
