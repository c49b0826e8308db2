import net from 'node:net';
import type { Logger } from 'pino';
import type { MqttClient } from 'mqtt';
import { FrameSplitter, fromHex } from '@meter/protocol';
import { SYSTEM_SCOPE, type Db } from '../db/client.ts';
import { LEASE, leaseKeyOf, SessionLease } from '../db/lease.ts';
import { databaseUnavailable } from '../db/unavailable.ts';
import type { EventBus, DeviceEvent } from '../modules/realtime/index.ts';
import { controlRepo, ingestReadings, raiseWarnings, SOURCE, type IngestItem, type Route } from '../modules/control/index.ts';
import { Channel, DeviceError, type RequestOptions } from './channel.ts';
import { RemoteServer } from './serve-remote.ts';
import { decodeFrame, factsOf, hex, singleFrame, type Decoded, type DeviceRequest, type Protocol } from './frames.ts';
import { MeterCache } from './meter-cache.ts';
import * as repo from './repo.ts';
import { LogThrottle, sameText, signDown, type DeviceSecrets, type Sealer } from './security.ts';
import { ingestBufferDepth, readingsStored as readingsStoredMetric } from '../ops/metrics.ts';

// The device gateway (docs/DEVICE-WIRE.md): a TCP listener for collectors/DTUs and 4G meters
// (registration by IMEI, heartbeat, transparent DL/T 645 / CJ/T 188 frames) and the MQTT channel of
// NB/4G meters (meter/<address>/up|down). It answers "send this frame to that meter and give me
// the reply" (transact) for the command worker, and stores what devices report by themselves.
// Devices authenticate: a collector registers with its archive's secret (a 4G meter with one derived
// from the server secret), and its reports count only for the meters behind it; MQTT down messages
// are signed with the meter's key; gateway/exec requests must be signed and fresh (security.ts).

export interface GatewaySettings {
  host: string;
  /** 0 = any free port (tests) */
  port: number;
  heartbeatSeconds: number;
  replyTimeoutMs: number;
  retries: number;
  /**
   * may serve the MQTT meter channel: the one gateway holding the lease in PostgreSQL does
   * (db/lease.ts); the others wait and take over within `mqttLeaseRetryMs` of the holder's death
   */
  mqttMeters: boolean;
  /** how often a standby gateway tries to take the MQTT meter lease (default 2000 ms) */
  mqttLeaseRetryMs?: number;
  /** prepended to every MQTT topic (default '') */
  topicPrefix?: string;
  /**
   * Which frames go to device_reports: 'all', or 'control' (default): control frames and their
   * replies, malformed input, and reports not stored as readings. Every reading is in `readings`
   * anyway; logging every routine report would double the rows written per reading.
   */
  frameLog?: 'all' | 'control';
}

export interface GatewayDeps {
  db: Db;
  bus: EventBus;
  log: Logger;
  /** the MQTT connection for meter/+/up|down (and remote requests) */
  mqtt?: MqttClient;
  settings: GatewaySettings;
  /** device credentials and the signer of internal messages */
  security: { secrets: DeviceSecrets; sealer: Sealer };
}

/** What the worker needs from a gateway: a frame to a meter, and its reply. */
export interface GatewayClient {
  transact(route: Route, req: DeviceRequest): Promise<Decoded | null>;
}

interface Connection {
  id: number;
  socket: net.Socket;
  remote: string;
  imei: string;
  device: repo.RegisteredDevice | null;
  splitter: FrameSplitter;
  channel: Channel | null;
  lastRx: number;
  replaced: boolean;
  /** error reports written in the current minute (a babbling device must not flood the log) */
  errorBudget: { minute: number; used: number };
}

/** `REG <imei> <secret>` (the secret: the collector's reg_secret, or a 4G meter's derived one) */
const REG = /^REG\s+(\d{15})(?:\s+([\x21-\x7e]{1,64}))?$/;
const MAX_PRE_REGISTRATION = 256;
const ERROR_REPORTS_PER_MINUTE = 20;
/**
 * Readings waiting to be stored: above HIGH the gateway stops reading sockets (TCP backpressure), below
 * LOW it resumes. HIGH is two full batches: beyond that, reading more only makes every event-loop turn
 * longer, and with it every database round trip of the batch being stored (measured: a first batch of
 * 5,000 rows took 2 s while 75,000 more piled up behind it).
 */
const QUEUE_HIGH = 40_000;
const QUEUE_LOW = 20_000;
/**
 * The bound of readings held in memory. TCP devices stop being read at QUEUE_HIGH; MQTT messages
 * cannot be paused, so their reports beyond this bound are dropped — with an error in the log.
 */
const QUEUE_MAX = 200_000;
/** a batch that meets a database outage is tried again after at most this long */
const RETRY_MAX_MS = 2_000;
/** at stop, a database still away is waited for this long before what is buffered is given up */
const STOP_GRACE_MS = 10_000;
/** device reports (frame log) kept for the database at most */
const REPORTS_MAX = 50_000;
/**
 * Reported readings are stored in lanes by meter id (id mod INGEST_LANES): a lane stores its batches
 * one after the other, so each meter's readings reach the database in the order they came; the lanes
 * run concurrently and hold disjoint ingest locks (INGEST_LANES divides the lock's bucket count), so
 * while one lane waits for its commit another is written. A lane starts once LANE_START readings wait,
 * or LANE_LINGER_MS after a reading came to an idle gateway (a last few readings do not wait for the
 * 500 ms flush), and takes at most LANE_BATCH at a time.
 */
