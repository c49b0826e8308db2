// The live device channel (SPEC §3/§4/§7): one websocket to /ws per tab, shared by the pages that
// watch devices. The first message is {auth: <session token>}; the server then sends the company's
// device events {type: 'reading'|'command'|'online'|'warning', data}, and to an open /screen
// {type: 'payment', data} for each top-up. After an error or a close the
// socket reconnects after a delay while some page still listens. A browser without WebSocket gets
// the alert 您的浏览器不支持 WebSocket! once, and the pages fall back to polling.
import { getToken } from '../../app/session.ts';

export const MSG_NO_WEBSOCKET = '您的浏览器不支持 WebSocket!';
export const RETRY_DELAY_MS = 3000;

export interface DeviceEvent {
  type: 'reading' | 'command' | 'online' | 'warning' | 'payment';
  data: Record<string, unknown>;
}

type Listener = (e: DeviceEvent) => void;

const listeners = new Set<Listener>();
let socket: WebSocket | null = null;
let ready = false;
let retry: ReturnType<typeof setTimeout> | null = null;
let alerted = false;

function url(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/ws`;
}

function connect() {
  if (socket || !listeners.size) return;
  const token = getToken();
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
    if (msg.type === 'ready') ready = true;
    if (msg.type === 'reading' || msg.type === 'command' || msg.type === 'online' || msg.type === 'warning' || msg.type === 'payment') {
      const e = { type: msg.type, data: msg.data ?? {} } as DeviceEvent;
      for (const l of [...listeners]) l(e);
    }
  };
  const drop = () => {
    if (socket !== ws) return;
    socket = null;
    ready = false;
    schedule();
  };
  ws.onerror = () => ws.close();
  ws.onclose = drop;
}

function schedule() {
  if (retry || !listeners.size) return;
  retry = setTimeout(() => {
    retry = null;
    connect();
  }, RETRY_DELAY_MS);
}

/** Whether live events are arriving (pages poll less often then). */
export function liveReady(): boolean {
  return ready;
}

/** Listen to device events; returns the unsubscribe function. Without WebSocket support: alerts once, returns a no-op. */
export function onDeviceEvent(fn: Listener): () => void {
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
      ready = false;
      ws?.close();
    }
  };
}
