import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MqttClient } from 'mqtt';
import { connectMqtt } from '../../gateway/mqtt.ts';
import { MQTT_URL, testSealer } from '../control/harness.test-util.ts';
import { EventBus, type DeviceEvent } from './bus.ts';

// The event bus between processes over the real broker: one event per message, and a batch of
// events as a few messages that every other process expands back into the same events, in order.

describe('event bus over MQTT', () => {
  const prefix = `test-bus-${process.pid}-${Date.now().toString(36)}/`;
  const here = new EventBus(prefix);
  const there = new EventBus(prefix);
  let clients: MqttClient[] = [];
  let spy: MqttClient;
  const onWire: string[] = [];

  beforeAll(async () => {
    clients = await Promise.all([connectMqtt(MQTT_URL, 'test-bus-a'), connectMqtt(MQTT_URL, 'test-bus-b')]);
    await here.attach(clients[0], testSealer());
    await there.attach(clients[1], testSealer());
    spy = await connectMqtt(MQTT_URL, 'test-bus-spy');
    spy.on('message', (topic) => onWire.push(topic.slice(prefix.length)));
    await spy.subscribeAsync(`${prefix}events/+/+`, { qos: 0 });
  });

  afterAll(async () => {
    await Promise.all([...clients, spy].map((c) => c.endAsync()));
  });

  const collect = (bus: EventBus, n: number, ms = 5000) =>
    new Promise<DeviceEvent[]>((resolve, reject) => {
      const got: DeviceEvent[] = [];
      const timer = setTimeout(() => {
        off();
        reject(new Error(`received ${got.length} of ${n} events`));
      }, ms);
      const off = bus.on((e) => {
        got.push(e);
        if (got.length === n) {
          clearTimeout(timer);
          off();
          resolve(got);
        }
      });
    });

  it('a batch of 1,200 events of two companies reaches the other process whole, in order, as 3 messages', async () => {
    const events: DeviceEvent[] = [];
    for (let i = 0; i < 1200; i++) {
      events.push({ companyId: i % 3 === 0 ? 7 : 8, kind: 'reading', body: { meterId: i, total: `${i}.50`, readAt: new Date(1_700_000_000_000 + i).toISOString() } });
    }
    onWire.length = 0;
    const local = collect(here, 1200);
    const remote = collect(there, 1200);
    here.emitAll(events);
    expect(await local).toEqual(events); // this process's listeners get each event at once
    const got = await remote;
    for (const company of [7, 8]) {
      expect(got.filter((e) => e.companyId === company)).toEqual(events.filter((e) => e.companyId === company));
    }
    await new Promise((r) => setTimeout(r, 200));
    // company 7: 400 events → 1 message; company 8: 800 → 2 (at most 500 each); nothing else
    expect(onWire.sort()).toEqual(['events/7/reading', 'events/8/reading', 'events/8/reading']);
  });

  it('a single event and a batch of one travel as a plain message, as before', async () => {
    onWire.length = 0;
    const remote = collect(there, 2);
    here.emit({ companyId: 9, kind: 'online', body: { meterId: 1, online: true } });
    here.emitAll([{ companyId: 9, kind: 'warning', body: { id: 5, kind: 'low_battery' } }]);
    expect(await remote).toEqual([
      { companyId: 9, kind: 'online', body: { meterId: 1, online: true } },
      { companyId: 9, kind: 'warning', body: { id: 5, kind: 'low_battery' } },
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(onWire).toEqual(['events/9/online', 'events/9/warning']);
  });
});