const INGEST_LANES = 4;
const LANE_START = 2_500;
const LANE_BATCH = 10_000;
const LANE_LINGER_MS = 20;

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

export class Gateway implements GatewayClient {
  private server: net.Server | undefined;
  private readonly byImei = new Map<string, Connection>();
  private readonly conns = new Set<Connection>();
  private readonly mqttChannels = new Map<string, Channel>();
  private readonly mqttOnline = new Map<string, boolean>();
  private readonly meters: MeterCache;
  private readonly imeis: ImeiLookup;
  private readonly refusals: LogThrottle;
  private readonly strangers: LogThrottle;
  private readonly mqttJunk: LogThrottle;
  private readonly unknownAddress: LogThrottle;
  /** malformed MQTT reports written to device_reports in the current minute (all meters together) */
  private mqttErrorBudget = { minute: 0, used: 0 };
  private readonly downNonce = { n: 0, base: Math.random().toString(36).slice(2, 8) };
  /**
   * Times kept per meter are ms since this gateway started (small integers: a map holds them
   * without allocating a number object per update, which at thousands of reports a second shows).
   */
  private readonly since = Date.now();
  /** last frame time (ms since start) of devices seen since the last write */
  private seenCollectors = new Map<number, number>();
  private seenMeters = new Map<number, number>();
  private readonly nowOnline = new Set<number>();
  private readonly lastReadAt = new Map<number, number>();
  private paused = false;
  private pauses = 0;
  private pauseLoggedAt = 0;
  private linger: NodeJS.Timeout | undefined;
  private readonly lingered = () => {
    this.linger = undefined;
    for (let i = 0; i < this.lanes.length; i++) if (this.lanes[i].length) void this.runLane(i);
  };
  private registered: Connection[] = [];
  private reports: repo.ReportRow[] = [];
  private readonly lanes: IngestItem[][] = Array.from({ length: INGEST_LANES }, () => []);
  private readonly laneRuns: (Promise<void> | undefined)[] = new Array(INGEST_LANES).fill(undefined);
  /** readings in the lanes, not yet taken into a batch */
  private queued = 0;
  /** reported readings committed since start (new ones; repeats of a stored reading do not count) */
  private readingsStored = 0;
  private timers: NodeJS.Timeout[] = [];
  private nextId = 1;
  private flushing: Promise<void> | undefined;
  private stopped = false;
  private remote: RemoteServer | undefined;
  private mqttLease: SessionLease | undefined;
  private mqttServing = false;
  private mqttListening = false;
  private stopDeadline = Infinity;
  /** since when stored batches fail because the database is away (0: it is not) */
  private outageSince = 0;
  private outageLoggedAt = 0;
  /** MQTT reports dropped at QUEUE_MAX since the last log line */
  private dropped = 0;
  private droppedLoggedAt = 0;

  constructor(private readonly deps: GatewayDeps) {
    this.meters = new MeterCache(deps.db, deps.log);
    this.imeis = new ImeiLookup(deps.db);
    this.refusals = new LogThrottle(deps.log, '设备注册被拒绝');
    this.strangers = new LogThrottle(deps.log, '上报的表具不属于该连接的采集器，已丢弃');
    this.mqttJunk = new LogThrottle(deps.log, 'MQTT 上报异常，已丢弃');
    this.unknownAddress = new LogThrottle(deps.log, 'MQTT 上报的表具地址未登记，已丢弃');
  }

  get log() {
    return this.deps.log;
  }

  private get prefix() {
    return this.deps.settings.topicPrefix ?? '';
  }

  /** the TCP port actually listened on */
  get port(): number {
    return (this.server?.address() as net.AddressInfo | null)?.port ?? 0;
  }

  stats() {
    return {
      connections: this.byImei.size,
      sockets: this.conns.size,
      mqttMeters: this.mqttChannels.size,
      readingsStored: this.readingsStored,
      /** readings waiting to be stored, and reports waiting for their meter to be looked up */
      backlog: this.queued + this.meters.pending,
      databaseDownMs: this.outageSince ? Date.now() - this.outageSince : 0,
    };
  }

