import { beforeAll, describe, expect, it } from 'vitest';
import { ok } from '../../../test/helpers.ts';
import { addReadings, billingCompany, makeMeter } from '../billing/fixtures.ts';
import { sweep } from '../billing/index.ts';
import { testKeys } from '../../../test/keys.ts';
import { filePaymentHarness } from '../payment/emulated.test-util.ts';
import { hashPassword } from '../auth/index.ts';
import { EventBus } from '../realtime/index.ts';

// 业主端 (issue 15 item 8): the owner's own sign-in (SMS code through the outbox: hashed, expiring,
// limited; room + password), the owner token kind (owner endpoints only; back-office tokens none of
// them), tenancy between owners, and a top-up through the WeChat Pay emulator that credits and reopens
// the supply as a counter payment does.

const O = '/yewu/api/OwnerApp';
const keys = testKeys();
let seq = 0;
const bus = new EventBus();
const { t, em } = await filePaymentHarness(keys, { auth: { idleMinutes: 30, maxHours: 12, loginPerIp: 1000, loginPerAccount: 1000 }, bus });
const a = await billingCompany(t, { rooms: 3 });
const b = await billingCompany(t, { rooms: 1 });
const phone = () => `139${String(process.pid % 10000).padStart(4, '0')}${String(seq++).padStart(4, '0')}`;
const q = async (text: string, params: unknown[] = []) => (await t.owner.query(text, params)).rows;
const post = (token: string | null, url: string, payload: unknown) => t.call(token, { method: 'POST', url, payload: payload as Record<string, unknown> });
const get = (token: string | null, url: string) => t.call(token, { method: 'GET', url });
/** the code the SMS carried (the outbox row: what the sender hands to the provider) */
const smsCode = async (p: string) => {
  const [n] = await q(`SELECT content FROM notifications WHERE phone = $1 AND level = 8 ORDER BY id DESC LIMIT 1`, [p]);
  return /验证码为 (\d{6})/.exec(n.content)![1];
};
const phoneLogin = async (p: string) => {
  ok(await post(null, `${O}/Login/Code`, { phone: p }));
  return ok(await post(null, `${O}/Login/Phone`, { phone: p, code: await smsCode(p) })).token as string;
};


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

