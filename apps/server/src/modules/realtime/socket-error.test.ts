import { describe, expect, it, vi } from 'vitest';
import { onSocketError } from './routes.ts';

describe('websocket errors', () => {
  it('a message over the size limit is one short WARN line without a stack, and the socket is closed', () => {
    const log = { warn: vi.fn() };
    const socket = { terminate: vi.fn() };
    const err = Object.assign(new RangeError('Max payload size exceeded'), { code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' });
    onSocketError(log, err, socket, '10.0.0.9');
    expect(log.warn).toHaveBeenCalledTimes(1);
    const [fields, message] = log.warn.mock.calls[0];
    expect(fields).toEqual({ ip: '10.0.0.9', code: 'WS_ERR_UNSUPPORTED_MESSAGE_LENGTH' });
    expect(JSON.stringify(fields)).not.toContain('at ');
    expect(message).toBe('websocket 消息超过大小上限，已断开');
    expect(socket.terminate).toHaveBeenCalledTimes(1);
  });
});
