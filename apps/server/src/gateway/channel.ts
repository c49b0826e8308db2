import { fromHex } from '@meter/protocol';
import { matches, type Decoded, type DeviceRequest } from './frames.ts';

// One conversation with devices at a time: a collector's TCP connection, a 4G meter's connection,
// or an MQTT meter's topic pair. Requests are sent one after another; the reply is recognised by
// address + function + data identifier (frames.matches); a request that gets no answer within the
// timeout is resent `retries` times, then fails. Frames that answer nothing are someone else's
// business (unsolicited reports): offer() returns false for them.

export type DeviceErrorCode = 'offline' | 'timeout' | 'closed' | 'replaced' | 'busy' | 'refused' | 'invalid' | 'expired' | 'cancelled';

const MESSAGES: Record<DeviceErrorCode, string> = {
  offline: '设备离线',
  timeout: '设备应答超时',
  closed: '设备连接已断开',
  replaced: '设备已重新连接，请求中断',
  busy: '设备通道繁忙，请稍后再试',
  refused: '设备拒绝执行',
  invalid: '设备应答报文无法解析',
  expired: '指令已过有效期，未下发',
  cancelled: '请求已取消，未下发',
};

export class DeviceError extends Error {
  constructor(
    public readonly code: DeviceErrorCode,
    message = MESSAGES[code],
  ) {
    super(message);
  }
  /** worth trying again later (the device may come back) */
  get transient() {
    return this.code !== 'refused' && this.code !== 'invalid';
  }
}

export interface ChannelOptions {
  /** write the frame to the device; throwing means the device cannot be reached */
  send(bytes: Uint8Array, req: DeviceRequest): void;
  timeoutMs: number;
  retries: number;
  /** requests waiting beyond this many are refused as busy */
  maxQueue?: number;
  /** a request timed out for good (the gateway may mark the meter offline) */
  onTimeout?(req: DeviceRequest): void;
  /** a frame was answered (liveness of the meter behind a collector) */
  onReply?(req: DeviceRequest, reply: Decoded): void;
}

/** How one request waits for its turn (requests relayed from a worker in another process). */
export interface RequestOptions {
  /** called once, when the frame is first written to the device (the requester's deadline starts here) */
  onWire?(): void;
  /** aborting drops the request if it has not been written yet (an abandoned request is never sent) */
  signal?: AbortSignal;
  /** waiting in the queue longer than this drops the request unsent, as busy */
  queueMs?: number;
}

interface Job {
  req: DeviceRequest;
  bytes: Uint8Array;
  tries: number;
  opts?: RequestOptions;
  timer?: NodeJS.Timeout;
  /** the queue deadline, while waiting */
  queueTimer?: NodeJS.Timeout;
  unlisten?: () => void;
  resolve(d: Decoded | null): void;
  reject(e: Error): void;
}

export class Channel {
  private queue: Job[] = [];
  private current: Job | undefined;
  private closedWith: DeviceError | undefined;

  constructor(private readonly opts: ChannelOptions) {}

  /** requests queued or in flight */
  get pending() {
    return this.queue.length + (this.current ? 1 : 0);
  }

  get closed() {
    return this.closedWith !== undefined;
  }

  /** Sends the request when its turn comes; resolves with the matching reply (null when none is expected). */
  request(req: DeviceRequest, opts?: RequestOptions): Promise<Decoded | null> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    if (opts?.signal?.aborted) return Promise.reject(new DeviceError('cancelled'));
    if (this.queue.length >= (this.opts.maxQueue ?? 1000)) return Promise.reject(new DeviceError('busy'));
    let bytes: Uint8Array;
    try {
      bytes = fromHex(req.frame);
    } catch {
      return Promise.reject(new DeviceError('invalid', '待发送的报文无效'));
    }
    return new Promise((resolve, reject) => {
      const job: Job = { req, bytes, tries: 0, opts, resolve, reject };
      this.queue.push(job);
      if (opts?.signal) {
        const abort = () => this.dropQueued(job, new DeviceError('cancelled'));
        opts.signal.addEventListener('abort', abort, { once: true });
        job.unlisten = () => opts.signal!.removeEventListener('abort', abort);
      }
      if (opts?.queueMs !== undefined) {
        job.queueTimer = setTimeout(() => this.dropQueued(job, new DeviceError('busy', '设备通道繁忙，请求排队超时，未下发')), opts.queueMs);
      }
      this.pump();
    });
  }

  /** Removes a request that has not been written yet (in flight: nothing to do, its reply decides). */
  private dropQueued(job: Job, err: DeviceError) {
    const i = this.queue.indexOf(job);
    if (i < 0) return;
    this.queue.splice(i, 1);
    this.settled(job);
    job.reject(err);
  }

  private settled(job: Job) {
    clearTimeout(job.timer);
    clearTimeout(job.queueTimer);
    job.unlisten?.();
    job.unlisten = undefined;
  }

  /** A decoded frame from the device: true when it answered the request in flight. */
  offer(d: Decoded): boolean {
    const job = this.current;
    if (!job || !job.req.expect || !matches(job.req.expect, d)) return false;
    this.settled(job);
    this.current = undefined;
    this.opts.onReply?.(job.req, d);
    job.resolve(d);
    this.pump();
    return true;
  }

  /** Fails everything in flight and queued; later requests fail at once. */
  close(reason: DeviceError) {
    if (this.closedWith) return;
    this.closedWith = reason;
    const jobs = [...(this.current ? [this.current] : []), ...this.queue];
    this.current = undefined;
    this.queue = [];
    for (const j of jobs) {
      this.settled(j);
      j.reject(reason);
    }
  }

  private pump() {
    if (this.current || this.closedWith) return;
    const job = this.queue.shift();
    if (!job) return;
    // its turn came: from now on only its reply (or silence) ends it
    clearTimeout(job.queueTimer);
    job.unlisten?.();
    job.unlisten = undefined;
    this.current = job;
    this.transmit(job);
  }

  private transmit(job: Job) {
    if (job.req.validUntil !== undefined && Date.now() > job.req.validUntil) {
      this.finish(job, new DeviceError('expired'));
      return;
    }
    job.tries++;
    try {
      this.opts.send(job.bytes, job.req);
    } catch (e) {
      this.finish(job, e instanceof DeviceError ? e : new DeviceError('offline'));
      return;
    }
    if (job.tries === 1) job.opts?.onWire?.();
    if (!job.req.expect) {
      this.current = undefined;
      job.resolve(null);
      // let the device digest a frame it does not answer before the next one
      setImmediate(() => this.pump());
      return;
    }
    job.timer = setTimeout(() => {
      if (this.current !== job) return;
      if (job.tries <= (job.req.retries ?? this.opts.retries)) {
        this.transmit(job);
        return;
      }
      this.opts.onTimeout?.(job.req);
      this.finish(job, new DeviceError('timeout'));
    }, job.req.timeoutMs ?? this.opts.timeoutMs);
  }

  private finish(job: Job, err: Error) {
    this.settled(job);
    if (this.current === job) this.current = undefined;
    job.reject(err);
    this.pump();
  }
}
