import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { liveChannel, RETRY_DELAY_MS, type LiveEvent } from './live.ts';

class FakeSocket {
  static all: FakeSocket[] = [];
  sent: string[] = [];
  closed = false;
  onopen: (() => void) | null = null;
  onmessage: ((m: { data: string }) => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  constructor(public url: string) {
    FakeSocket.all.push(this);
  }
  send(s: string) {
    this.sent.push(s);
  }
  close() {
    if (this.closed) return;
    this.closed = true;
    this.onclose?.();
  }
  receive(msg: unknown) {
    this.onmessage?.({ data: typeof msg === 'string' ? msg : JSON.stringify(msg) });
  }
}

let token: string | null = 't1';

beforeEach(() => {
  vi.useFakeTimers();
  FakeSocket.all = [];
  token = 't1';
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('liveChannel', () => {
  it('signs in with the token, passes the known events to every listener, and is ready after the server says so', () => {
    const ch = liveChannel(() => token);
    const a: LiveEvent[] = [];
    const b: LiveEvent[] = [];
    ch.listen((e) => a.push(e));
    ch.listen((e) => b.push(e));
    expect(FakeSocket.all).toHaveLength(1); // one socket for all listeners
    const ws = FakeSocket.all[0];
    expect(ws.url).toMatch(/^ws:\/\/.+\/ws$/);
    ws.onopen?.();
    expect(ws.sent).toEqual([JSON.stringify({ auth: 't1' })]);
    expect(ch.ready()).toBe(false);
    ws.receive({ type: 'ready' });
    expect(ch.ready()).toBe(true);
    ws.receive({ type: 'reading', data: { meterId: 7 } });
    ws.receive({ type: 'nonsense', data: {} });
    ws.receive('not json');
    ws.receive({ type: 'payment' });
    expect(a).toEqual([{ type: 'reading', data: { meterId: 7 } }, { type: 'payment', data: {} }]);
    expect(b).toEqual(a);
  });

  it('reconnects after RETRY_DELAY_MS while someone listens and a token is there; the last listener closes it', () => {
    const ch = liveChannel(() => token);
    const off = ch.listen(() => {});
    FakeSocket.all[0].onerror?.();
    expect(FakeSocket.all[0].closed).toBe(true);
    expect(ch.ready()).toBe(false);
    vi.advanceTimersByTime(RETRY_DELAY_MS - 1);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);

    // signed out: a close is final
    token = null;
    FakeSocket.all[1].close();
    vi.advanceTimersByTime(RETRY_DELAY_MS * 3);
    expect(FakeSocket.all).toHaveLength(2);

    token = 't2';
    off();
    const off2 = ch.listen(() => {});
    expect(FakeSocket.all).toHaveLength(3);
    off2();
    expect(FakeSocket.all[2].closed).toBe(true);
    vi.advanceTimersByTime(RETRY_DELAY_MS * 3);
    expect(FakeSocket.all).toHaveLength(3); // nobody listens: no reconnect
  });

  it('without WebSocket: alerts once and listens to nothing', () => {
    vi.stubGlobal('WebSocket', undefined);
    const alert = vi.fn();
    Object.defineProperty(window, 'alert', { value: alert, configurable: true, writable: true });
    const ch = liveChannel(() => token);
    ch.listen(() => {})();
    ch.listen(() => {});
    expect(alert).toHaveBeenCalledTimes(1);
    expect(alert).toHaveBeenCalledWith('您的浏览器不支持 WebSocket!');
  });
});
