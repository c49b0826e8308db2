import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import type { Db, Scope } from '../../db/client.ts';
import { AppError } from '../../http/errors.ts';
import { authenticate, type AuthSettings } from '../auth/index.ts';
import type { DeviceEvent, EventBus } from './bus.ts';
import * as repo from './repo.ts';

// The browser's live channel (SPEC §7 realtime, §3 websocket auth message): the client connects to
// /ws and first sends {auth: <session token>, imei?}; it then receives the device events of its
// company (readings, command results, online/offline, warnings) as {type, companyId, data}, limited
// to its areas and, with imei, to that one device. The session is re-checked every minute.

const AUTH_TIMEOUT_MS = 10_000;
const RECHECK_MS = 60_000;

/** 业主端: an owner session's company and the meters of their rooms (app.ts asks modules/ownerapp); throws 401 when it is not one */
export type OwnerSocketAuth = (token: string) => Promise<{ companyId: number; ownerId: number; meterIds: number[] }>;

interface Session {
  token: string;
  scope: Scope;
  /** an owner's socket: re-checked as an owner session */
  owner?: boolean;
  /** only events of these meters/collector (imei given) */
  device?: { collectorId: number | null; meterIds: Set<number> };
}

function visible(s: Session, e: DeviceEvent): boolean {
  if (!s.scope.allCompanies && e.companyId !== s.scope.companyId) return false;
  if (s.scope.companyId != null && e.companyId !== s.scope.companyId) return false;
  const b = e.body;
  if (s.scope.areaIds) {
    const area = typeof b.areaId === 'number' ? b.areaId : null;
    if (area === null || !s.scope.areaIds.includes(area)) return false;
  }
  if (s.device) {
    const meter = typeof b.meterId === 'number' && s.device.meterIds.has(b.meterId);
    const collector = s.device.collectorId != null && b.collectorId === s.device.collectorId;
    if (!meter && !collector) return false;
  }
  return true;
}

/**
 * A socket error (a message over the size limit, a broken frame, a reset): one short WARN line per
 * connection, without a stack (anyone can send one, no login needed); the socket is closed.
 */
export function onSocketError(log: Pick<FastifyBaseLogger, 'warn'>, error: Error & { code?: string }, socket: Pick<WebSocket, 'terminate'>, ip: string) {
  const what = error.code === 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' ? '消息超过大小上限' : '连接出错';
  log.warn({ ip, code: error.code ?? error.name }, `websocket ${what}，已断开`);
  socket.terminate();
}

export default function realtimeRoutes(app: FastifyInstance, opts: { db: Db; auth: AuthSettings; bus: EventBus; owner?: OwnerSocketAuth }) {
  app.get('/ws', { websocket: true, schema: { hide: true } }, (socket: WebSocket) => {
    let session: Session | null = null;
    let closed = false;
    const send = (msg: unknown) => {
      if (!closed && socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
    };
    const fail = (code: string, message: string) => {
      send({ type: 'error', code, message });
      socket.close(4001, code);
    };
    const authTimer = setTimeout(() => {
      if (!session) fail('UNAUTHORIZED', '请先发送登录凭证');
    }, AUTH_TIMEOUT_MS);
    const off = opts.bus.on((e) => {
      if (session && visible(session, e)) send({ type: e.kind, companyId: e.companyId, data: e.body });
    });
    const check = () => {
      if (!session) return;
      const again = session.owner && opts.owner ? opts.owner(session.token) : authenticate(opts.db, opts.auth, session.token, undefined);
      again.catch(() => fail('UNAUTHORIZED', '登录状态过期，请重新登录'));
    };
    const recheck = setInterval(check, RECHECK_MS);
    // a change by a person (a password reset or change, a disabled account, a logout): check now, not
    // at the next minute; several changes in a row are one check
    let soon: NodeJS.Timeout | undefined;
    const offSignal = opts.bus.onSignal('auth-changed', () => {
      soon ??= setTimeout(() => {
        soon = undefined;
        check();
      }, 200);
    });

    socket.on('message', (raw) => {
      let msg: { auth?: unknown; imei?: unknown; ping?: unknown };
      try {
        msg = JSON.parse(String(raw));
      } catch {
        send({ type: 'error', code: 'BAD_REQUEST', message: '消息格式错误，应为 JSON' });
        return;
      }
      if (msg?.ping !== undefined) {
        send({ type: 'pong', at: new Date().toISOString() });
        return;
      }
      if (typeof msg?.auth !== 'string' || !msg.auth) {
        if (!session) fail('UNAUTHORIZED', '请先发送登录凭证');
        return;
      }
      const token = msg.auth.startsWith('Bearer ') ? msg.auth.slice(7) : msg.auth;
      const imei = typeof msg.imei === 'string' && msg.imei.trim() ? msg.imei.trim() : undefined;
      void (async () => {
        try {
          // an owner's token (业主端): the events of their own meters only (readings, switching, online)
          const owner = opts.owner && (await opts.owner(token).catch((e: unknown) => {
            if (e instanceof AppError && e.status === 401) return null;
            throw e;
          }));
          if (owner) {
            const meterIds = new Set(owner.meterIds);
            if (imei) {
              const d = await opts.db.tx({ companyId: owner.companyId, allCompanies: false, areaIds: null, userId: null }, (tx) => repo.deviceByImei(tx, imei));
              const mine = d ? d.meterIds.filter((m) => meterIds.has(m)) : [];
              if (!mine.length) {
                send({ type: 'error', code: 'NOT_FOUND', message: `设备 ${imei} 不存在或无权查看` });
                return;
              }
              meterIds.clear();
              for (const m of mine) meterIds.add(m);
            }
            clearTimeout(authTimer);
            session = { token, owner: true, scope: { companyId: owner.companyId, allCompanies: false, areaIds: null, userId: null }, device: { collectorId: null, meterIds } };
            send({ type: 'ready', ownerId: owner.ownerId, companyId: owner.companyId, imei: imei ?? null });
            return;
          }
          const { user, scope } = await authenticate(opts.db, opts.auth, token, undefined);
          let device: Session['device'];
          if (imei) {
            const d = await opts.db.tx(scope, (tx) => repo.deviceByImei(tx, imei));
            if (!d) {
              send({ type: 'error', code: 'NOT_FOUND', message: `设备 ${imei} 不存在或无权查看` });
              return;
            }
            device = { collectorId: d.collectorId, meterIds: new Set(d.meterIds) };
          }
          clearTimeout(authTimer);
          session = { token, scope, device };
          send({ type: 'ready', userId: user.id, companyId: scope.companyId, imei: imei ?? null });
        } catch (e) {
          if (e instanceof AppError && e.status === 401) fail('UNAUTHORIZED', '登录状态过期，请重新登录');
          else fail('INTERNAL', '服务器内部错误，请稍后重试');
        }
      })();
    });
    socket.on('close', () => {
      closed = true;
      clearTimeout(authTimer);
      clearInterval(recheck);
      clearTimeout(soon);
      offSignal();
      off();
    });
  });
}
