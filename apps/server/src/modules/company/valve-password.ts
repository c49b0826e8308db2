import { timingSafeEqual } from 'node:crypto';
import { SYSTEM_SCOPE } from '../../db/client.ts';
import { companyOf, type Ctx } from '../../http/context.ts';
import { notFound, refuse } from '../../http/errors.ts';
import { hashPassword, verifyPassword } from '../auth/index.ts';
import * as repo from './repo.ts';

// The valve-control password (SPEC §4/§5, issue 12 §3): asked before a phaseId-1 meter is switched off.
// The browser only asks for it; the comparison is here. Stored as an argon2id hash; every wrong one is an
// audit row (code VALVE_PWD_WRONG), and after MAX_FAILURES of them within WINDOW_MINUTES a user is refused.

export const MAX_FAILURES = 5;
export const WINDOW_MINUTES = 15;

const isHash = (s: string) => s.startsWith('$argon2');

/** A plain value left from before migration 0031, compared in constant time. */
function plainEquals(stored: string, typed: string) {
  const a = Buffer.from(stored.trim());
  const b = Buffer.from(typed);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether the company has a password (the dialog's own question; the password never leaves the server). */
export async function status(ctx: Ctx) {
  const id = companyOf(ctx);
  const pwd = await ctx.tx((tx) => repo.valveControlPwd(tx, id));
  if (pwd === undefined) throw notFound('单位');
  if (!pwd) throw refuse('VALVE_PWD_UNSET', '本单位尚未设置阀控密码，请联系单位管理员设置');
  return { set: true };
}

/** Throws the refusal a request gets when `typed` is not the company's valve password. */
export async function verify(ctx: Ctx, typed: string | undefined, what = '阀控密码') {
  const companyId = companyOf(ctx);
  const pwd = (typed ?? '').trim();
  if (!pwd) throw refuse('VALVE_PWD_REQUIRED', `请输入${what}`);
  const stored = await ctx.tx((tx) => repo.valveControlPwd(tx, companyId));
  if (stored === undefined) throw notFound('单位');
  if (!stored) throw refuse('VALVE_PWD_UNSET', '本单位尚未设置阀控密码，请联系单位管理员设置');
  const since = new Date(Date.now() - WINDOW_MINUTES * 60_000);
  const failures = await ctx.db.tx(SYSTEM_SCOPE, (tx) => repo.valvePwdFailures(tx, companyId, ctx.user.id, since));
  if (failures >= MAX_FAILURES) throw refuse('VALVE_PWD_LOCKED', `阀控密码错误次数过多，请 ${WINDOW_MINUTES} 分钟后再试`);
  const ok = isHash(stored) ? await verifyPassword(stored, pwd) : plainEquals(stored, pwd);
  if (!ok) throw refuse('VALVE_PWD_WRONG', what === '阀控密码' ? '密码输入不正确' : `${what}不正确`);
  if (!isHash(stored)) {
    const hash = await hashPassword(pwd);
    await ctx.tx((tx) => repo.setValveControlPwd(tx, companyId, hash));
  }
  return null;
}

/**
 * A company admin sets the company's password (the platform admin does it on /belongs). Changing one
 * that is set needs the current one, checked as every valve password is (wrong ones audited and
 * limited), so a taken-over admin session cannot quietly replace it.
 */
export async function set(ctx: Ctx, password: string, current: string | undefined) {
  const companyId = companyOf(ctx);
  const stored = await ctx.tx((tx) => repo.valveControlPwd(tx, companyId));
  if (stored === undefined) throw notFound('单位');
  ctx.audit.action = stored ? '修改阀控密码' : '设置阀控密码';
  ctx.audit.target = '阀控密码';
  if (stored) await verify(ctx, current, '当前阀控密码');
  const hash = await hashPassword(password.trim());
  await ctx.tx((tx) => repo.setValveControlPwd(tx, companyId, hash));
  return null;
}

/** The value to store for a password typed on /belongs: its hash, or '' (keep / none). */
export const hashIfSet = async (password: string | null | undefined) => (password ? hashPassword(password) : '');
