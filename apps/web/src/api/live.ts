// One live channel over the websocket /ws (SPEC §7, reconnect rules of SPEC §4): the first message is
// {auth: <token>}; the server answers {type: 'ready'} and then sends events {type, data}. After an error
// or a close it reconnects after RETRY_DELAY_MS while someone listens and a token is there (a logout
// ends it). A browser without WebSocket gets the alert 您的浏览器不支持 WebSocket! once, and the pages
// fall back to polling. The back-office (pages/control/live.ts) and the owner app (h5/live.ts) each
// keep one channel, signed in with their own token.

export const MSG_NO_WEBSOCKET = '您的浏览器不支持 WebSocket!';
export const RETRY_DELAY_MS = 3000;

export const LIVE_TYPES = ['reading', 'command', 'online', 'warning', 'payment'] as const;

export interface LiveEvent {
  type: (typeof LIVE_TYPES)[number];
  data: Record<string, unknown>;
}

type Listener = (e: LiveEvent) => void;
const TYPES = new Set<string>(LIVE_TYPES);
let alerted = false;

export interface LiveChannel {
  /** listen to the events; returns the unsubscribe function (the last one closes the socket) */
  listen(fn: Listener): () => void;
  /** whether live events are arriving (pages poll less often then) */
  ready(): boolean;
}

export function liveChannel(token: () => string | null): LiveChannel {
  const listeners = new Set<Listener>();
  let socket: WebSocket | null = null;
  let isReady = false;
  let retry: ReturnType<typeof setTimeout> | null = null;

  const url = () => `${window.location.protocol === 'https:' ? 'wss:' : 'ws:'}//${window.location.host}/ws`;

  function schedule() {
    if (retry || !listeners.size) return;
    retry = setTimeout(() => {
      retry = null;
      connect();
    }, RETRY_DELAY_MS);
  }

  function connect() {
    if (socket || !listeners.size) return;
    const auth = token();
    if (!auth) return;
    let ws: WebSocket;
    try {
      ws = new WebSocket(url());
    } catch {
      schedule();
      return;
    }
    socket = ws;
    ws.onopen = () => ws.send(JSON.stringify({ auth }));
    ws.onmessage = (m) => {
      let msg: { type?: string; data?: Record<string, unknown> };
      try {
        msg = JSON.parse(String(m.data));
      } catch {
        return;
      }
      if (msg.type === 'ready') isReady = true;
      if (msg.type && TYPES.has(msg.type)) {
        const e = { type: msg.type, data: msg.data ?? {} } as LiveEvent;
        for (const l of [...listeners]) l(e);
      }
    };
    ws.onerror = () => ws.close();
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      isReady = false;
      // reconnect only while still signed in (a logout closes it for good)
      if (token()) schedule();
    };
  }

  return {
    ready: () => isReady,
    listen(fn) {
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
        if (listeners.size) return;
        if (retry) clearTimeout(retry);
        retry = null;
        const ws = socket;
        socket = null;
        isReady = false;
        ws?.close();
      };
    },
  };
}
