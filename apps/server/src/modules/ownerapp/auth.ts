import { randomInt, timingSafeEqual } from 'node:crypto';
import { OWNER_CODE_COOLDOWN_SECONDS, OWNER_CODE_TTL_SECONDS } from '@meter/contracts';
import { SYSTEM_SCOPE, type Db } from '../../db/client.ts';
import type { OwnerCtx, OwnerPrincipal, PublicCtx } from '../../http/context.ts';
import { AppError, refuse, unauthorized } from '../../http/errors.ts';
import { dummyVerify, hashToken, newToken, verifyPassword } from '../auth/index.ts';
import { queueNotification } from '../notify/index.ts';
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
/** notifications.level of a login code (1–7 are the alarms, receipts, bulk and notices) */
export const LOGIN_CODE_LEVEL = 8;

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

export async function loginByPhone(ctx: PublicCtx, b: { phone: string; code: string }) {
  ctx.audit.target = `业主手机号 ${b.phone.slice(0, 3)}****${b.phone.slice(-4)}`;
  const ok = await ctx.db.tx(SYSTEM_SCOPE, async (tx) => {
    const c = await repo.liveCode(tx, b.phone);
    if (!c || c.attempts >= TRIES_PER_CODE) return 'none' as const;
    const match = same(c.codeHash, codeHash(b.phone, b.code));
    await repo.codeTried(tx, c.id, match);
    return match ? ('ok' as const) : c.attempts + 1 >= TRIES_PER_CODE ? ('spent' as const) : ('wrong' as const);
  });
  if (ok === 'none') throw refuse('OWNER_CODE_EXPIRED', '验证码已失效，请重新获取');
  if (ok === 'spent') throw refuse('OWNER_CODE_WRONG', '验证码错误次数过多，请重新获取');
  if (ok === 'wrong') throw refuse('OWNER_CODE_WRONG', '验证码错误，请重新输入');
  const owners = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.ownersByPhone(tx, b.phone));
  if (!owners.length) throw refuse('OWNER_PHONE_UNKNOWN', '该手机号未登记为业主，请联系物业');
  return open(ctx, owners[0]!, 'sms');
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

export async function logout(ctx: OwnerCtx) {
  await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.revokeSession(tx, ctx.owner.sessionId));
  return null;
}

export const isUnauthorized = (e: unknown) => e instanceof AppError && e.status === 401;
