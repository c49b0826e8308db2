import { refuse } from './errors.ts';
import type { Db, Reader, Scope, Tx } from '../db/client.ts';

/** The signed-in person behind a request. */
export interface AuthUser {
  id: number;
  username: string;
  realName: string;
  companyId: number | null;
  roleId: number | null;
  access: number;
  userType: number;
  routes: string[];
  operations: string[];
  sessionId: number;
}

/** What a service needs from a request: who asks, in which scope, and a transaction runner. */
export interface Ctx {
  user: AuthUser;
  scope: Scope;
  ip: string;
  db: Db;
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
  /** statements that each stand alone, one round trip apiece, under the same scope (Db.read) */
  read<T>(fn: (r: Reader) => Promise<T>): Promise<T>;
  /** the audit target a service may name (e.g. "房间 1-101"); written with the audit row */
  audit: { target?: string; action?: string };
}

/** What an anonymous request (login) gets. */
export interface PublicCtx {
  ip: string;
  userAgent: string;
  db: Db;
  audit: { target?: string; action?: string; username?: string; userId?: number; companyId?: number | null };
}

/** The owner behind an owner-app (业主端) request: their session, company and the rooms they may see. */
export interface OwnerPrincipal {
  sessionId: number;
  /** the owner row signed in (by phone: the first of the phone's rows) */
  ownerId: number;
  companyId: number;
  name: string;
  /** set for an SMS login: every room of the company registered with this phone is theirs */
  phone: string;
}

/** What an owner-app service gets: the owner, the company's scope (no area limit), a transaction runner. */
export interface OwnerCtx extends PublicCtx {
  owner: OwnerPrincipal;
  scope: Scope;
  tx<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
}

export const isPlatform = (u: { access: number }) => u.access === 0;

/** A platform admin's transaction over every company (whatever company the header picked); anyone else's in their own scope. */
export function platformTx<T>(ctx: Ctx, fn: (tx: Tx) => Promise<T>) {
  if (isPlatform(ctx.user)) return ctx.db.tx({ ...ctx.scope, companyId: null, allCompanies: true, areaIds: null }, fn);
  return ctx.tx(fn);
}

/** The company a write lands in: the user's, or the one a platform admin picked (searchCompanyID). */
export function companyOf(ctx: Ctx): number {
  const id = ctx.scope.companyId ?? ctx.user.companyId;
  if (id == null) throw refuse('COMPANY_REQUIRED', '请先在页面顶部选择单位');
  return id;
}
