import net from 'node:net';
import { FrameSplitter, type SplitterSink } from '@meter/protocol';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { Channel, DeviceError } from './channel.ts';
import type { GatewayParts } from './context.ts';
import { hex } from './frames.ts';
import * as repo from './repo.ts';
import { LogThrottle, sameText } from './security.ts';

// The gateway's TCP listener (docs/DEVICE-WIRE.md): collectors/DTUs and 4G meters register by IMEI
// with their secret, keep the connection alive with heartbeats and carry transparent DL/T 645 /
// CJ/T 188 frames (handed to the dialogue). A connection silent for three heartbeats is closed.

export interface Connection {
  id: number;
  socket: net.Socket;
  imei: string;
  device: repo.RegisteredDevice | null;
  splitter: FrameSplitter;
  /** created on the first request to the device (most connections only send heartbeats and reports) */
  channel: Channel | null;
  lastRx: number;
  replaced: boolean;
  /** until registered: the bytes so far and the registration deadline (null once registered) */
  pending: PendingRegistration | null;
  /** error reports written in the current minute (a babbling device must not flood the log) */
  errorMinute: number;
  errorsUsed: number;
}

interface PendingRegistration {
  /** the bytes received so far (the REG line, and what came while it was checked) */
  bytes: Buffer;
  /** the REG line is being checked */
  registering: boolean;
  /** Date.now() after which an unregistered connection is closed */
  deadline: number;
}

/** the Connection of a socket (one property, so the socket's listeners are shared, not closures per socket) */
const CONN = Symbol('connection');
type DeviceSocket = net.Socket & { [CONN]?: Connection };

/** `ip:port` of a connection's device (for logs; asked only when logged, so no address object stays on each socket) */
export function remoteOf(conn: Connection): string {
  return `${conn.socket.remoteAddress}:${conn.socket.remotePort}`;
}

/** `REG <imei> <secret>` (the secret: the collector's reg_secret, or a 4G meter's derived one) */
const REG = /^REG\s+(\d{15})(?:\s+([\x21-\x7e]{1,64}))?$/;
const MAX_PRE_REGISTRATION = 256;
export const ERROR_REPORTS_PER_MINUTE = 20;
const ignore = () => {};
const NOTHING = Buffer.alloc(0);

/** The collector a connection is (null: a 4G meter, or not registered yet). */
export function collectorOf(conn: Connection) {
  return conn.device?.type === 'collector' ? conn.device.id : null;
}

/** Looks IMEIs up in batches: registrations arriving together cost one query. */
class ImeiLookup {
  private waiting = new Map<string, { resolve: (d: repo.RegisteredDevice | undefined) => void; reject: (e: Error) => void }[]>();
  private scheduled = false;
  constructor(private readonly db: Db) {}

  get(imei: string): Promise<repo.RegisteredDevice | undefined> {
    return new Promise((resolve, reject) => {
      const list = this.waiting.get(imei);
      if (list) list.push({ resolve, reject });
      else this.waiting.set(imei, [{ resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.load());
      }
    });
  }

  private async load() {
    this.scheduled = false;
    const batch = this.waiting;
    this.waiting = new Map();
    try {
      const found = await this.db.tx(SYSTEM_SCOPE, (tx) => repo.findByImeis(tx, [...batch.keys()]));
      for (const [imei, list] of batch) for (const w of list) w.resolve(found.get(imei));
    } catch (e) {
      for (const list of batch.values()) for (const w of list) w.reject(e as Error);
    }
  }
}

export class TcpListener {
  private server: net.Server | undefined;
  private readonly byImei = new Map<string, Connection>();
  private readonly conns = new Set<Connection>();
  private readonly imeis: ImeiLookup;
  private readonly refusals: LogThrottle;
  /** connections not registered yet, checked against their deadline once a second (no timer per socket) */
  private readonly unregistered = new Set<Connection>();
  private registerSweep: NodeJS.Timeout | undefined;
  private nextId = 1;
  // the listeners of every socket (`this` is the socket; its Connection is its CONN property)
  private readonly onData: (this: DeviceSocket, chunk: Buffer) => void;
  private readonly onClose: (this: DeviceSocket) => void;
  /** the connection whose chunk the splitter is reading (one at a time), for the sink */
  private receiving: Connection | undefined;
  /** what the splitters find, handed on as it is found (one sink for every connection) */
  private readonly sink: SplitterSink;

  constructor(private readonly g: GatewayParts) {
    this.imeis = new ImeiLookup(g.deps.db);
    this.refusals = new LogThrottle(g.log, '设备注册被拒绝');
    const data = (conn: Connection, chunk: Buffer) => this.data(conn, chunk);
    const closed = (conn: Connection) => this.closed(conn);
    this.onData = function (chunk) {
      data(this[CONN]!, chunk);
    };
    this.onClose = function () {
      closed(this[CONN]!);
    };
    this.sink = {
      frame: (protocol, input, start, end) => this.g.dialogue.frameAt(this.receiving!, protocol, input, start, end),
      text: (text, bytes) => this.text(this.receiving!, text, bytes),
    };
  }

