import { copyBytes } from '@meter/protocol';
import { HeldReading, hundredths, SOURCE } from '../modules/control/index.ts';
import type { GatewayParts } from './context.ts';
import { decodeFrame, factsOf, hex, type Decoded, type DeviceRequest, type Protocol } from './frames.ts';
import { collectorOf, type Connection } from './listener.ts';
import { quickReport, type QuickReport } from './quick-report.ts';
import type * as repo from './repo.ts';
import { LogThrottle } from './security.ts';

// The gateway's side of the dialogue with devices: a frame that came in (over TCP or MQTT) is the
// reply a request waits for, or else the device's own report — checked against whom the
// connection speaks for, logged, and its reading queued for the database.

/** A connection speaks only for the meters behind it: its collector's, or the 4G meter itself. */
function speaksFor(device: NonNullable<Connection['device']>, meter: repo.MeterRef): boolean {
  return device.type === 'collector' ? meter.collectorId === device.id : meter.id === device.id;
}

export class Dialogue {
  private readonly strangers: LogThrottle;
  private readonly unknownAddress: LogThrottle;

  constructor(private readonly g: GatewayParts) {
    this.strangers = new LogThrottle(g.log, '上报的表具不属于该连接的采集器，已丢弃');
    this.unknownAddress = new LogThrottle(g.log, 'MQTT 上报的表具地址未登记，已丢弃');
  }

  /** One checksum-valid frame from a connection or an MQTT message. */
  frame(conn: Connection | null, protocol: Protocol, bytes: Uint8Array, channel: 'tcp' | 'mqtt', mqttAddress?: string) {
    if (conn && this.tryQuick(conn, protocol, bytes, 0, bytes.length)) return;
    this.general(conn, protocol, bytes, channel, mqttAddress);
  }

  /**
   * A checksum-valid frame of a TCP connection at `input[start, end)`, the splitter's view of the
   * bytes it read (valid during this call only): a routine report is read where it lies, anything
   * else is copied and goes the general way.
   */
  frameAt(conn: Connection, protocol: Protocol, input: Uint8Array, start: number, end: number) {
    if (this.tryQuick(conn, protocol, input, start, end)) return;
    this.general(conn, protocol, copyBytes(input, start, end), 'tcp');
  }

  /**
   * A routine report on a connection with no request in flight, its meter cached, not for the frame
   * log: read straight from its bytes (quick-report.ts) and queued. False: nothing done, the frame
   * goes the general way.
   */
  private tryQuick(conn: Connection, protocol: Protocol, bytes: Uint8Array, start: number, end: number): boolean {
    if ((conn.channel && conn.channel.pending !== 0) || this.g.deps.settings.frameLog === 'all') return false;
    const q = quickReport(protocol, bytes, start, end);
    const meter = q && this.g.meters.fresh(q.address, conn.lastRx);
    return !!q && !!meter && this.quick(conn, q, meter);
  }

  private general(conn: Connection | null, protocol: Protocol, bytes: Uint8Array, channel: 'tcp' | 'mqtt', mqttAddress?: string) {
    let d: Decoded;
    try {
      d = decodeFrame(protocol, bytes);
    } catch (e) {
      const error = `报文解析失败：${(e as Error).message}`;
      if (conn) this.g.listener.badInput(conn, hex(bytes), error);
      else void this.g.mqtt.badInput(mqttAddress!, hex(bytes), error);
      return;
    }
    const ch = conn ? conn.channel : this.g.mqtt.channelOf(mqttAddress!);
    if (ch?.offer(d)) return;
    this.unsolicited(conn, d, channel);
  }

  /**
   * A frame nobody asked for: a meter's own report, or a reply that came too late. Handled at once
   * when the meter is cached (the usual case: no promise per frame), else once it is looked up.
   */
  private unsolicited(conn: Connection | null, d: Decoded, channel: 'tcp' | 'mqtt') {
    // a TCP frame came now: when its bytes were read (one clock reading a chunk, not three a frame)
    const now = conn ? conn.lastRx : Date.now();
    const cached = this.g.meters.fresh(d.frame.address, now);
    if (cached !== undefined) this.report1(conn, d, channel, cached, now);
    else {
      void this.g.meters.get(d.frame.address).then(
        (m) => this.report1(conn, d, channel, m, Date.now()),
        (e) => this.g.log.error({ err: e }, '处理设备上报失败'),
      );
      // reports waiting for a lookup the database does not answer are backlog too
      this.g.buffer.checkHigh();
    }
  }

