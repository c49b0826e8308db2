/**
 * A tiny TCP "gateway" for the simulator's integration tests: accepts `REG <imei>` (answers `OK`
 * or `ERR unknown`), answers `HB`, cuts the stream with FrameSplitter and lets a test send a
 * request frame and await the reply — the same job the real gateway does, minus the database.
 */
import net from 'node:net';
import { FrameSplitter, type SplitterProtocol } from '@meter/protocol';

export interface ReceivedFrame {
  protocol: SplitterProtocol;
  bytes: Uint8Array;
}

type Waiter = { match: (f: ReceivedFrame) => boolean; resolve: (f: ReceivedFrame) => void };

export class GatewayConnection {
  readonly splitter = new FrameSplitter({ minTextLength: 2 });
  readonly frames: ReceivedFrame[] = [];
  readonly texts: string[] = [];
  imei = '';
  heartbeats = 0;
  closed = false;
  private waiters: Waiter[] = [];

  /** `keepFrames: false` only counts unsolicited frames (load tests). */
  constructor(
    readonly socket: net.Socket,
    private readonly counters: { frames: number; heartbeats: number; keepFrames: boolean },
  ) {}

  /** Called by the server for every chunk. */
  feed(chunk: Uint8Array, onRegister: (conn: GatewayConnection, imei: string) => void): void {
    for (const item of this.splitter.push(chunk)) {
      if (item.kind === 'text') {
        const line = item.text.trim();
        this.texts.push(line);
        if (line.startsWith('REG ')) onRegister(this, line.slice(4));
        else if (line === 'HB') {
          this.heartbeats++;
          this.counters.heartbeats++;
          this.socket.write('HB\n');
        }
        continue;
      }
      this.counters.frames++;
      const frame: ReceivedFrame = { protocol: item.protocol, bytes: item.bytes };
      const i = this.waiters.findIndex((w) => w.match(frame));
      if (i >= 0) this.waiters.splice(i, 1)[0].resolve(frame);
      else if (this.counters.keepFrames) this.frames.push(frame);
    }
  }

  /** The next frame (already received or still to come) that satisfies `match`. */
  nextFrame(match: (f: ReceivedFrame) => boolean = () => true, timeoutMs = 3000): Promise<ReceivedFrame> {
    const i = this.frames.findIndex(match);
    if (i >= 0) return Promise.resolve(this.frames.splice(i, 1)[0]);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        match,
        resolve: (f) => {
          clearTimeout(timer);
          resolve(f);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        reject(new Error(`no matching frame within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }

  /** Send a request and await the next frame satisfying `match`. */
  request(bytes: Uint8Array, match?: (f: ReceivedFrame) => boolean, timeoutMs?: number): Promise<ReceivedFrame> {
    const reply = this.nextFrame(match, timeoutMs);
    this.socket.write(bytes);
    return reply;
  }
}

export class TinyGateway {
  readonly server: net.Server;
  /** IMEIs that may register; `null` accepts every IMEI. */
  known: Set<string> | null = null;
  /** Current registered connection per IMEI. */
  readonly connections = new Map<string, GatewayConnection>();
  /** Every REG line seen (IMEIs, in order). */
  readonly registrations: string[] = [];
  readonly rejected: string[] = [];
  /** Frames and heartbeats received on all connections; set `keepFrames = false` to count frames without storing them. */
  readonly counters = { frames: 0, heartbeats: 0, keepFrames: true };
  private readonly sockets = new Set<net.Socket>();
  private readonly registrationCount = new Map<string, number>();
  private readonly regWaiters: Array<{ imei: string; after: number; resolve: (c: GatewayConnection) => void }> = [];

  constructor() {
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.maxConnections = 100_000;
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  get port(): number {
    return (this.server.address() as net.AddressInfo).port;
  }

  private accept(socket: net.Socket): void {
    socket.setNoDelay(true);
    this.sockets.add(socket);
    const conn = new GatewayConnection(socket, this.counters);
    socket.on('data', (chunk: Buffer) => conn.feed(chunk, (c, imei) => this.register(c, imei)));
    socket.on('error', () => {});
    socket.on('close', () => {
      conn.closed = true;
      this.sockets.delete(socket);
      if (conn.imei && this.connections.get(conn.imei) === conn) this.connections.delete(conn.imei);
    });
  }

  private register(conn: GatewayConnection, imei: string): void {
    this.registrations.push(imei);
    this.registrationCount.set(imei, (this.registrationCount.get(imei) ?? 0) + 1);
    if (this.known && !this.known.has(imei)) {
      this.rejected.push(imei);
      conn.socket.end('ERR unknown\n');
      return;
    }
    conn.imei = imei;
    const old = this.connections.get(imei);
    if (old && old !== conn) old.socket.destroy();
    this.connections.set(imei, conn);
    conn.socket.write('OK\n');
    const count = this.registrationCount.get(imei) ?? 0;
    for (const w of [...this.regWaiters]) {
      if (w.imei === imei && count > w.after) {
        this.regWaiters.splice(this.regWaiters.indexOf(w), 1);
        w.resolve(conn);
      }
    }
  }

  /** Resolve with the connection of `imei` once it has registered more than `after` times. */
  waitForRegistration(imei: string, after = 0, timeoutMs = 5000): Promise<GatewayConnection> {
    const count = this.registrationCount.get(imei) ?? 0;
    const current = this.connections.get(imei);
    if (count > after && current) return Promise.resolve(current);
    return new Promise((resolve, reject) => {
      const waiter = {
        imei,
        after,
        resolve: (c: GatewayConnection) => {
          clearTimeout(timer);
          resolve(c);
        },
      };
      const timer = setTimeout(() => {
        this.regWaiters.splice(this.regWaiters.indexOf(waiter), 1);
        reject(new Error(`${imei} did not register (${after + 1}×) within ${timeoutMs} ms`));
      }, timeoutMs);
      this.regWaiters.push(waiter);
    });
  }

  async close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Poll `check` until it is true (or throw after `timeoutMs`). */
export async function eventually(check: () => boolean, timeoutMs = 5000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