  private get log() {
    return this.g.log;
  }

  /** the TCP port actually listened on */
  get port(): number {
    return (this.server?.address() as net.AddressInfo | null)?.port ?? 0;
  }

  /** registered connections, and sockets in all */
  get counts() {
    return { connections: this.byImei.size, sockets: this.conns.size };
  }

  async listen() {
    const s = this.g.deps.settings;
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.maxConnections = 100_000;
    this.registerSweep = setInterval(() => this.dropUnregistered(), 1000);
    this.registerSweep.unref();
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(s.port, s.host, () => {
        this.server!.off('error', reject);
        resolve();
      });
    });
  }

  /** Drops every connection. */
  destroyAll() {
    for (const c of this.conns) c.socket.destroy();
  }

  /** Stops listening. */
  close(): Promise<void> {
    clearInterval(this.registerSweep);
    return new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** the channel of the device registered under this IMEI, if connected here */
  channelOf(imei: string): Channel | undefined {
    const conn = this.byImei.get(imei);
    return conn && (conn.channel ?? (conn.channel = this.openChannel(conn)));
  }

  /** a device with this IMEI is connected here */
  has(imei: string): boolean {
    return this.byImei.has(imei);
  }

  /** the connection is its device's current one */
  current(conn: Connection): boolean {
    return this.byImei.get(conn.imei) === conn;
  }

  pauseAll() {
    for (const c of this.conns) c.socket.pause();
  }

  resumeAll() {
    for (const c of this.conns) c.socket.resume();
  }

  private accept(socket: DeviceSocket) {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    const now = Date.now();
    const conn: Connection = {
      id: this.nextId++,
      socket,
      imei: '',
      device: null,
      splitter: new FrameSplitter({ minTextLength: 2 }),
      channel: null,
      lastRx: now,
      replaced: false,
      pending: { bytes: NOTHING, registering: false, deadline: now + Math.max(5000, this.g.deps.settings.heartbeatSeconds * 1000) },
      errorMinute: 0,
      errorsUsed: 0,
    };
    socket[CONN] = conn;
    this.conns.add(conn);
    this.unregistered.add(conn);
    if (this.g.buffer.paused) socket.pause();
    socket.on('data', this.onData);
    socket.on('error', ignore); // a reset connection ends in 'close'
    socket.on('close', this.onClose);
  }

  private data(conn: Connection, chunk: Buffer) {
    conn.lastRx = Date.now();
    const pending = conn.pending;
    if (!pending) {
      if (conn.device) this.receive(conn, chunk);
      return;
    }
    const pre = (pending.bytes = Buffer.concat([pending.bytes, chunk]));
    if (pending.registering) return; // kept for after the answer
    const nl = pre.indexOf(0x0a);
    if (nl < 0) {
      if (pre.length > MAX_PRE_REGISTRATION) this.refuse(conn, 'invalid');
      return;
    }
    const m = REG.exec(pre.toString('latin1', 0, nl).replace(/\r$/, '').trim());
    if (!m) {
      this.refuse(conn, 'invalid');
      return;
    }
    pending.registering = true;
    // the IMEI as its own string (a match would keep the whole line it was cut from)
    const at = pre.indexOf(m[1]);
    const imei = pre.toString('latin1', at, at + m[1].length);
    void this.register(conn, imei, m[2] ?? '').then(
      (ok) => {
        this.unregistered.delete(conn);
        conn.pending = null;
        const rest = pending.bytes.subarray(nl + 1);
        if (ok && rest.length) this.receive(conn, rest);
      },
      (e) => {
        this.log.error({ err: e, imei }, '设备注册失败');
        conn.socket.destroy();
      },
    );
  }

  private closed(conn: Connection) {
    this.unregistered.delete(conn);
    this.conns.delete(conn);
    void this.disconnected(conn);
  }

  /** Closes connections past their registration deadline. */
  private dropUnregistered() {
    const now = Date.now();
    for (const c of this.unregistered) {
      if (c.pending && now > c.pending.deadline) {
        this.unregistered.delete(c);
        c.socket.destroy();
      }
    }
  }

  /** Refuses a registration; a wrong secret is answered as an unknown IMEI (which IMEIs exist is not told). */
  private refuse(conn: Connection, why: 'invalid' | 'unknown' | 'secret', imei?: string) {
    this.refusals.hit({ remote: remoteOf(conn), why, imei });
    conn.socket.end(`ERR ${why === 'invalid' ? 'invalid' : 'unknown'}\n`);
    setTimeout(() => conn.socket.destroy(), 1000).unref();
  }

  private async register(conn: Connection, imei: string, secret: string): Promise<boolean> {
    const device = await this.imeis.get(imei);
    if (conn.socket.destroyed) return false;
    if (!device) {
      this.refuse(conn, 'unknown', imei);
      return false;
    }
    // an IMEI is printed on the device: only the secret proves it (and only then may it replace a connection)
    const expected = device.type === 'collector' ? device.secret : this.g.deps.security.secrets.fourG(imei);
    if (!secret || !expected || !sameText(secret, expected)) {
      this.refuse(conn, 'secret', imei);
      return false;
    }
    conn.imei = imei;
    conn.device = device;
    const old = this.byImei.get(imei);
    this.byImei.set(imei, conn);
    if (old && old !== conn) {
      old.replaced = true;
      old.channel?.close(new DeviceError('replaced'));
      this.log.info({ imei, old: remoteOf(old), now: remoteOf(conn) }, '设备重新连接，旧连接已关闭');
      old.socket.destroy();
    }
    conn.socket.write('OK\n');
    this.log.debug({ imei, type: device.type, id: device.id, remote: remoteOf(conn) }, '设备已注册');
    this.g.health.registeredNow(conn);
    return true;
  }

  /** The request channel of a registered connection. */
  private openChannel(conn: Connection): Channel {
    return new Channel({
      timeoutMs: this.g.deps.settings.replyTimeoutMs,
      retries: this.g.deps.settings.retries,
      send: (bytes, req) => {
        if (conn.socket.destroyed || !conn.socket.writable) throw new DeviceError('closed');
        conn.socket.write(bytes);
        if (req.log) this.g.buffer.report(conn.device!.companyId, null, collectorOf(conn), 'down', 'tcp', hex(bytes), { label: req.label }, '', req.expect?.address);
      },
      onReply: (req, d) => this.g.dialogue.replied(req, d, 'tcp', conn),
      onTimeout: (req) => void this.g.health.unanswered(req),
    });
  }

  private async disconnected(conn: Connection) {
    conn.channel?.close(new DeviceError(conn.replaced ? 'replaced' : 'closed'));
    if (!conn.device || conn.replaced || this.byImei.get(conn.imei) !== conn) return;
    this.byImei.delete(conn.imei);
    if (this.g.stopped) return;
    this.log.debug({ imei: conn.imei }, '设备已断开');
    await this.g.health.disconnected(conn);
  }

  /**
   * Bytes from a registered device: text packets (heartbeat) and frames, each handled as the
   * splitter finds it (frames read where they lie: no item or copy a frame on the routine path).
   */
  private receive(conn: Connection, chunk: Uint8Array) {
    const before = conn.splitter.stats.droppedBytes;
    this.receiving = conn;
    try {
      conn.splitter.feed(chunk, this.sink);
    } catch (e) {
      // neither the splitter nor the dialogue throws on input; if one did, this connection alone is affected
      this.log.error({ err: e, imei: conn.imei }, '报文切分异常');
      conn.splitter.reset();
      return;
    }
    const dropped = conn.splitter.stats.droppedBytes - before;
    if (dropped > 0) this.badInput(conn, hex(chunk.subarray(0, 512)), `丢弃无法识别的字节 ${dropped} 个`);
    this.g.health.connectionSeen(conn);
  }

  /** A text packet from a registered device. */
  private text(conn: Connection, raw: string, bytes: Uint8Array) {
    const text = raw.trim();
    if (text === 'HB') conn.socket.write('HB\n');
    else if (REG.test(text)) conn.socket.write('OK\n');
    else if (text) this.badInput(conn, hex(bytes.subarray(0, 512)), `无法识别的文本：${text.slice(0, 64)}`);
  }

  /** Malformed input from a connection: logged and written to the frame log (a budget a minute). */
  badInput(conn: Connection, hexText: string, error: string) {
    const minute = Math.floor(Date.now() / 60_000);
    if (conn.errorMinute !== minute) {
      conn.errorMinute = minute;
      conn.errorsUsed = 0;
    }
    if (conn.errorsUsed++ >= ERROR_REPORTS_PER_MINUTE) return;
    this.log.warn({ imei: conn.imei, error }, '设备报文异常，已丢弃');
    const d = conn.device!;
    this.g.buffer.report(d.companyId, d.type === 'meter' ? d.id : null, collectorOf(conn), 'up', 'tcp', hexText, null, error);
  }

  /** Closes connections silent for three heartbeat intervals. */
  sweep() {
    const limit = 3 * this.g.deps.settings.heartbeatSeconds * 1000;
    const now = Date.now();
    if (this.g.buffer.paused) {
      // nothing is read while paused: silence is ours, not the devices'
      for (const c of this.conns) c.lastRx = now;
      return;
    }
    for (const c of this.conns) {
      if (c.device && now - c.lastRx > limit) {
        this.log.info({ imei: c.imei }, '心跳超时，断开设备连接');
        c.socket.destroy();
      }
    }
  }
}
