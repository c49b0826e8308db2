import { randomInt, timingSafeEqual } from 'node:crypto';
import { OWNER_CODE_COOLDOWN_SECONDS, OWNER_CODE_TTL_SECONDS } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db, type Tx } from '../../db/client.ts';
import type { OwnerCtx, OwnerPrincipal, PublicCtx } from '../../http/context.ts';
import { AppError, notFound, refuse, unauthorized } from '../../http/errors.ts';
import { dummyVerify, hashPassword, hashToken, newToken, verifyPassword } from '../auth/index.ts';
import { endOwnerSessions, setOwnerPassword } from '../owner/index.ts';
import { LOGIN_CODE_LEVEL, queueNotification } from '../notify/index.ts';
import * as repo from './repo.ts';

// 业主端 sign-in: phone + SMS code (through the notify outbox: only the code's hash is kept, it
// expires, a few tries each, sending limited per phone and per address) or room + owner-portal
// password; either opens an owner session — a token kind of its own (owner_sessions) that answers
// only the owner endpoints, as back-office tokens answer none of them.

/** idle and absolute lifetime of an owner session (a phone stays signed in for days) */
export const OWNER_IDLE_MINUTES = 7 * 24 * 60;
export const OWNER_MAX_DAYS = 30;
/** codes a phone may be sent per hour, and an address per hour; tries per code */
export const CODES_PER_PHONE_HOUR = 5;
export const CODES_PER_IP_HOUR = 20;
export const TRIES_PER_CODE = 5;

const codeHash = (phone: string, code: string) => hashToken(`owner-login:${phone}:${code}`);
const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export async function sendCode(ctx: PublicCtx, phone: string) {
  ctx.audit.target = `业主手机号 ${phone.slice(0, 3)}****${phone.slice(-4)}`;
  return ctx.db.tx(SYSTEM_SCOPE, async (tx) => {
    const owners = await repo.ownersByPhone(tx, phone);
    if (!owners.length) throw refuse('OWNER_PHONE_UNKNOWN', '该手机号未登记为业主，请联系物业登记后再试，或使用房间编号和密码登录');
    const hourAgo = new Date(Date.now() - 3600_000);
    const sent = await repo.codesSince(tx, phone, ctx.ip, hourAgo);
    if (sent.last && Date.now() - sent.last.getTime() < OWNER_CODE_COOLDOWN_SECONDS * 1000) {
      const wait = Math.ceil((OWNER_CODE_COOLDOWN_SECONDS * 1000 - (Date.now() - sent.last.getTime())) / 1000);
      throw refuse('OWNER_CODE_TOO_SOON', `验证码已发送，请 ${wait} 秒后再试`);
    }
    if (sent.phone >= CODES_PER_PHONE_HOUR) throw refuse('OWNER_CODE_LIMIT', '该手机号获取验证码次数过多，请 1 小时后再试');
    if (sent.ip >= CODES_PER_IP_HOUR) throw refuse('OWNER_CODE_LIMIT', '获取验证码过于频繁，请稍后再试');
    const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
    const expiresAt = new Date(Date.now() + OWNER_CODE_TTL_SECONDS * 1000);
    const id = await repo.insertCode(tx, { phone, codeHash: codeHash(phone, code), ip: ctx.ip, expiresAt });
    const o = owners[0]!;
    await queueNotification(tx, [{
      companyId: o.companyId, ownerId: o.id, accountId: null, meterId: null, level: LOGIN_CODE_LEVEL, channel: 'sms', phone, priceFen: 0,
      content: `【${o.companyName}】您的业主端登录验证码为 ${code}，${OWNER_CODE_TTL_SECONDS / 60} 分钟内有效。如非本人操作，请忽略本短信。`,
      idempotencyKey: `owner-code:${id}`,
    }]);
    return { expiresIn: OWNER_CODE_TTL_SECONDS, cooldown: OWNER_CODE_COOLDOWN_SECONDS };
  });
}

async function open(ctx: PublicCtx, o: { id: number; companyId: number; name: string; phone: string; companyName: string }, via: 'sms' | 'password') {
  const token = newToken();
  await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.insertSession(tx, {
    tokenHash: hashToken(token), ownerId: o.id, companyId: o.companyId, phone: via === 'sms' ? o.phone : '', via, ip: ctx.ip,
    userAgent: ctx.userAgent.slice(0, 500), expiresAt: new Date(Date.now() + OWNER_MAX_DAYS * 86400_000),
  }));
  Object.assign(ctx.audit, { companyId: o.companyId, username: `业主:${o.name}`.slice(0, 64), action: '业主登录' });
  return { token, owner: { id: o.id, name: o.name, phone: o.phone }, companyId: o.companyId, companyName: o.companyName };
}

/**
 * Phone + code. A phone registered with owners of several companies gets, once the code is right,
 * the list to choose from (company, owner name, rooms) and the code stays unspent until it comes back
 * with the chosen companyId; the session is then that company's only (its rooms with this phone).
 */