  private report1(conn: Connection | null, d: Decoded, channel: 'tcp' | 'mqtt', meter: repo.MeterRef | null, now: number) {
    const f = d.frame;
    const companyId = meter?.companyId ?? conn?.device?.companyId;
    if (companyId === undefined) {
      this.unknownAddress.hit({ address: f.address });
      return;
    }
    const collectorId = conn ? collectorOf(conn) : null;
    if (!meter || (conn?.device && meter.companyId !== conn.device.companyId)) {
      if (conn) this.g.listener.badInput(conn, d.hex, `未登记的表具地址 ${f.address}`);
      return;
    }
    if (conn?.device && !speaksFor(conn.device, meter)) {
      this.strangers.hit({ imei: conn.imei, address: f.address });
      this.g.listener.badInput(conn, d.hex, `表具 ${f.address} 不属于该采集器，已丢弃`);
      return;
    }
    const buffer = this.g.buffer;
    if (f.direction !== 'response') {
      buffer.report(companyId, meter.id, collectorId, 'up', channel, d.hex, summarize(d), '设备发来的是请求帧，已忽略');
      return;
    }
    // a report's reading needs no meter clock: it is read only when the facts go to the frame log
    let facts = factsOf(d, false);
    if (facts.total === undefined || this.g.deps.settings.frameLog === 'all') {
      facts = factsOf(d);
      buffer.report(companyId, meter.id, collectorId, 'up', channel, d.hex, { ...summarize(d), facts }, '');
    }
    this.g.health.meterSeen(meter, now);
    if (facts.total !== undefined) {
      // the facts are this frame's own: their registers are completed in place
      const registers = facts.registers ?? {};
      if (facts.batteryLow !== undefined) registers.batteryLow = facts.batteryLow;
      if (facts.valve !== undefined) registers.valve = facts.valve;
      this.queue(meter, now, facts.total, hundredths(facts.total), registers, facts.valve);
    }
    if (facts.batteryLow) void this.g.health.lowBattery(meter);
  }

  /** A report's reading into the ingest buffer, or dropped loudly when it is full. */
  private queue(meter: repo.MeterRef, now: number, total: string | null, cents: number | null, registers: QuickReport['registers'], valve: 0 | 1 | undefined) {
    const buffer = this.g.buffer;
    // only MQTT gets here full (TCP reading stopped at QUEUE_HIGH): memory stays bounded, loudly
    if (buffer.full) buffer.drop();
    else {
      // a MeterRef is a MeterIdent; the cache replaces refs, never changes one. A total in hundredths
      // (every report's) waits as one object, instant and total as numbers (HeldReading)
      const time = this.g.health.readMs(meter.id, now);
      buffer.add(
        meter.id,
        cents !== null ? new HeldReading(meter, time, cents, registers, SOURCE.report, valve) : { meter, readAt: new Date(time), total: total!, registers, source: SOURCE.report, valve },
      );
    }
  }

  /**
   * A routine report (quick-report.ts) of a cached meter on a registered connection: queued as
   * report1 queues it. False (nothing done): not this connection's meter or not its company, which
   * the general path reports as before.
   */
  private quick(conn: Connection, q: QuickReport, meter: repo.MeterRef): boolean {
    const device = conn.device;
    if (!device || meter.companyId !== device.companyId || !speaksFor(device, meter)) return false;
    this.g.health.meterSeen(meter, conn.lastRx);
    this.queue(meter, conn.lastRx, null, q.cents, q.registers, q.valve);
    if (q.batteryLow) void this.g.health.lowBattery(meter);
    return true;
  }

  /** The reply a request waited for (over TCP or MQTT): the meter is seen, and the reply logged if asked. */
  replied(req: DeviceRequest, d: Decoded, channel: 'tcp' | 'mqtt', conn: Connection | null) {
    const meter = this.g.meters.peek(d.frame.address);
    if (meter) this.g.health.meterSeen(meter);
    else void this.g.meters.get(d.frame.address).then((m) => m && this.g.health.meterSeen(m));
    if (req.log && (meter || conn?.device)) {
      const companyId = meter?.companyId ?? conn!.device!.companyId;
      this.g.buffer.report(companyId, meter?.id ?? null, conn ? collectorOf(conn) : null, 'up', channel, d.hex, { label: req.label, ...summarize(d) }, '', d.frame.address);
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
