// 业主端 live updates (SPEC §7 {auth, imei}, §4 reconnect): one websocket to /ws with the owner token;
// the server sends the events of the owner's own meters (readings, switching, online). After an error
// or a close it reconnects after RETRY_DELAY_MS while a page listens. Without WebSocket support the
// alert 您的浏览器不支持 WebSocket! is shown once and the pages keep their periodic refresh.
import { ownerToken } from './session.ts';

export const MSG_NO_WEBSOCKET = '您的浏览器不支持 WebSocket!';
export const RETRY_DELAY_MS = 3000;

export interface OwnerEvent {
  type: 'reading' | 'command' | 'online' | 'warning' | 'payment';
  data: Record<string, unknown>;
}

type Listener = (e: OwnerEvent) => void;
const TYPES = new Set(['reading', 'command', 'online', 'warning', 'payment']);

const listeners = new Set<Listener>();
let socket: WebSocket | null = null;
let retry: ReturnType<typeof setTimeout> | null = null;
let alerted = false;

function url(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/ws`;
}

function schedule() {
  if (retry || !listeners.size) return;
  retry = setTimeout(() => {
    retry = null;
    connect();
  }, RETRY_DELAY_MS);
}

function connect() {
  if (socket || !listeners.size) return;
  const token = ownerToken();
  if (!token) return;
  let ws: WebSocket;
  try {
    ws = new WebSocket(url());
  } catch {
    schedule();
    return;
  }
  socket = ws;
  ws.onopen = () => ws.send(JSON.stringify({ auth: token }));
  ws.onmessage = (m) => {
    let msg: { type?: string; data?: Record<string, unknown> };
    try {
      msg = JSON.parse(String(m.data));
    } catch {
      return;
    }
    if (msg.type && TYPES.has(msg.type)) {
      const e = { type: msg.type, data: msg.data ?? {} } as OwnerEvent;
      for (const l of [...listeners]) l(e);
    }
  };
  ws.onerror = () => ws.close();
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    // reconnect only while still signed in (a logout closes it for good)
    if (ownerToken()) schedule();
  };
}

/** Listen to the owner's device events; returns the unsubscribe function. */
export function onOwnerEvent(fn: Listener): () => void {
  if (typeof WebSocket === 'undefined') {
    if (!alerted) {
      alerted = true;
      window.alert(MSG_NO_WEBSOCKET);
    }
    return () => {};
  }
  listeners.add(fn);
  connect();
  return () => {
    listeners.delete(fn);
    if (!listeners.size) {
      if (retry) clearTimeout(retry);
      retry = null;
      const ws = socket;
      socket = null;
      ws?.close();
    }
  };
}
