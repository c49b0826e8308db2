import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { MqttClient } from 'mqtt';
import type { Sealer } from '../../gateway/security.ts';

// The event bus: device events for browsers (events/<companyId>/<kind>) and internal signals between
// roles (internal/<name>: "a command was queued", "a command finished"). In one process it is an
// EventEmitter; with MQTT attached every process sees every other process's events, so an API
// process forwards to its websockets what a gateway process saw. Over MQTT every message is signed
// (gateway/security.ts Sealer): unsigned, forged, expired or replayed messages are dropped.

/** device events, and `payment`: a top-up, refund or reversal written to the journal (modules/screen) */
export type EventKind = 'reading' | 'command' | 'online' | 'warning' | 'payment';

export interface DeviceEvent {
  companyId: number;
  kind: EventKind;
  body: Record<string, unknown>;
}

/** Events of one company and kind per MQTT message at most (see {@link EventBus.emitAll}). */
const MQTT_BATCH = 500;

const EVENT_TOPIC = /^events\/(\d+)\/(reading|command|online|warning|payment)$/;

export class EventBus {
  readonly node = randomUUID();
  private readonly local = new EventEmitter();
  private mqtt: MqttClient | undefined;
  private sealer: Sealer | undefined;

  /** @param prefix prepended to every topic (tests and shared brokers keep deployments apart) */
  constructor(private readonly prefix = '') {
    this.local.setMaxListeners(0);
  }

  /** Publish a device event to this process and, through MQTT, to every other one. */
  emit(e: DeviceEvent) {
    this.local.emit('event', e);
    this.publish(`${this.prefix}events/${e.companyId}/${e.kind}`, JSON.stringify({ ...e.body, node: this.node }));
  }

  private publish(topic: string, body: string) {
    if (this.mqtt && this.sealer) this.mqtt.publish(topic, this.sealer.seal(topic, body), { qos: 0 });
  }

  /**
   * Publish many events (a stored batch of readings): each to this process's listeners, and through
   * MQTT one message per company and kind for up to MQTT_BATCH of them (`{node, events: [body…]}`),
   * not one per event — the broker and every process's parser see a handful of messages per batch.
   */
  emitAll(events: readonly DeviceEvent[]) {
    if (events.length === 1) return this.emit(events[0]);
    for (const e of events) this.local.emit('event', e);
    if (!this.mqtt || !events.length) return;
    const groups = new Map<string, Record<string, unknown>[]>();
    for (const e of events) {
      const topic = `${this.prefix}events/${e.companyId}/${e.kind}`;
      let g = groups.get(topic);
      if (!g) groups.set(topic, (g = []));
      g.push(e.body);
      if (g.length === MQTT_BATCH) {
        this.publish(topic, JSON.stringify({ node: this.node, events: g }));
        groups.set(topic, []);
      }
    }
    for (const [topic, g] of groups) if (g.length) this.publish(topic, JSON.stringify({ node: this.node, events: g }));
  }

  on(fn: (e: DeviceEvent) => void): () => void {
    this.local.on('event', fn);
    return () => this.local.off('event', fn);
  }

  /** An internal signal (not for browsers). */
  signal(name: string, data: Record<string, unknown> = {}) {
    this.local.emit(`signal:${name}`, data);
    this.publish(`${this.prefix}internal/${name}`, JSON.stringify({ ...data, node: this.node }));
  }

  onSignal(name: string, fn: (data: Record<string, unknown>) => void): () => void {
    this.local.on(`signal:${name}`, fn);
    return () => this.local.off(`signal:${name}`, fn);
  }

  /** Bridge this bus over an MQTT connection (events and signals of other processes come in, signed). */
  async attach(client: MqttClient, sealer: Sealer) {
    this.mqtt = client;
    this.sealer = sealer;
    client.on('message', (fullTopic, payload) => {
      if (!fullTopic.startsWith(this.prefix)) return;
      const topic = fullTopic.slice(this.prefix.length);
      if (!topic.startsWith('events/') && !topic.startsWith('internal/')) return;
      const opened = sealer.open(fullTopic, payload);
      if (!opened) return;
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(opened.body);
      } catch {
        return;
      }
      if (!body || typeof body !== 'object' || body.node === this.node) return;
      const { node: _node, ...rest } = body;
      if (topic.startsWith('internal/')) {
        this.local.emit(`signal:${topic.slice('internal/'.length)}`, rest);
        return;
      }
      const m = EVENT_TOPIC.exec(topic);
      if (!m) return;
      const companyId = Number(m[1]);
      const kind = m[2] as EventKind;
      if (Array.isArray(rest.events)) {
        for (const b of rest.events) if (b && typeof b === 'object') this.local.emit('event', { companyId, kind, body: b });
      } else this.local.emit('event', { companyId, kind, body: rest });
    });
    await client.subscribeAsync([`${this.prefix}events/+/+`, `${this.prefix}internal/+`], { qos: 0 });
  }

  detach() {
    this.mqtt = undefined;
  }
}
