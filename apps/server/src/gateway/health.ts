import { SYSTEM_SCOPE } from '../db/client.ts';
import type { DeviceEvent } from '../modules/realtime/index.ts';
import { clearOfflineWarnings, raiseWarnings } from '../modules/control/index.ts';
import type { GatewayParts } from './context.ts';
import type { DeviceRequest } from './frames.ts';
import type { Connection } from './listener.ts';
import * as repo from './repo.ts';

// The devices' health as the gateway sees it: online and offline (written in batches, one event
// each), when each was last heard from, low battery, and the time of a reading.

export class DeviceHealth {
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
  private registered: Connection[] = [];

  constructor(private readonly g: GatewayParts) {}

  private get log() {
    return this.g.log;
  }

  /** A device registered: marked online with the next batch. */
  registeredNow(conn: Connection) {
    this.registered.push(conn);
    if (this.registered.length >= 500) void this.flushRegistered();
  }

  /**
   * Registered devices are marked online in batches (a reconnect storm of thousands of devices costs
   * a few statements, not a transaction each); only connections still current are written.
   */
  async flushRegistered() {
    if (!this.registered.length) return;
    const batch = this.registered.splice(0).filter((c) => this.g.listener.current(c) && c.device);
    if (!batch.length) return;
    const collectors = batch.filter((c) => c.device!.type === 'collector');
    const meters = batch.filter((c) => c.device!.type === 'meter');
    const events: DeviceEvent[] = [];
    try {
      await this.g.deps.db.tx(SYSTEM_SCOPE, async (tx) => {
        const changed = new Set(await repo.setCollectorsOnline(tx, collectors.map((c) => c.device!.id)));
        for (const c of collectors) {
          const d = c.device!;
          if (changed.has(d.id)) events.push({ companyId: d.companyId, kind: 'online', body: { collectorId: d.id, imei: c.imei, areaId: d.areaId, online: true } });
        }
        for (const m of await repo.setMetersOnline(tx, meters.map((c) => c.device!.id), true)) {
          events.push({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, address: m.address, areaId: m.areaId, online: true } });
        }
        await clearOfflineWarnings(tx, collectors.map((c) => c.device!.id), meters.map((c) => c.device!.id), '设备已恢复在线（自动）');
      });
    } catch (e) {
      this.log.error({ err: e }, '写入在线状态失败');
    }
    this.g.deps.bus.emitAll(events);
  }

  /** A registered device's connection is gone (not replaced): it is offline. */
  async disconnected(conn: Connection) {
    const device = conn.device!;
    try {
      const events: DeviceEvent[] = [];
      await this.g.deps.db.tx(SYSTEM_SCOPE, async (tx) => {
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
      this.g.deps.bus.emitAll(events);
    } catch (e) {
      this.log.error({ err: e }, '写入离线状态失败');
    }
  }

  /** Bytes came from a registered connection: its device was seen (written in batches). */
  connectionSeen(conn: Connection) {
    const d = conn.device;
    if (!d) return;
    if (d.type === 'collector') this.seenCollectors.set(d.id, conn.lastRx - this.since);
    else this.seenMeters.set(d.id, conn.lastRx - this.since);
  }

  async lowBattery(meter: repo.MeterRef) {
    try {
      const events = await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) =>
        raiseWarnings(tx, [{ companyId: meter.companyId, meterId: meter.id, collectorId: null, areaId: meter.areaId, kind: 'low_battery', detail: { reportedAt: new Date().toISOString() } }]),
      );
      this.g.deps.bus.emitAll(events);
    } catch (e) {
      this.log.error({ err: e }, '写入低电量告警失败');
    }
  }

  /**
   * When a report was read: now, but strictly after this meter's previous report, so that a burst
   * of reports handled within one millisecond stays a series of readings instead of collapsing
   * into one (readings are unique per meter and instant).
   */
  readTime(meterId: number, at = Date.now()): Date {
    return new Date(this.readMs(meterId, at));
  }

  /** {@link readTime} as epoch milliseconds (no Date made). */
  readMs(meterId: number, at = Date.now()): number {
    const now = at - this.since;
    const last = this.lastReadAt.get(meterId) ?? -1;
    const t = now > last ? now : last + 1;
    this.lastReadAt.set(meterId, t);
    return this.since + t;
  }

  /** A meter answered or reported: online, and seen now (written in batches). */
  meterSeen(meter: repo.MeterRef, now = Date.now()) {
    this.seenMeters.set(meter.id, now - this.since);
    if (!meter.online) {
      this.g.meters.update(meter.address, { online: true });
      this.nowOnline.add(meter.id);
      if (this.nowOnline.size >= 1000) void this.flushOnline();
    }
  }

  /** Meters that came online since the last write: one statement, one event each. */
  async flushOnline() {
    if (!this.nowOnline.size) return;
    const ids = [...this.nowOnline];
    this.nowOnline.clear();
    try {
      const changed = await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.setMetersOnline(tx, ids, true));
      for (const m of changed) this.g.deps.bus.emit({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, address: m.address, areaId: m.areaId, online: true } });
    } catch (e) {
      this.log.error({ err: e }, '写入在线状态失败');
      for (const id of ids) this.nowOnline.add(id); // written once the database is back
    }
  }

  /** A meter behind a live connection did not answer: it is offline. */
  async unanswered(req: DeviceRequest) {
    if (!req.expect) return;
    const meter = await this.g.meters.get(req.expect.address);
    if (!meter?.online) return;
    this.g.meters.update(meter.address, { online: false });
    try {
      const changed = await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.setMetersOnline(tx, [meter.id], false));
      for (const m of changed) this.g.deps.bus.emit({ companyId: m.companyId, kind: 'online', body: { meterId: m.id, address: m.address, areaId: m.areaId, online: false } });
    } catch (e) {
      this.log.error({ err: e }, '写入离线状态失败');
    }
  }

  /** Writes when each device was last heard from. */
  async flushSeen() {
    if (!this.seenCollectors.size && !this.seenMeters.size) return;
    const c = this.seenCollectors;
    const m = this.seenMeters;
    this.seenCollectors = new Map();
    this.seenMeters = new Map();
    try {
      const at = (seen: Map<number, number>) => new Map([...seen].map(([id, t]) => [id, this.since + t]));
      await this.g.deps.db.tx(SYSTEM_SCOPE, (tx) => repo.touchLastSeen(tx, at(c), at(m)));
    } catch (e) {
      this.log.error({ err: e }, '写入最后通信时间失败');
      // kept for the next write (a newer time seen since wins)
      for (const [id, t] of c) if (!(this.seenCollectors.get(id)! >= t)) this.seenCollectors.set(id, t);
      for (const [id, t] of m) if (!(this.seenMeters.get(id)! >= t)) this.seenMeters.set(id, t);
    }
  }
}
