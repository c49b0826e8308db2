import type { Route } from '../modules/control/index.ts';
import type { DeviceErrorCode } from './channel.ts';
import type { DeviceRequest, Protocol } from './frames.ts';

// The messages between a worker without a local gateway and the gateway processes (over MQTT,
// under the deployment's topic prefix), each signed and checked by the Sealer (security.ts) before it
// is parsed here. One type per topic, parsed in one place:
//
//   worker  → gateway/exec            ExecRequest   (every gateway sees it; only the holder answers)
//   gateway → gateway/reply/<worker>  ExecReply     queued (at once), sent (frame on the wire), then
//                                                   done (reply frame / null) or failed (error code)
//   worker  → gateway/cancel          ExecCancel    drop these requests if not yet on the wire; sent
//                                                   as the worker's MQTT will (gone: true) as well
//
// The worker's deadline for the device's answer counts from `sent`, so a request waiting behind
// others on a slow collector is not given up while it waits; a request it does give up is
// cancelled, and the gateway never puts a cancelled or orphaned request on the wire.

export interface ExecRequest {
  reqId: string;
  /** the worker's reply topic (also names the worker in ExecCancel) */
  replyTo: string;
  route: Route;
  req: DeviceRequest;
  /** the longest the request may wait in the gateway's queue before it is dropped unsent (busy) */
  queueMs: number;
}

export type ExecReply =
  | { reqId: string; state: 'queued' }
  | { reqId: string; state: 'sent' }
  | { reqId: string; state: 'done'; protocol: Protocol | null; frame: string | null }
  | { reqId: string; state: 'failed'; error: DeviceErrorCode; message: string };

export interface ExecCancel {
  /** whose requests */
  replyTo: string;
  /** these requests; absent = all of this worker's (it is gone) */
  reqIds?: string[];
  /** the worker is gone: replies to its requests already on the wire are recorded by the gateway */
  gone?: boolean;
}

export const execTopics = (prefix: string) => ({
  exec: `${prefix}gateway/exec`,
  cancel: `${prefix}gateway/cancel`,
});

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= 200;

function json(payload: Buffer | string): unknown {
  try {
    return JSON.parse(typeof payload === 'string' ? payload : payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

const protocol = (v: unknown): Protocol | undefined => (v === 'dlt645' || v === 'cjt188' ? v : undefined);
const optNum = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

function parseRoute(v: unknown): Route | undefined {
  if (!isObj(v) || !str(v.address) || !protocol(v.protocol)) return undefined;
  return { address: v.address, protocol: protocol(v.protocol)!, imei: str(v.imei) ? v.imei : null, mqtt: v.mqtt === true };
}

function parseRequest(v: unknown): DeviceRequest | undefined {
  if (!isObj(v) || typeof v.frame !== 'string' || typeof v.label !== 'string') return undefined;
  let expect: DeviceRequest['expect'] = null;
  if (isObj(v.expect)) {
    const e = v.expect;
    if (!protocol(e.protocol) || !str(e.address) || typeof e.func !== 'number') return undefined;
    expect = { protocol: protocol(e.protocol)!, address: e.address, func: e.func, ...(optNum(e.dataId) !== undefined ? { dataId: optNum(e.dataId) } : {}) };
  }
  return {
    frame: v.frame,
    expect,
    label: v.label,
    retries: optNum(v.retries),
    timeoutMs: optNum(v.timeoutMs),
    ref: optNum(v.ref),
    log: v.log === true,
  };
}

export function parseExecRequest(payload: Buffer | string): ExecRequest | undefined {
  const m = json(payload);
  if (!isObj(m) || !str(m.reqId) || !str(m.replyTo)) return undefined;
  const route = parseRoute(m.route);
  const req = parseRequest(m.req);
  if (!route || !req) return undefined;
  const queueMs = typeof m.queueMs === 'number' && m.queueMs > 0 ? Math.min(m.queueMs, 600_000) : 60_000;
  return { reqId: m.reqId, replyTo: m.replyTo, route, req, queueMs };
}

const CODES: readonly DeviceErrorCode[] = ['offline', 'timeout', 'closed', 'replaced', 'busy', 'refused', 'invalid', 'expired', 'cancelled'];
const errorCode = (v: unknown): DeviceErrorCode => CODES.find((c) => c === v) ?? 'offline';

export function parseExecReply(payload: Buffer | string): ExecReply | undefined {
  const m = json(payload);
  if (!isObj(m) || !str(m.reqId)) return undefined;
  switch (m.state) {
    case 'queued':
    case 'sent':
      return { reqId: m.reqId, state: m.state };
    case 'done':
      return {
        reqId: m.reqId,
        state: 'done',
        protocol: m.protocol === 'dlt645' || m.protocol === 'cjt188' ? m.protocol : null,
        frame: typeof m.frame === 'string' ? m.frame : null,
      };
    case 'failed':
      return { reqId: m.reqId, state: 'failed', error: errorCode(m.error), message: typeof m.message === 'string' ? m.message : '' };
    default:
      return undefined;
  }
}

export function parseExecCancel(payload: Buffer | string): ExecCancel | undefined {
  const m = json(payload);
  if (!isObj(m) || !str(m.replyTo)) return undefined;
  const reqIds = Array.isArray(m.reqIds) ? m.reqIds.filter(str) : undefined;
  return { replyTo: m.replyTo, reqIds, gone: m.gone === true };
}
