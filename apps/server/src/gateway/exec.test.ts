import { describe, expect, it } from 'vitest';
import { DLT645_DI } from '@meter/protocol';
import { parseExecCancel, parseExecReply, parseExecRequest, type ExecRequest } from './exec.ts';
import { dlt } from './frames.ts';

// The gateway/exec messages are parsed in one place: what is not a well-formed message is dropped,
// never carried out in part.

const buf = (v: unknown) => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v));
const good: ExecRequest = {
  reqId: 'r1',
  replyTo: 'p/gateway/reply/w1',
  route: { address: '000000000001', protocol: 'dlt645', imei: '123456789012345', mqtt: false },
  req: { ...dlt.read('000000000001', DLT645_DI.FORWARD_ACTIVE_TOTAL, '读电量'), ref: 7 },
  queueMs: 5000,
};

describe('gateway/exec messages', () => {
  it('a request round-trips through JSON unchanged', () => {
    const parsed = parseExecRequest(buf(good));
    expect(parsed).toMatchObject({ reqId: 'r1', replyTo: good.replyTo, route: good.route, queueMs: 5000 });
    expect(parsed?.req).toMatchObject({ frame: good.req.frame, label: '读电量', ref: 7, expect: good.req.expect });
  });

  it('a malformed request is dropped', () => {
    expect(parseExecRequest(buf('not json'))).toBeUndefined();
    expect(parseExecRequest(buf({ ...good, reqId: '' }))).toBeUndefined();
    expect(parseExecRequest(buf({ ...good, route: { ...good.route, protocol: 'modbus' } }))).toBeUndefined();
    expect(parseExecRequest(buf({ ...good, req: { ...good.req, frame: 42 } }))).toBeUndefined();
    expect(parseExecRequest(buf({ ...good, req: { ...good.req, expect: { address: 'x' } } }))).toBeUndefined();
  });

  it('a missing or absurd queue limit is bounded', () => {
    const { queueMs: _q, ...noLimit } = good;
    expect(parseExecRequest(buf(noLimit))?.queueMs).toBe(60_000);
    expect(parseExecRequest(buf({ ...good, queueMs: 1e12 }))?.queueMs).toBe(600_000);
  });

  it('replies: the four states; an unknown error code reads as offline', () => {
    expect(parseExecReply(buf({ reqId: 'r1', state: 'queued' }))).toEqual({ reqId: 'r1', state: 'queued' });
    expect(parseExecReply(buf({ reqId: 'r1', state: 'sent' }))).toEqual({ reqId: 'r1', state: 'sent' });
    expect(parseExecReply(buf({ reqId: 'r1', state: 'done', protocol: 'dlt645', frame: '68' }))).toEqual({ reqId: 'r1', state: 'done', protocol: 'dlt645', frame: '68' });
    expect(parseExecReply(buf({ reqId: 'r1', state: 'failed', error: 'busy', message: '繁忙' }))).toMatchObject({ error: 'busy', message: '繁忙' });
    expect(parseExecReply(buf({ reqId: 'r1', state: 'failed', error: 'boom' }))).toMatchObject({ error: 'offline' });
    // both of the codes of a request not put on the wire: past its signed validity, or cancelled
    expect(parseExecReply(buf({ reqId: 'r1', state: 'failed', error: 'expired' }))).toMatchObject({ error: 'expired' });
    expect(parseExecReply(JSON.stringify({ reqId: 'r1', state: 'failed', error: 'cancelled' }))).toMatchObject({ error: 'cancelled' });
    expect(parseExecReply(buf({ reqId: 'r1', state: 'weird' }))).toBeUndefined();
  });

  it('cancel: some requests, or all of a worker that is gone', () => {
    expect(parseExecCancel(buf({ replyTo: 'w', reqIds: ['a', 3, 'b'] }))).toEqual({ replyTo: 'w', reqIds: ['a', 'b'], gone: false });
    expect(parseExecCancel(buf({ replyTo: 'w', gone: true }))).toEqual({ replyTo: 'w', reqIds: undefined, gone: true });
    expect(parseExecCancel(buf({ reqIds: ['a'] }))).toBeUndefined();
  });
});
