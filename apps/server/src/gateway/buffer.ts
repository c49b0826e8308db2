import { SYSTEM_SCOPE } from '../db/client.ts';
import { databaseUnavailable } from '../db/unavailable.ts';
import { ingestReadings, type IngestItem } from '../modules/control/index.ts';
import { ingestBufferDepth, readingsStored as readingsStoredMetric } from '../ops/metrics.ts';
import type { GatewayParts } from './context.ts';
import * as repo from './repo.ts';

// The gateway's buffered writes: reported readings (in lanes, with backpressure on the devices and
// patience through a database outage) and the frame log (device_reports).

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

export class IngestBuffer {
  private paused_ = false;
  private pauses = 0;
  private pauseLoggedAt = 0;
  private linger: NodeJS.Timeout | undefined;
  private readonly lingered = () => {
    this.linger = undefined;
    for (let i = 0; i < this.lanes.length; i++) if (this.lanes[i].length) void this.runLane(i);
  };
  private reports: repo.ReportRow[] = [];
  private readonly lanes: IngestItem[][] = Array.from({ length: INGEST_LANES }, () => []);
  private readonly laneRuns: (Promise<void> | undefined)[] = new Array(INGEST_LANES).fill(undefined);
  /** readings in the lanes, not yet taken into a batch */
  private queued = 0;
  /** reported readings committed since start (new ones; repeats of a stored reading do not count) */
  private stored = 0;
  private flushing: Promise<void> | undefined;
  private stopDeadline = Infinity;
  /** since when stored batches fail because the database is away (0: it is not) */
  private outageSince = 0;
  private outageLoggedAt = 0;
  /** MQTT reports dropped at QUEUE_MAX since the last log line */
  private dropped = 0;
  private droppedLoggedAt = 0;

  constructor(private readonly g: GatewayParts) {}

  private get log() {
    return this.g.log;
  }

  /** reading from devices is paused (the database is behind) */
  get paused() {
    return this.paused_;
  }

  /** Reported readings not yet being stored (backpressure, diagnostics). */
  get queuedReadings(): number {
    return this.queued;
  }

  /** reported readings committed since start */
  get readingsStored(): number {
    return this.stored;
  }

  /** since when the database is away (0: it is not) */
  get databaseDownSince(): number {
    return this.outageSince;
  }

  /** From now on a database still away is waited for STOP_GRACE_MS at most. */
  stopping() {
    this.stopDeadline = Date.now() + STOP_GRACE_MS;
  }

  /** No lane starts by itself any more (stop flushes them). */
  cancelLinger() {
    clearTimeout(this.linger);
  }

  report(
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

  /** Readings and lookups waiting have reached the high mark: stop reading from devices. */
  checkHigh() {
    if (this.queued + this.g.meters.pending >= QUEUE_HIGH && !this.paused_) this.pauseAll();
  }

  /** The bound of readings in memory is reached: a reading now is dropped (see drop). */
  get full() {
    return this.queued >= QUEUE_MAX;
  }

  /** A reading dropped at the bound (only MQTT gets here: TCP reading stopped at QUEUE_HIGH): memory stays bounded, loudly. */
  drop() {
    this.dropped++;
    if (Date.now() - this.droppedLoggedAt >= 10_000) {
      this.log.error({ dropped: this.dropped, queued: this.queued, bound: QUEUE_MAX }, '上报读数积压已达上限，MQTT 上报读数被丢弃');
      this.droppedLoggedAt = Date.now();
      this.dropped = 0;
    }
  }

  /** Queues a reported reading in its meter's lane. */
  add(meterId: number, item: IngestItem) {
    const lane = this.lanes[meterId % INGEST_LANES];
    lane.push(item);
    this.queued++; // the depth gauge is set when a batch is taken and every kick (500 ms), not a reading
    if (lane.length >= LANE_START) void this.runLane(meterId % INGEST_LANES);
    else if (!this.linger) this.linger = setTimeout(this.lingered, LANE_LINGER_MS);
    this.checkHigh();
  }

  /** Starts writing whatever is buffered (every 500 ms): lanes with readings and the frame log. */
  kick() {
    ingestBufferDepth.set(this.queued);
    for (let i = 0; i < this.lanes.length; i++) if (this.lanes[i].length) void this.runLane(i);
    if (this.paused_ && this.queued + this.g.meters.pending <= QUEUE_LOW) this.resumeAll();
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
          if (this.paused_ && this.queued + this.g.meters.pending <= QUEUE_LOW) this.resumeAll();
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
              const m = await this.g.meters.get(r.address);
              if (m && m.companyId === r.companyId) r.meterId = m.id;
            }
          }
          try {
            await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.insertReports(tx, reports));
          } catch (e) {
            this.log.error({ err: e }, '写入设备报文日志失败');
            if (!databaseUnavailable(e) || this.g.stopped) break;
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
    this.paused_ = true;
    this.g.listener.pauseAll();
    // under a sustained burst this happens several times a second: logged once a minute, with a count
    this.pauses++;
    const now = Date.now();
    if (now - this.pauseLoggedAt >= 60_000) {
      this.log.warn(
        { queued: this.queued, lookups: this.g.meters.pending, bound: QUEUE_HIGH, pauses: this.pauses, databaseDown: this.outageSince > 0 },
        this.outageSince ? '数据库不可用，暂存的上报读数已达上限，暂停接收设备数据（一分钟内只记一次）' : '上报读数积压，暂停接收设备数据（一分钟内只记一次）',
      );
      this.pauseLoggedAt = now;
      this.pauses = 0;
    }
  }

  private resumeAll() {
    this.paused_ = false;
    this.g.listener.resumeAll();
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
        const { events, stored } = await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) => ingestReadings(tx, readings, { results: false }));
        this.stored += stored;
        readingsStoredMetric.inc(stored);
        this.log.debug({ readings: readings.length, ms: Math.round(performance.now() - t0) }, '上报读数已入库');
        if (this.outageSince) {
          this.log.info({ downMs: Date.now() - this.outageSince, queued: this.queued }, '数据库已恢复，暂存的上报读数正在写入');
          this.outageSince = 0;
        }
        this.g.deps.bus.emitAll(events);
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
}