describe('a phone registered in two companies', () => {
  it('the owner chooses the company once the code is right; the session sees that company only', async () => {
    const p = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = ANY($1)`, [[a.owners[2], b.owners[0]], p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    const code = await smsCode(p);
    const wrong = code === '000000' ? '000001' : '000000';
    // a wrong code shows no company
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code: wrong })).body).toMatchObject({ code: 'OWNER_CODE_WRONG' });
    const pick = ok(await post(null, `${O}/Login/Phone`, { phone: p, code }));
    expect(pick.token).toBeUndefined();
    const names = await q(`SELECT id, name FROM companies WHERE id = ANY($1)`, [[a.companyId, b.companyId]]);
    const nameOf = (id: number) => names.find((x) => Number(x.id) === id)!.name;
    expect(pick.choose).toEqual([
      { companyId: a.companyId, companyName: nameOf(a.companyId), ownerName: '业主3', rooms: [expect.stringMatching(/\/103$/)] },
      { companyId: b.companyId, companyName: nameOf(b.companyId), ownerName: '业主1', rooms: [expect.stringMatching(/\/101$/)] },
    ]);
    // the code is not spent by the choice list; a company the phone is not registered in is refused
    expect((await q(`SELECT used_at FROM owner_login_codes WHERE phone = $1`, [p]))[0].used_at).toBeNull();
    const other = await q(`SELECT id FROM companies WHERE id <> ALL($1) LIMIT 1`, [[a.companyId, b.companyId]]);
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code, companyId: Number(other[0].id) })).body)
      .toMatchObject({ code: 'OWNER_COMPANY_UNKNOWN', message: '该手机号未在所选物业公司登记，请重新选择' });

    const s = ok(await post(null, `${O}/Login/Phone`, { phone: p, code, companyId: b.companyId }));
    expect(s).toMatchObject({ companyId: b.companyId, owner: { id: b.owners[0] } });
    expect((await post(null, `${O}/Login/Phone`, { phone: p, code, companyId: a.companyId })).body.code).toBe('OWNER_CODE_EXPIRED');
    const me = ok(await get(s.token, `${O}/Me`));
    expect(me.companyName).toBe(nameOf(b.companyId));
    expect(me.rooms.map((r: { roomId: number }) => r.roomId)).toEqual([b.rooms[0]]);
    // strict tenancy: company A's room of the same phone is not this session's
    expect((await get(s.token, `${O}/Usage?roomId=${a.rooms[2]}`)).status).toBe(404);
    expect((await get(s.token, `${O}/Bills?roomId=${a.rooms[2]}`)).status).toBe(404);
    expect((await post(s.token, `${O}/Pay`, { roomId: a.rooms[2], wallet: 'electric', amount: '1', channel: 'wechat' })).status).toBe(404);

    // a new code, company A this time: A's room only
    await q(`UPDATE owner_login_codes SET created_at = created_at - interval '2 minutes' WHERE phone = $1`, [p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    const sa = ok(await post(null, `${O}/Login/Phone`, { phone: p, code: await smsCode(p), companyId: a.companyId }));
    expect(ok(await get(sa.token, `${O}/Me`)).rooms.map((r: { roomId: number }) => r.roomId)).toEqual([a.rooms[2]]);
    expect((await get(sa.token, `${O}/Usage?roomId=${b.rooms[0]}`)).status).toBe(404);
  });
});

describe('owner sessions end with the credentials', () => {
  const U = '/yewu/api/userinfo';
  let staff: string;
  const socket = async (token: string) => {
    const ws = await t.app.injectWS('/ws');
    const seen: { type: string }[] = [];
    const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
    ws.on('message', (m) => seen.push(JSON.parse(String(m))));
    ws.send(JSON.stringify({ auth: token }));
    await expect.poll(() => seen.some((m) => m.type === 'ready')).toBe(true);
    return { closed: () => Promise.race([closed, new Promise((resolve) => setTimeout(() => resolve('open'), 5000))]) };
  };
  const roomLogin = async (password: string) => ok(await post(null, `${O}/Login/Room`, { roomId: a.rooms[1], password })).token as string;

  beforeAll(async () => {
    const { makeRole, makeUser } = await import('../../../test/factories.ts');
    const u = await makeUser(t.owner, { companyId: a.companyId, roleId: await makeRole(t.owner, a.companyId, ['recordsOwner', 'notesMessage'], ['owner.basic']) });
    staff = await t.login(u.username, u.password);
  });

  it('a staff password reset ends every session of the owner (401) and closes its websocket', async () => {
    const first = ok(await post(staff, `${U}/resetPwd`, { id: a.owners[1] })).password as string;
    const token = await roomLogin(first);
    const other = await roomLogin(first);
    const ws = await socket(token);
    expect(ok(await get(token, `${O}/Me`)).rooms).toHaveLength(1);
    const second = ok(await post(staff, `${U}/resetPwd`, { id: a.owners[1] })).password as string;
    expect((await get(token, `${O}/Me`)).status).toBe(401);
    expect((await get(other, `${O}/Me`)).status).toBe(401);
    expect(await ws.closed()).toBe(4001);
    expect((await post(null, `${O}/Login/Room`, { roomId: a.rooms[1], password: first })).body.code).toBe('OWNER_LOGIN_FAILED');
    ok(await get(await roomLogin(second), `${O}/Me`));
  });

  it('the owner changes the password: the old one first, then every session of the owner ends, sockets closed', async () => {
    const pass = ok(await post(staff, `${U}/resetPwd`, { id: a.owners[1] })).password as string;
    const token = await roomLogin(pass);
    const other = await roomLogin(pass);
    const ws = await socket(other);
    const change = (oldPassword: string, newPassword: string) => post(token, `${O}/Password`, { roomId: a.rooms[1], oldPassword, newPassword });
    expect((await change('not-it', 'Owner-new-1')).body).toMatchObject({ code: 'PASSWORD_WRONG', message: '原密码错误' });
    expect((await change(pass, 'short')).status).toBe(400);
    expect((await post(token, `${O}/Password`, { roomId: a.rooms[0], oldPassword: pass, newPassword: 'Owner-new-1' })).status).toBe(404);
    expect(ok(await get(token, `${O}/Me`))).toBeTruthy();
    ok(await change(pass, 'Owner-new-1'));
    expect((await get(token, `${O}/Me`)).status).toBe(401);
    expect((await get(other, `${O}/Me`)).status).toBe(401);
    expect(await ws.closed()).toBe(4001);
    expect((await post(null, `${O}/Login/Room`, { roomId: a.rooms[1], password: pass })).body.code).toBe('OWNER_LOGIN_FAILED');
    ok(await get(await roomLogin('Owner-new-1'), `${O}/Me`));
  });

  it('迁出 ends the sessions for good (moving back in does not revive them); a new phone ends the old phone\'s', async () => {
    await q(`UPDATE owners SET password_hash = $2 WHERE id = $1`, [a.owners[1], await hashPassword('Room-102-pass')]);
    const token = await roomLogin('Room-102-pass');
    const ws = await socket(token);
    ok(await post(staff, `${U}/moveOut`, { id: a.owners[1], memo: '测试迁出' }));
    expect((await get(token, `${O}/Me`)).status).toBe(401);
    expect(await ws.closed()).toBe(4001);
    ok(await post(staff, `${U}/moveIn`, { id: a.owners[1], roomId: a.rooms[1], memo: '测试入住' }));
    expect((await get(token, `${O}/Me`)).status).toBe(401);

    const p = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [a.owners[1], p]);
    const byPhone = await phoneLogin(p);
    const byRoom = await roomLogin('Room-102-pass');
    const [o] = await q(`SELECT name FROM owners WHERE id = $1`, [a.owners[1]]);
    ok(await t.call(staff, { method: 'PUT', url: `${U}/detail`, payload: { id: a.owners[1], name: o.name, phone: phone() } }));
    expect((await get(byPhone, `${O}/Me`)).status).toBe(401);
    ok(await get(byRoom, `${O}/Me`));
  });

  it('销户 ends the sessions (revoked, not only hidden while closed) and closes the sockets', async () => {
    const token = await roomLogin('Room-102-pass');
    const ws = await socket(token);
    ok(await post(a.token, '/yewu/api/AccountCancel/Cancel', { roomId: a.rooms[1], payMethod: 'cash', memo: '测试销户' }));
    expect((await get(token, `${O}/Me`)).status).toBe(401);
    expect(await ws.closed()).toBe(4001);
    expect(await q(`SELECT 1 FROM owner_sessions WHERE owner_id = $1 AND revoked_at IS NULL`, [a.owners[1]])).toHaveLength(0);
  });
});

describe('login codes are hidden from staff', () => {
  it('/notesMessage never shows the digits of a login code (list, filters, the provider\'s answer), while the SMS carries them', async () => {
    const { makeRole, makeUser } = await import('../../../test/factories.ts');
    const u = await makeUser(t.owner, { companyId: b.companyId, roleId: await makeRole(t.owner, b.companyId, ['notesMessage']) });
    const staff = await t.login(u.username, u.password);
    const p = phone();
    await q(`UPDATE owners SET phone = $2 WHERE id = $1`, [b.owners[0], p]);
    ok(await post(null, `${O}/Login/Code`, { phone: p }));
    const code = await smsCode(p);
    // sent: the provider's answer echoes the text (阿里云 QuerySendDetails does), the receipt too
    const [n] = await q(`SELECT id, content FROM notifications WHERE phone = $1 AND level = 8`, [p]);
    expect(n.content).toContain(code);
    await q(`UPDATE notifications SET status = 'sent', provider = 'aliyun', sent_at = now(), answer = $2, receipt = 'delivered', receipt_text = $3 WHERE id = $1`,
      [n.id, JSON.stringify({ Content: n.content, OutId: `owner-code:x`, SendStatus: 3 }), `DELIVERED 验证码 ${code}`]);
    for (const url of ['/sms/log/list?index=1&size=50', `/sms/log/list?index=1&size=50&level=8&phone=${p}`, `/sms/log/list?index=1&size=50&phone=${p.slice(-4)}`]) {
      const r = await get(staff, url);
      expect(r.status, url).toBe(200);
      const row = (r.body.data as { id: number; content: string; answer: string; receiptText: string }[]).find((x) => Number(x.id) === Number(n.id))!;
      expect(row, url).toBeTruthy();
      expect(JSON.stringify(r.body), url).not.toContain(code);
      expect(row.content).toContain('【验证码已隐藏】');
      expect(row.content).toMatch(/^【.+】您的业主端登录验证码为 【验证码已隐藏】，5 分钟内有效/);
      expect(row.answer).toContain('【验证码已隐藏】');
      expect(row.receiptText).toBe('DELIVERED 验证码 【验证码已隐藏】');
    }
    // the message itself still goes out with the code (the outbox row the sender hands over)
    expect((await q(`SELECT content FROM notifications WHERE id = $1`, [n.id]))[0].content).toContain(code);
  });
});