export async function loginByPhone(ctx: PublicCtx, b: { phone: string; code: string; companyId?: number }) {
  ctx.audit.target = `业主手机号 ${b.phone.slice(0, 3)}****${b.phone.slice(-4)}`;
  type Owner = Awaited<ReturnType<typeof repo.ownersByPhone>>[number];
  type Outcome = { k: 'none' | 'spent' | 'wrong' | 'unknown' | 'company' } | { k: 'choose'; choose: Awaited<ReturnType<typeof choices>> } | { k: 'ok'; o: Owner };
  const r = await ctx.db.tx(SYSTEM_SCOPE, async (tx): Promise<Outcome> => {
    const c = await repo.liveCode(tx, b.phone);
    if (!c || c.attempts >= TRIES_PER_CODE) return { k: 'none' as const };
    if (!same(c.codeHash, codeHash(b.phone, b.code))) {
      await repo.codeTried(tx, c.id, false);
      return { k: c.attempts + 1 >= TRIES_PER_CODE ? ('spent' as const) : ('wrong' as const) };
    }
    const owners = await repo.ownersByPhone(tx, b.phone);
    const companies = [...new Set(owners.map((o) => o.companyId))];
    if (b.companyId == null && companies.length > 1) return { k: 'choose' as const, choose: await choices(tx, owners) };
    const o = owners.find((x) => b.companyId == null || x.companyId === b.companyId);
    if (!o) return { k: owners.length ? ('company' as const) : ('unknown' as const) };
    await repo.codeTried(tx, c.id, true);
    return { k: 'ok' as const, o };
  });
  if (r.k === 'choose') return { choose: r.choose };
  if (r.k !== 'ok') throw refuse(...PHONE_LOGIN_REFUSED[r.k]);
  return open(ctx, r.o, 'sms');
}

const PHONE_LOGIN_REFUSED: Record<'none' | 'spent' | 'wrong' | 'unknown' | 'company', [string, string]> = {
  none: ['OWNER_CODE_EXPIRED', '验证码已失效，请重新获取'],
  spent: ['OWNER_CODE_WRONG', '验证码错误次数过多，请重新获取'],
  wrong: ['OWNER_CODE_WRONG', '验证码错误，请重新输入'],
  unknown: ['OWNER_PHONE_UNKNOWN', '该手机号未登记为业主，请联系物业'],
  company: ['OWNER_COMPANY_UNKNOWN', '该手机号未在所选物业公司登记，请重新选择'],
};

/** One entry per company: its name, the owner's name there and the rooms a session of it would show. */
async function choices(tx: Tx, owners: Awaited<ReturnType<typeof repo.ownersByPhone>>) {
  const out = [];
  for (const companyId of [...new Set(owners.map((o) => o.companyId))]) {
    const first = owners.find((o) => o.companyId === companyId);
    if (!first) continue;
    const rooms = await repo.roomsOf(tx, { ownerId: first.id, companyId, phone: first.phone });
    out.push({ companyId, companyName: first.companyName, ownerName: first.name, rooms: rooms.map((x) => x.path) });
  }
  return out;
}

export const ROOM_LOGIN_FAILED = '房间编号或密码错误（密码可请物业在“业主管理”中重置）';

export async function loginByRoom(ctx: PublicCtx, b: { roomId: number; password: string }) {
  ctx.audit.target = `房间编号 ${b.roomId}`;
  const o = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.ownerOfRoom(tx, b.roomId));
  // one answer and one argon2 verification whatever is wrong: nothing tells which rooms have owners
  if (!o || !o.passwordHash) {
    await dummyVerify(b.password);
    throw refuse('OWNER_LOGIN_FAILED', ROOM_LOGIN_FAILED);
  }
  if (!(await verifyPassword(o.passwordHash, b.password))) throw refuse('OWNER_LOGIN_FAILED', ROOM_LOGIN_FAILED);
  return open(ctx, o, 'password');
}

/** The owner behind a token (401 without a live owner session: a back-office token is not one). */
export async function authenticateOwner(db: Db, token: string | undefined): Promise<OwnerPrincipal> {
  if (!token) throw unauthorized();
  const s = await db.tx(SYSTEM_SCOPE, (tx) => repo.lookupSession(tx, hashToken(token), OWNER_IDLE_MINUTES));
  if (!s) throw unauthorized();
  return s;
}

/**
 * The owner changes a room's sign-in password (the one staff reset): the old one first; then every
 * session of that owner row ends, this one included (sign in again with the new password), and its
 * sockets close on the auth-changed signal as a back-office password change closes the staff's.
 */
export async function changePassword(ctx: OwnerCtx, b: { roomId: number; oldPassword: string; newPassword: string }) {
  const room = await ctx.tx(async (tx) => (await repo.roomsOf(tx, ctx.owner)).find((r) => r.roomId === b.roomId));
  if (!room) throw notFound('房间');
  ctx.audit.target = `业主 ${room.ownerName} 房间 ${room.path}`;
  const hash = await ctx.tx((tx) => repo.passwordOf(tx, room.ownerId));
  if (!hash) {
    await dummyVerify(b.oldPassword);
    throw refuse('OWNER_NO_PASSWORD', '该房间尚未设置登录密码，请联系物业在“业主管理”中重置密码');
  }
  if (!(await verifyPassword(hash, b.oldPassword))) throw refuse('PASSWORD_WRONG', '原密码错误');
  if (b.oldPassword === b.newPassword) throw refuse('PASSWORD_SAME', '新密码不能与原密码相同');
  const next = await hashPassword(b.newPassword);
  await ctx.tx(async (tx) => {
    await setOwnerPassword(tx, room.ownerId, next);
    await endOwnerSessions(tx, room.ownerId);
    // this session too, when it is another owner row's (a phone session seeing this room)
    await repo.revokeSession(tx, ctx.owner.sessionId);
  });
  return null;
}

export async function logout(ctx: OwnerCtx) {
  await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.revokeSession(tx, ctx.owner.sessionId));
  return null;
}

export const isUnauthorized = (e: unknown) => e instanceof AppError && e.status === 401;