  async start() {
    const s = this.deps.settings;
    this.server = net.createServer((socket) => this.accept(socket));
    this.server.maxConnections = 100_000;
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(s.port, s.host, () => {
        this.server!.off('error', reject);
        resolve();
      });
    });
    const hbMs = s.heartbeatSeconds * 1000;
    this.timers.push(setInterval(() => this.sweep(), Math.max(200, Math.min(5000, hbMs / 2))));
    this.timers.push(setInterval(() => this.kick(), 500));
    this.timers.push(setInterval(() => void this.flushOnline(), 200));
    this.timers.push(setInterval(() => void this.flushRegistered(), 200));
    this.timers.push(setInterval(() => void this.flushSeen(), Math.max(1000, Math.min(15_000, hbMs))));
    for (const t of this.timers) t.unref();
    if (this.deps.mqtt && s.mqttMeters) {
      const client = this.deps.mqtt;
      this.mqttLease = new SessionLease({
        db: this.deps.db,
        key: LEASE.mqttMeters,
        sub: leaseKeyOf(this.prefix),
        log: this.log,
        name: 'MQTT 表具通道',
        retryMs: s.mqttLeaseRetryMs ?? 2000,
        pingMs: Math.min(2000, s.mqttLeaseRetryMs ?? 2000),
        onAcquired: () => this.startMqtt(client),
        onLost: () => this.stopMqtt(client),
      });
      await this.mqttLease.start();
      if (!this.mqttLease.held) this.log.info('另一网关正在服务 MQTT 表具，本网关待命（对方退出后自动接管）');
    }
    if (this.deps.mqtt) {
      this.remote = new RemoteServer(this, this.deps.mqtt, this.deps.db, this.log, this.deps.security.sealer, this.prefix);
      await this.remote.start();
    }
    this.log.info({ port: this.port }, '设备网关已启动');
  }

  async stop() {
    this.stopped = true;
    this.stopDeadline = Date.now() + STOP_GRACE_MS;
    await this.mqttLease?.stop();
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.linger);
    for (const c of this.conns) c.socket.destroy();
    for (const ch of this.mqttChannels.values()) ch.close(new DeviceError('closed'));
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    await this.flush();
    await this.flushRegistered();
    await this.flushOnline();
    await this.flushSeen();
  }

  /** Does this gateway hold a way to the meter? */
  holds(route: Route): boolean {
    if (route.imei && this.byImei.has(route.imei)) return true;
    return route.mqtt && this.mqttServing && this.mqttOnline.get(route.address) !== false;
  }

  transact(route: Route, req: DeviceRequest, opts?: RequestOptions): Promise<Decoded | null> {
    if (this.stopped) return Promise.reject(new DeviceError('offline'));
    if (route.imei) {
      const conn = this.byImei.get(route.imei);
      if (conn?.channel) return conn.channel.request(req, opts);
    }
    if (route.mqtt && this.mqttServing) {
      if (this.mqttOnline.get(route.address) === false) return Promise.reject(new DeviceError('offline'));
      return this.mqttChannel(route.address).request(req, opts);
    }
    return Promise.reject(new DeviceError('offline'));
  }

  // -------------------------------------------------------------------------------------------
  // TCP
  // -------------------------------------------------------------------------------------------

  private accept(socket: net.Socket) {
    socket.setNoDelay(true);
    socket.setKeepAlive(true, 60_000);
    const conn: Connection = {
      id: this.nextId++,
      socket,
      remote: `${socket.remoteAddress}:${socket.remotePort}`,
      imei: '',
      device: null,
      splitter: new FrameSplitter({ minTextLength: 2 }),
      channel: null,
      lastRx: Date.now(),
      replaced: false,
      errorBudget: { minute: 0, used: 0 },
    };
    this.conns.add(conn);
    if (this.paused) socket.pause();
    let pre: Buffer | null = Buffer.alloc(0);
    let registering = false;
    const registerTimer = setTimeout(() => {
      if (!conn.device) socket.destroy();
    }, Math.max(5000, this.deps.settings.heartbeatSeconds * 1000));
    registerTimer.unref();

    socket.on('data', (chunk: Buffer) => {
      conn.lastRx = Date.now();
      if (conn.device) {
        this.receive(conn, chunk);
        return;
      }
      if (pre === null) return; // registration under way: drop until answered
      pre = Buffer.concat([pre, chunk]);
      if (registering) return;
      const nl = pre.indexOf(0x0a);
      if (nl < 0) {
        if (pre.length > MAX_PRE_REGISTRATION) this.refuse(conn, 'invalid');
        return;
      }
      const line = pre.subarray(0, nl).toString('latin1').replace(/\r$/, '').trim();
      const m = REG.exec(line);
      if (!m) {
        this.refuse(conn, 'invalid');
        return;
      }
      registering = true;
      void this.register(conn, m[1], m[2] ?? '').then(
        (ok) => {
          clearTimeout(registerTimer);
          const rest = pre!.subarray(nl + 1);
          pre = null;
          if (ok && rest.length) this.receive(conn, rest);
        },
        (e) => {
          this.log.error({ err: e, imei: m[1] }, '设备注册失败');
          socket.destroy();
        },
      );
    });
    socket.on('error', () => {}); // a reset connection ends in 'close'
    socket.on('close', () => {
      clearTimeout(registerTimer);
      this.conns.delete(conn);
      void this.disconnected(conn);
    });
  }

  /** Refuses a registration; a wrong secret is answered as an unknown IMEI (which IMEIs exist is not told). */
  private refuse(conn: Connection, why: 'invalid' | 'unknown' | 'secret', imei?: string) {
    this.refusals.hit({ remote: conn.remote, why, imei });
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
    const expected = device.type === 'collector' ? device.secret : this.deps.security.secrets.fourG(imei);
    if (!secret || !expected || !sameText(secret, expected)) {
      this.refuse(conn, 'secret', imei);
      return false;
    }
    conn.imei = imei;
    conn.device = device;
    conn.channel = new Channel({
      timeoutMs: this.deps.settings.replyTimeoutMs,
      retries: this.deps.settings.retries,
      send: (bytes, req) => {
        if (conn.socket.destroyed || !conn.socket.writable) throw new DeviceError('closed');
        conn.socket.write(bytes);
        if (req.log) this.report(conn.device!.companyId, null, this.collectorOf(conn), 'down', 'tcp', hex(bytes), { label: req.label }, '', req.expect?.address);
      },
      onReply: (req, d) => this.replied(req, d, 'tcp', conn),
      onTimeout: (req) => void this.unanswered(req),
    });
    const old = this.byImei.get(imei);
    this.byImei.set(imei, conn);
    if (old && old !== conn) {
      old.replaced = true;
      old.channel?.close(new DeviceError('replaced'));
      old.socket.destroy();
      this.log.info({ imei, old: old.remote, now: conn.remote }, '设备重新连接，旧连接已关闭');
    }
    conn.socket.write('OK\n');
    this.log.debug({ imei, type: device.type, id: device.id, remote: conn.remote }, '设备已注册');
    this.registered.push(conn);
    if (this.registered.length >= 500) void this.flushRegistered();
    return true;
  }

  private collectorOf(conn: Connection) {
    return conn.device?.type === 'collector' ? conn.device.id : null;
  }

  /**
   * Registered devices are marked online in batches (a reconnect storm of thousands of devices costs
   * a few statements, not a transaction each); only connections still current are written.
   */
  private async flushRegistered() {
    if (!this.registered.length) return;
    const batch = this.registered.splice(0).filter((c) => this.byImei.get(c.imei) === c && c.device);
    if (!batch.length) return;
    const collectors = batch.filter((c) => c.device!.type === 'collector');
    const meters = batch.filter((c) => c.device!.type === 'meter');
    const events: DeviceEvent[] = [];
    try {
      await this.deps.db.tx(SYSTEM_SCOPE, async (tx) => {
        const changed = new Set(await repo.setCollectorsOnline(tx, collectors.map((c) => c.device!.id)));
        for (const c of collectors) {
          const d = c.device!;
          if (changed.has(d.id)) events.push({ companyId: d.companyId, kind: 'online', body: { collectorId: d.id, imei: c.imei, areaId: d.areaId, online: true } });
        }
        for (const m of await repo.setMetersOnline(tx, meters.map((c) => c.device!.id), true)) {
          events.push({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, address: m.address, areaId: m.areaId, online: true } });
        }
        await controlRepo.resolveOfflineWarnings(tx, collectors.map((c) => c.device!.id), meters.map((c) => c.device!.id), '设备已恢复在线（自动）');
      });
    } catch (e) {
      this.log.error({ err: e }, '写入在线状态失败');
    }
    this.deps.bus.emitAll(events);
  }

  private async disconnected(conn: Connection) {
    conn.channel?.close(new DeviceError(conn.replaced ? 'replaced' : 'closed'));
    if (!conn.device || conn.replaced || this.byImei.get(conn.imei) !== conn) return;
    this.byImei.delete(conn.imei);
    if (this.stopped) return;
    const device = conn.device;
    this.log.debug({ imei: conn.imei, remote: conn.remote }, '设备已断开');
    try {
      const events: DeviceEvent[] = [];
      await this.deps.db.tx(SYSTEM_SCOPE, async (tx) => {
        if (device.type === 'collector') {
          if (await repo.setCollectorOnline(tx, device.id, false)) {
            events.push({ companyId: device.companyId, kind: 'online', body: { collectorId: device.id, imei: conn.imei, areaId: device.areaId, online: false } });
          }
        } else {
          for (const m of await repo.setMetersOnline(tx, [device.id], false)) {
            events.push({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, imei: conn.imei, address: m.address, areaId: m.areaId, online: false } });
          }
        }
      });
      this.deps.bus.emitAll(events);
    } catch (e) {
      this.log.error({ err: e }, '写入离线状态失败');
    }
  }

  /** Bytes from a registered device: text packets (heartbeat) and frames. */
  private receive(conn: Connection, chunk: Uint8Array) {
    const before = conn.splitter.stats.droppedBytes;
    let items;
    try {
      items = conn.splitter.push(chunk);
    } catch (e) {
      // the splitter never throws on input; if it did, this connection alone is affected
      this.log.error({ err: e, imei: conn.imei }, '报文切分异常');
      conn.splitter.reset();
      return;
    }
    const dropped = conn.splitter.stats.droppedBytes - before;
    if (dropped > 0) this.badInput(conn, hex(chunk.subarray(0, 512)), `丢弃无法识别的字节 ${dropped} 个`);
    for (const item of items) {
      if (item.kind === 'text') {
        const text = item.text.trim();
        if (text === 'HB') conn.socket.write('HB\n');
        else if (REG.test(text)) conn.socket.write('OK\n');
        else if (text) this.badInput(conn, hex(item.bytes.subarray(0, 512)), `无法识别的文本：${text.slice(0, 64)}`);
        continue;
      }
      this.frame(conn, item.protocol, item.bytes, 'tcp');
    }
    this.seen(conn);
  }

  private seen(conn: Connection) {
    const d = conn.device;
    if (!d) return;
    if (d.type === 'collector') this.seenCollectors.set(d.id, conn.lastRx - this.since);
    else this.seenMeters.set(d.id, conn.lastRx - this.since);
  }

  private badInput(conn: Connection, hexText: string, error: string) {
    const minute = Math.floor(Date.now() / 60_000);
    if (conn.errorBudget.minute !== minute) conn.errorBudget = { minute, used: 0 };
    if (conn.errorBudget.used++ >= ERROR_REPORTS_PER_MINUTE) return;
    this.log.warn({ imei: conn.imei, error }, '设备报文异常，已丢弃');
    const d = conn.device!;
    this.report(d.companyId, d.type === 'meter' ? d.id : null, this.collectorOf(conn), 'up', 'tcp', hexText, null, error);
  }

  /** One checksum-valid frame from a connection or an MQTT message. */
  private frame(conn: Connection | null, protocol: Protocol, bytes: Uint8Array, channel: 'tcp' | 'mqtt', mqttAddress?: string) {
    let d: Decoded;
    try {
      d = decodeFrame(protocol, bytes);
    } catch (e) {
      const error = `报文解析失败：${(e as Error).message}`;
      if (conn) this.badInput(conn, hex(bytes), error);
      else void this.mqttBadInput(mqttAddress!, hex(bytes), error);
      return;
    }
    const ch = conn ? conn.channel : this.mqttChannels.get(mqttAddress!);
    if (ch?.offer(d)) return;
    this.unsolicited(conn, d, channel);
  }

  /**
   * A frame nobody asked for: a meter's own report, or a reply that came too late. Handled at once
   * when the meter is cached (the usual case: no promise per frame), else once it is looked up.
   */
  private unsolicited(conn: Connection | null, d: Decoded, channel: 'tcp' | 'mqtt') {
    const cached = this.meters.fresh(d.frame.address);
    if (cached !== undefined) this.report1(conn, d, channel, cached);
    else {
      void this.meters.get(d.frame.address).then(
        (m) => this.report1(conn, d, channel, m),
        (e) => this.log.error({ err: e }, '处理设备上报失败'),
      );
      // reports waiting for a lookup the database does not answer are backlog too
      if (this.queued + this.meters.pending >= QUEUE_HIGH && !this.paused) this.pauseAll();
    }
  }

  private report1(conn: Connection | null, d: Decoded, channel: 'tcp' | 'mqtt', meter: repo.MeterRef | null) {
    const f = d.frame;
    const companyId = meter?.companyId ?? conn?.device?.companyId;
    if (companyId === undefined) {
      this.unknownAddress.hit({ address: f.address });
      return;
    }
    const collectorId = conn ? this.collectorOf(conn) : null;
    if (!meter || (conn?.device && meter.companyId !== conn.device.companyId)) {
      if (conn) this.badInput(conn, d.hex, `未登记的表具地址 ${f.address}`);
      return;
    }
    // a connection speaks only for the meters behind it: its collector's, or the 4G meter itself
    if (conn?.device && (conn.device.type === 'collector' ? meter.collectorId !== conn.device.id : meter.id !== conn.device.id)) {
      this.strangers.hit({ imei: conn.imei, address: f.address });
      this.badInput(conn, d.hex, `表具 ${f.address} 不属于该采集器，已丢弃`);
      return;
    }
    if (f.direction !== 'response') {
      this.report(companyId, meter.id, collectorId, 'up', channel, d.hex, summarize(d), '设备发来的是请求帧，已忽略');
      return;
    }
    const facts = factsOf(d);
    if (facts.total === undefined || this.deps.settings.frameLog === 'all') {
      this.report(companyId, meter.id, collectorId, 'up', channel, d.hex, { ...summarize(d), facts }, '');
    }
    this.meterSeen(meter);
    if (facts.total !== undefined && this.queued >= QUEUE_MAX) {
      // only MQTT gets here (TCP reading stopped at QUEUE_HIGH): memory stays bounded, loudly
      this.dropped++;
      if (Date.now() - this.droppedLoggedAt >= 10_000) {
        this.log.error({ dropped: this.dropped, queued: this.queued, bound: QUEUE_MAX }, '上报读数积压已达上限，MQTT 上报读数被丢弃');
        this.droppedLoggedAt = Date.now();
        this.dropped = 0;
      }
    } else if (facts.total !== undefined) {
      // the facts are this frame's own: their registers are completed in place
      const registers = facts.registers ?? {};
      if (facts.batteryLow !== undefined) registers.batteryLow = facts.batteryLow;
      if (facts.valve !== undefined) registers.valve = facts.valve;
      const lane = this.lanes[meter.id % INGEST_LANES];
      lane.push({
        meter, // a MeterRef is a MeterIdent; the cache replaces refs, never changes one
        readAt: this.readTime(meter.id),
        total: facts.total,
        registers,
        source: SOURCE.report,
        valve: facts.valve,
      });
      this.queued++;
      ingestBufferDepth.set(this.queued);
      if (lane.length >= LANE_START) void this.runLane(meter.id % INGEST_LANES);
      else if (!this.linger) this.linger = setTimeout(this.lingered, LANE_LINGER_MS);
      if (this.queued + this.meters.pending >= QUEUE_HIGH && !this.paused) this.pauseAll();
    }
    if (facts.batteryLow) void this.lowBattery(meter);
  }

  private async lowBattery(meter: repo.MeterRef) {
    try {
      const events = await this.deps.db.tx(SYSTEM_SCOPE, (tx) =>
        raiseWarnings(tx, [{ companyId: meter.companyId, meterId: meter.id, collectorId: null, areaId: meter.areaId, kind: 'low_battery', detail: { reportedAt: new Date().toISOString() } }]),
      );
      this.deps.bus.emitAll(events);
    } catch (e) {
      this.log.error({ err: e }, '写入低电量告警失败');
    }
  }

  private replied(req: DeviceRequest, d: Decoded, channel: 'tcp' | 'mqtt', conn: Connection | null) {
    const meter = this.meters.peek(d.frame.address);
    if (meter) this.meterSeen(meter);
    else void this.meters.get(d.frame.address).then((m) => m && this.meterSeen(m));
    if (req.log && (meter || conn?.device)) {
      const companyId = meter?.companyId ?? conn!.device!.companyId;
      this.report(companyId, meter?.id ?? null, conn ? this.collectorOf(conn) : null, 'up', channel, d.hex, { label: req.label, ...summarize(d) }, '', d.frame.address);
    }
  }

  /**
   * When a report was read: now, but strictly after this meter's previous report, so that a burst
   * of reports handled within one millisecond stays a series of readings instead of collapsing
   * into one (readings are unique per meter and instant).
   */
  private readTime(meterId: number): Date {
    const now = Date.now() - this.since;
    const last = this.lastReadAt.get(meterId) ?? -1;
    const t = now > last ? now : last + 1;
    this.lastReadAt.set(meterId, t);
    return new Date(this.since + t);
  }

  /** A meter answered or reported: online, and seen now (written in batches). */
  private meterSeen(meter: repo.MeterRef) {
    this.seenMeters.set(meter.id, Date.now() - this.since);
    if (!meter.online) {
      this.meters.update(meter.address, { online: true });
      this.nowOnline.add(meter.id);
      if (this.nowOnline.size >= 1000) void this.flushOnline();
    }
  }

  /** Meters that came online since the last write: one statement, one event each. */
  private async flushOnline() {
    if (!this.nowOnline.size) return;
    const ids = [...this.nowOnline];
    this.nowOnline.clear();
    try {
      const changed = await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.setMetersOnline(tx, ids, true));
      for (const m of changed) this.deps.bus.emit({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, address: m.address, areaId: m.areaId, online: true } });
    } catch (e) {
      this.log.error({ err: e }, '写入在线状态失败');
      for (const id of ids) this.nowOnline.add(id); // written once the database is back
    }
  }

  /** A meter behind a live connection did not answer: it is offline. */
  private async unanswered(req: DeviceRequest) {
    if (!req.expect) return;
    const meter = await this.meters.get(req.expect.address);
    if (!meter?.online) return;
    this.meters.update(meter.address, { online: false });
    try {
      const changed = await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.setMetersOnline(tx, [meter.id], false));
      for (const m of changed) this.deps.bus.emit({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, address: m.address, areaId: m.areaId, online: false } });
    } catch (e) {
      this.log.error({ err: e }, '写入离线状态失败');
    }
  }

  /** Closes connections silent for three heartbeat intervals. */
  private sweep() {
    const limit = 3 * this.deps.settings.heartbeatSeconds * 1000;
    const now = Date.now();
    if (this.paused) {
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

  // -------------------------------------------------------------------------------------------
  // MQTT meters
  // -------------------------------------------------------------------------------------------

  private mqttChannel(address: string): Channel {
    let ch = this.mqttChannels.get(address);
    if (!ch || ch.closed) {
      const client = this.deps.mqtt!;
      ch = new Channel({
        timeoutMs: this.deps.settings.replyTimeoutMs,
        retries: this.deps.settings.retries,
        send: (bytes, req) => {
          if (!client.connected) throw new DeviceError('offline');
          client.publish(`${this.prefix}meter/${address}/down`, this.down(address, req.ref ?? 0, hex(bytes)), { qos: 1 });
          if (req.log) {
            const m = this.meters.peek(address);
            if (m) this.report(m.companyId, m.id, null, 'down', 'mqtt', hex(bytes), { label: req.label }, '');
          }
        },
        onReply: (req, d) => this.replied(req, d, 'mqtt', null),
        onTimeout: (req) => void this.unanswered(req),
      });
      this.mqttChannels.set(address, ch);
    }
    return ch;
  }

  /** A down message signed with the meter's key, valid for a minute, with a nonce the meter remembers. */
  private down(address: string, id: number, frame: string): string {
    const topic = `${this.prefix}meter/${address}/down`;
    const nonce = `${this.downNonce.base}${(this.downNonce.n++).toString(36)}`;
    return signDown(this.deps.security.secrets.meter(address).password, topic, id, frame, Date.now() + 60_000, nonce);
  }

  /** The lease is ours: serve the MQTT meters. */
  private async startMqtt(client: MqttClient) {
    if (!this.mqttListening) {
      this.mqttListening = true;
      client.on('message', (topic, payload) => {
        if (!this.mqttServing || !topic.startsWith(this.prefix)) return;
        const m = /^meter\/([0-9A-Fa-f]{1,16})\/up$/.exec(topic.slice(this.prefix.length));
        if (m) void this.mqttUp(m[1], payload);
      });
    }
    this.mqttServing = true;
    await client.subscribeAsync(`${this.prefix}meter/+/up`, { qos: 1 });
    this.log.info('本网关开始服务 MQTT 表具');
  }

  /** The lease is lost: stop at once (another gateway may take it). */
  private async stopMqtt(client: MqttClient) {
    this.mqttServing = false;
    for (const ch of this.mqttChannels.values()) ch.close(new DeviceError('offline'));
    this.mqttChannels.clear();
    await client.unsubscribeAsync(`${this.prefix}meter/+/up`).catch(() => {});
  }

  /** serving the MQTT meters now (holds the lease) */
  get servesMqttMeters() {
    return this.mqttServing;
  }

  private async mqttUp(address: string, payload: Buffer) {
    let msg: { frame?: unknown; online?: unknown };
    try {
      msg = JSON.parse(payload.toString('utf8'));
      if (!msg || typeof msg !== 'object') throw new Error('not an object');
    } catch {
      await this.mqttBadInput(address, payload.subarray(0, 256).toString('hex'), '上报内容不是有效的 JSON');
      return;
    }
    if (typeof msg.online === 'boolean') {
      this.mqttOnline.set(address, msg.online);
      if (!msg.online) this.mqttChannels.get(address)?.close(new DeviceError('offline'));
      if (!msg.online) this.mqttChannels.delete(address);
      const meter = await this.meters.get(address);
      if (!meter) return;
      if (msg.online) this.meterSeen(meter);
      else {
        this.meters.update(address, { online: false });
        const changed = await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.setMetersOnline(tx, [meter.id], false));
        for (const c of changed) this.deps.bus.emit({ companyId: c.companyId, kind: 'online', body: { meterId: c.id, address, areaId: c.areaId, online: false } });
      }
      return;
    }
    if (typeof msg.frame !== 'string') {
      await this.mqttBadInput(address, payload.subarray(0, 256).toString('hex'), '上报内容缺少 frame 字段');
      return;
    }
    let frame;
    try {
      frame = singleFrame(fromHex(msg.frame));
    } catch (e) {
      await this.mqttBadInput(address, msg.frame.slice(0, 1024), `报文无效：${(e as Error).message}`);
      return;
    }
    this.mqttOnline.set(address, true);
    this.frame(null, frame.protocol, frame.bytes, 'mqtt', address);
  }

  private async mqttBadInput(address: string, hexText: string, error: string) {
    this.mqttJunk.hit({ address, error });
    const minute = Math.floor(Date.now() / 60_000);
    if (this.mqttErrorBudget.minute !== minute) this.mqttErrorBudget = { minute, used: 0 };
    if (this.mqttErrorBudget.used++ >= ERROR_REPORTS_PER_MINUTE * 5) return;
    const meter = await this.meters.get(address);
    if (meter) this.report(meter.companyId, meter.id, null, 'up', 'mqtt', hexText, null, error);
  }

  // -------------------------------------------------------------------------------------------
  // Buffered writes
  // -------------------------------------------------------------------------------------------

  private report(
    companyId: number,
    meterId: number | null,
    collectorId: number | null,
    direction: 'up' | 'down',
    channel: 'tcp' | 'mqtt',
    hexText: string,
    decoded: Record<string, unknown> | null,
    error: string,
    address?: string,
  ) {
    this.reports.push({ companyId, meterId, collectorId, direction, channel, hex: hexText, decoded, error, at: new Date(), address });
  }

  /** Reported readings not yet being stored (backpressure, diagnostics). */
  get queuedReadings(): number {
    return this.queued;
  }

  /** Starts writing whatever is buffered (every 500 ms): lanes with readings and the frame log. */
  private kick() {
    for (let i = 0; i < this.lanes.length; i++) if (this.lanes[i].length) void this.runLane(i);
    if (this.paused && this.queued + this.meters.pending <= QUEUE_LOW) this.resumeAll();
    void this.flushReports();
  }

  /** Writes buffered reports and readings (at stop, and when tests ask); resolves once all are written. */
  async flush(): Promise<void> {
    for (;;) {
      const runs = this.lanes.map((l, i) => (l.length ? this.runLane(i) : this.laneRuns[i])).filter((r) => r !== undefined);
      const reports = this.flushReports();
      if (!runs.length) return reports;
      await Promise.all([...runs, reports]);
    }
  }

  /** Stores a lane's readings batch after batch until it is empty (one run per lane at a time). */
  private runLane(i: number): Promise<void> {
    const running = this.laneRuns[i];
    if (running) return running;
    const lane = this.lanes[i];
    const run = (async () => {
      await Promise.resolve(); // laneRuns[i] is set before the body runs
      try {
        while (lane.length) {
          const batch = lane.splice(0, LANE_BATCH);
          this.queued -= batch.length;
          ingestBufferDepth.set(this.queued);
          await this.ingest(batch);
          if (this.paused && this.queued + this.meters.pending <= QUEUE_LOW) this.resumeAll();
        }
      } finally {
        this.laneRuns[i] = undefined;
      }
    })();
    this.laneRuns[i] = run;
    return run;
  }

  /** Writes the buffered device reports (frame log). */
  private flushReports(): Promise<void> {
    if (this.flushing) return this.flushing;
    if (!this.reports.length) return Promise.resolve();
    this.flushing = (async () => {
      await Promise.resolve(); // this.flushing is set before the body runs
      try {
        while (this.reports.length) {
          const reports = this.reports.splice(0, 5000);
          // rows logged before their meter was known: resolve the address now
          for (const r of reports) {
            if (r.meterId === null && r.address) {
              const m = await this.meters.get(r.address);
              if (m && m.companyId === r.companyId) r.meterId = m.id;
            }
          }
          try {
            await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.insertReports(tx, reports));
          } catch (e) {
            this.log.error({ err: e }, '写入设备报文日志失败');
            if (!databaseUnavailable(e) || this.stopped) break;
            // kept for the database's return (bounded: the oldest go first)
            this.reports.unshift(...reports);
            if (this.reports.length > REPORTS_MAX) this.reports.splice(0, this.reports.length - REPORTS_MAX);
            break;
          }
        }
      } finally {
        this.flushing = undefined;
      }
    })();
    return this.flushing;
  }

  /** The database is behind: stop reading from devices until it catches up (memory stays bounded). */
  private pauseAll() {
    this.paused = true;
    for (const c of this.conns) c.socket.pause();
    // under a sustained burst this happens several times a second: logged once a minute, with a count
    this.pauses++;
    const now = Date.now();
    if (now - this.pauseLoggedAt >= 60_000) {
      this.log.warn(
        { queued: this.queued, lookups: this.meters.pending, bound: QUEUE_HIGH, pauses: this.pauses, databaseDown: this.outageSince > 0 },
        this.outageSince ? '数据库不可用，暂存的上报读数已达上限，暂停接收设备数据（一分钟内只记一次）' : '上报读数积压，暂停接收设备数据（一分钟内只记一次）',
      );
      this.pauseLoggedAt = now;
      this.pauses = 0;
    }
  }

  private resumeAll() {
    this.paused = false;
    for (const c of this.conns) c.socket.resume();
  }

  /**
   * Stores one batch of reported readings. While the database is away the batch is tried again until
   * it is stored (its lane waits behind it, the other lanes' readings wait in memory and TCP devices
   * stop being read at QUEUE_HIGH); a batch stored whose COMMIT was not confirmed is harmless to store
   * again (readings are unique per meter and instant). Any other error is tried three times.
   */
  private async ingest(readings: IngestItem[]) {
    for (let attempt = 1; ; attempt++) {
      try {
        const t0 = performance.now();
        const { events, stored } = await this.deps.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, readings, { results: false }));
        this.readingsStored += stored;
        readingsStoredMetric.inc(stored);
        this.log.debug({ readings: readings.length, ms: Math.round(performance.now() - t0) }, '上报读数已入库');
        if (this.outageSince) {
          this.log.info({ downMs: Date.now() - this.outageSince, queued: this.queued }, '数据库已恢复，暂存的上报读数正在写入');
          this.outageSince = 0;
        }
        this.deps.bus.emitAll(events);
        return;
      } catch (e) {
        if (databaseUnavailable(e) && Date.now() < this.stopDeadline) {
          const now = Date.now();
          if (!this.outageSince) {
            this.outageSince = now;
            this.outageLoggedAt = now;
            this.log.error({ err: e, queued: this.queued + readings.length }, '数据库不可用，上报读数暂存于内存，恢复后写入');
          } else if (now - this.outageLoggedAt >= 10_000) {
            this.outageLoggedAt = now;
            this.log.warn({ downMs: now - this.outageSince, queued: this.queued + readings.length, bound: QUEUE_HIGH }, '数据库仍不可用，上报读数暂存中');
          }
          await new Promise((r) => setTimeout(r, Math.min(RETRY_MAX_MS, 100 * attempt)));
          continue;
        }
        if (attempt < 3 && !databaseUnavailable(e)) {
          this.log.warn({ err: e, n: readings.length, attempt }, '写入上报读数失败，重试');
          await new Promise((r) => setTimeout(r, 200 * attempt));
          continue;
        }
        this.log.error({ err: e, n: readings.length }, '写入上报读数失败，已放弃该批');
        return;
      }
    }
  }

  private async flushSeen() {
    if (!this.seenCollectors.size && !this.seenMeters.size) return;
    const c = this.seenCollectors;
    const m = this.seenMeters;
    this.seenCollectors = new Map();
    this.seenMeters = new Map();
    try {
      const at = (seen: Map<number, number>) => new Map([...seen].map(([id, t]) => [id, this.since + t]));
      await this.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.touchLastSeen(tx, at(c), at(m)));
    } catch (e) {
      this.log.error({ err: e }, '写入最后通信时间失败');
      // kept for the next write (a newer time seen since wins)
      for (const [id, t] of c) if (!(this.seenCollectors.get(id)! >= t)) this.seenCollectors.set(id, t);
      for (const [id, t] of m) if (!(this.seenMeters.get(id)! >= t)) this.seenMeters.set(id, t);
    }
  }
}

/** A JSON-safe summary of a decoded frame for device_reports.decoded. */
export function summarize(d: Decoded): Record<string, unknown> {
  // the frame kinds carry different fields: read them by name (a missing one is undefined)
  const f = (key: string): unknown => Reflect.get(d.frame, key);
  const out: Record<string, unknown> = { protocol: d.protocol, kind: f('kind'), address: f('address'), control: f('control') };
  const dataId = f('dataIdHex'), values = f('values'), errors = f('errors'), status = f('status');
  if (typeof dataId === 'string') out.dataId = dataId;
  if (values && typeof values === 'object') out.values = values;
  if (errors) out.errors = errors;
  if (status && typeof status === 'object') out.status = status;
  return out;
}
