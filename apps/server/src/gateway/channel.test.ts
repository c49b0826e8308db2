import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DLT645_DI, dlt645, fromHex } from '@meter/protocol';
import { Channel, DeviceError } from './channel.ts';
import { decodeFrame, dlt, type DeviceRequest } from './frames.ts';

const A = '000000000001';
const B = '000000000002';

const reply = (address: string, dataId: number, value: number) =>
  decodeFrame('dlt645', dlt645.encode({ kind: 'read', direction: 'response', address, dataId, values: { value } }));

describe('Channel: one request at a time, correlated replies, timeouts and retries', () => {
  let sent: DeviceRequest[];
  let ch: Channel;
  const timeouts: DeviceRequest[] = [];

  beforeEach(() => {
    vi.useFakeTimers();
    sent = [];
    timeouts.length = 0;
    ch = new Channel({ send: (_b, req) => void sent.push(req), timeoutMs: 1000, retries: 2, onTimeout: (r) => void timeouts.push(r) });
  });
  afterEach(() => vi.useRealTimers());

  it('sends the next request only after the first is answered', async () => {
    const p1 = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'));
    const p2 = ch.request(dlt.read(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'b'));
    expect(sent.map((r) => r.label)).toEqual(['a']);
    expect(ch.pending).toBe(2);
    // B's reply while A is in flight answers nothing (it is someone else's business)
    expect(ch.offer(reply(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 2))).toBe(false);
    expect(ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1))).toBe(true);
    expect(sent.map((r) => r.label)).toEqual(['a', 'b']);
    expect(ch.offer(reply(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 2))).toBe(true);
    const [r1, r2] = await Promise.all([p1, p2]);
    expect(r1?.frame.address).toBe(A);
    expect(r2?.frame.address).toBe(B);
  });

  it('a request past its validity is never put on the wire, also when it waited behind another', async () => {
    const now = Date.now();
    const first = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'));
    const late = ch.request({ ...dlt.remote(B, 0x1a, { password: '02000000', operator: '00000000' }, new Date(now), '拉闸'), validUntil: now + 500 });
    const stale = ch.request({ ...dlt.read(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'old'), validUntil: now - 1 });
    vi.advanceTimersByTime(900); // the first request is still in flight beyond the trip's validity
    expect(ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1))).toBe(true);
    await first;
    await expect(late).rejects.toMatchObject({ code: 'expired' });
    await expect(stale).rejects.toMatchObject({ code: 'expired' });
    expect(sent.map((r) => r.label)).toEqual(['a']);
  });

  it('a reply with the right address but another data identifier is not taken', () => {
    void ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'));
    expect(ch.offer(reply(A, DLT645_DI.VOLTAGE_A, 220))).toBe(false);
    expect(ch.pending).toBe(1);
  });

  it('resends after a timeout, then fails with a timeout and moves on', async () => {
    const p1 = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'));
    const p2 = ch.request(dlt.read(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'b'));
    const caught = p1.catch((e) => e);
    await vi.advanceTimersByTimeAsync(1000);
    await vi.advanceTimersByTimeAsync(1000);
    expect(sent.map((r) => r.label)).toEqual(['a', 'a', 'a']);
    await vi.advanceTimersByTimeAsync(1000);
    const e = await caught;
    expect(e).toBeInstanceOf(DeviceError);
    expect((e as DeviceError).code).toBe('timeout');
    expect(timeouts.map((r) => r.label)).toEqual(['a']);
    expect(sent.at(-1)?.label).toBe('b');
    // the late reply to A does not answer B
    expect(ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1))).toBe(false);
    ch.offer(reply(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 2));
    await expect(p2).resolves.toBeTruthy();
  });

  it('an actuating frame (retries 0) is never resent', async () => {
    const p = ch.request(dlt.remote(A, 0x1a, { password: '02000000', operator: '00000000' }, new Date(), '拉闸')).catch((e) => e);
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent.length).toBe(1);
    expect(((await p) as DeviceError).code).toBe('timeout');
  });

  it('a request without an expected reply resolves once written', async () => {
    await expect(ch.request(dlt.broadcastTime(new Date()))).resolves.toBeNull();
    expect(sent.length).toBe(1);
  });

  it('closing fails what is queued and in flight, and later requests', async () => {
    const p1 = ch.request(dlt.read(A, 0, 'a')).catch((e) => e);
    const p2 = ch.request(dlt.read(B, 0, 'b')).catch((e) => e);
    ch.close(new DeviceError('replaced'));
    expect(((await p1) as DeviceError).code).toBe('replaced');
    expect(((await p2) as DeviceError).code).toBe('replaced');
    await expect(ch.request(dlt.read(A, 0, 'c'))).rejects.toMatchObject({ code: 'replaced' });
  });

  it('a send that throws fails the request as offline and continues with the next', async () => {
    let n = 0;
    const c = new Channel({
      send: () => {
        if (n++ === 0) throw new Error('socket gone');
      },
      timeoutMs: 1000,
      retries: 0,
    });
    await expect(c.request(dlt.read(A, 0, 'a'))).rejects.toMatchObject({ code: 'offline' });
    const p = c.request(dlt.read(B, 0, 'b'));
    c.offer(decodeFrame('dlt645', dlt645.encode({ kind: 'read', direction: 'response', address: B, dataId: 0, values: { value: 1 } })));
    await expect(p).resolves.toBeTruthy();
  });

  it('an invalid frame to send is refused', async () => {
    await expect(ch.request({ frame: 'zz', expect: null, label: 'x' })).rejects.toMatchObject({ code: 'invalid' });
    expect(fromHex('68')).toHaveLength(1);
  });

  it('reports when a request goes on the wire: after the requests ahead of it, not when it was asked', async () => {
    const wired: string[] = [];
    const p1 = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'), { onWire: () => void wired.push('a') });
    const p2 = ch.request(dlt.read(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'b'), { onWire: () => void wired.push('b') });
    expect(wired).toEqual(['a']);
    await vi.advanceTimersByTimeAsync(1000); // a is resent: onWire is not called again
    expect(wired).toEqual(['a']);
    ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1));
    expect(wired).toEqual(['a', 'b']);
    ch.offer(reply(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 2));
    await Promise.all([p1, p2]);
  });

  it('a cancelled request that is still queued is never sent', async () => {
    const p1 = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'));
    const ac = new AbortController();
    const p2 = ch.request(dlt.read(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'b'), { signal: ac.signal }).catch((e) => e);
    ac.abort();
    expect(((await p2) as DeviceError).code).toBe('cancelled');
    ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1));
    await p1;
    await vi.advanceTimersByTimeAsync(5000);
    expect(sent.map((r) => r.label)).toEqual(['a']);
    expect(ch.pending).toBe(0);
  });

  it('cancelling a request already on the wire lets its reply end it (the frame cannot be unsent)', async () => {
    const ac = new AbortController();
    const p = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'), { signal: ac.signal });
    ac.abort();
    expect(ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1))).toBe(true);
    await expect(p).resolves.toBeTruthy();
  });

  it('a request waiting in the queue past its limit is dropped unsent as busy', async () => {
    const p1 = ch.request(dlt.read(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'a'));
    const p2 = ch.request(dlt.read(B, DLT645_DI.FORWARD_ACTIVE_TOTAL, 'b'), { queueMs: 500 }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(600);
    expect(((await p2) as DeviceError).code).toBe('busy');
    ch.offer(reply(A, DLT645_DI.FORWARD_ACTIVE_TOTAL, 1));
    await p1;
    expect(sent.map((r) => r.label)).toEqual(['a']);
  });
});
