import { createHmac, timingSafeEqual } from 'node:crypto';
import { UPLOAD_KINDS, UPLOAD_TOKEN_TTL_MS, type UploadKind, type UploadToken } from '@meter/contracts';
import { refuse } from '../../http/errors.ts';

// Upload tokens (SPEC §4/§7 Public and Private): stateless, `v1.<payload>.<HMAC-SHA256>` in base64url,
// the payload naming the kind, the company the file will belong to (null: the platform), who asked
// and when. Any API process of the deployment checks them with the same key (files/setup.ts).

export interface TokenClaims {
  kind: UploadKind;
  companyId: number | null;
  userId: number;
  /** ms since the epoch */
  issuedAt: number;
  /** 业主端: the owner uploading and the room the file belongs to (userId is then 0) */
  ownerId?: number;
  roomId?: number;
}

const sign = (key: Buffer, payload: string) => createHmac('sha256', key).update(`upload-token.${payload}`).digest('base64url');

export function issueToken(key: Buffer, claims: TokenClaims): UploadToken {
  const owner = claims.ownerId !== undefined ? { o: claims.ownerId, r: claims.roomId } : {};
  const payload = Buffer.from(JSON.stringify({ k: claims.kind, c: claims.companyId, u: claims.userId, t: claims.issuedAt, ...owner })).toString('base64url');
  return { token: `v1.${payload}.${sign(key, payload)}`, kind: claims.kind, issuedAt: claims.issuedAt, expiresAt: claims.issuedAt + UPLOAD_TOKEN_TTL_MS };
}

const invalid = () => refuse('UPLOAD_TOKEN_INVALID', '上传凭证无效，请刷新页面后重试');

/** The token's claims; refuses a missing, altered or expired one. */
export function verifyToken(key: Buffer, token: string | undefined, now = Date.now()): TokenClaims {
  if (!token) throw refuse('UPLOAD_TOKEN_MISSING', '缺少上传凭证，请刷新页面后重试');
  const [v, payload, mac] = token.split('.');
  if (v !== 'v1' || !payload || !mac) throw invalid();
  const want = Buffer.from(sign(key, payload));
  const got = Buffer.from(mac);
  if (want.length !== got.length || !timingSafeEqual(want, got)) throw invalid();
  let p: { k?: unknown; c?: unknown; u?: unknown; t?: unknown; o?: unknown; r?: unknown };
  try {
    p = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    throw invalid();
  }
  if (!UPLOAD_KINDS.includes(p.k as UploadKind) || typeof p.t !== 'number' || typeof p.u !== 'number' || (p.c !== null && typeof p.c !== 'number')) throw invalid();
  if (now - p.t > UPLOAD_TOKEN_TTL_MS) throw refuse('UPLOAD_TOKEN_EXPIRED', '上传凭证已过期，请重新上传');
  if (p.t - now > 60_000) throw invalid();
  if (p.o !== undefined && (typeof p.o !== 'number' || typeof p.r !== 'number')) throw invalid();
  const owner = typeof p.o === 'number' && typeof p.r === 'number' ? { ownerId: p.o, roomId: p.r } : {};
  return { kind: p.k as UploadKind, companyId: p.c as number | null, userId: p.u, issuedAt: p.t, ...owner };
}
