import { describe, expect, it } from 'vitest';
import { loadDefinition } from '@meter/simulator';
import { DeviceSecrets, LogThrottle, Sealer, signDown } from './security.ts';

// Signed internal messages are taken once, only on their topic, only before they expire; refusals
// are logged at a bounded rate.

const secrets = new DeviceSecrets('unit-test-device-secret-0123456789abcdef');
const quiet = { warn: () => {} };

describe('Sealer', () => {
  it('opens a message it signed once; a replay, another topic, a change, no signature or an old one is dropped', () => {
    let now = 1_800_000_000_000;
    const sender = new Sealer(secrets.signingKey, quiet, () => now);
    const receiver = new Sealer(secrets.signingKey, quiet, () => now);
    const sealed = Buffer.from(sender.seal('p/gateway/exec', '{"a":1}', 5000));
    expect(receiver.open('p/gateway/exec', sealed)).toEqual({ body: '{"a":1}', expiresAt: now + 5000 });
    expect(receiver.open('p/gateway/exec', sealed)).toBeNull(); // replayed
    expect(receiver.open('p/events/1/warning', Buffer.from(sender.seal('p/events/2/warning', '{}')))).toBeNull(); // moved
    const forged = Buffer.from(sender.seal('p/gateway/exec', '{"a":1}').replace('{"a":1}', '{"a":2}'));
    expect(receiver.open('p/gateway/exec', forged)).toBeNull();
    expect(receiver.open('p/gateway/exec', Buffer.from('{"a":1}'))).toBeNull();
    const other = new Sealer(new DeviceSecrets('another-deployment-secret-0123456789abcdef').signingKey, quiet, () => now);
    expect(receiver.open('p/gateway/exec', Buffer.from(other.seal('p/gateway/exec', '{"a":1}')))).toBeNull();
    const old = Buffer.from(sender.seal('p/gateway/exec', '{"a":3}', 1000));
    now += 1001;
    expect(receiver.open('p/gateway/exec', old)).toBeNull();
    expect(receiver.dropped).toEqual({ unsigned: 1, forged: 3, expired: 1, replayed: 1 });
  });

  it('logs dropped messages at a throttled rate', () => {
    const lines: string[] = [];
    const now = 1_800_000_000_000;
    const receiver = new Sealer(secrets.signingKey, { warn: (_o: unknown, m?: string) => void lines.push(String(m)) }, () => now);
    for (let i = 0; i < 2001; i++) receiver.open('events/1/reading', Buffer.from(`junk ${i}`));
    expect(receiver.dropped.unsigned).toBe(2001);
    expect(lines.length).toBeLessThanOrEqual(5);
  });
});

describe('LogThrottle', () => {
  it('1,000 refusals in a minute are a few lines, and the next minute says how many were not logged', () => {
    const lines: { fields: Record<string, unknown>; msg: string }[] = [];
    let now = 1_800_000_000_000 - (1_800_000_000_000 % 60_000);
    const t = new LogThrottle({ warn: (fields: Record<string, unknown>, msg?: string) => void lines.push({ fields, msg: String(msg) }) }, '设备注册被拒绝', 5, () => now);
    for (let i = 0; i < 1000; i++) t.hit({ i });
    expect(lines).toHaveLength(5);
    now += 60_000;
    t.hit({ i: 1000 });
    expect(lines).toHaveLength(7);
    expect(lines[5].fields).toEqual({ suppressed: 995 });
  });
});

describe('DeviceSecrets', () => {
  it('derives distinct credentials per role, meter and IMEI, stable for one secret', () => {
    const again = new DeviceSecrets('unit-test-device-secret-0123456789abcdef');
    expect(again.meter('930000000001')).toEqual(secrets.meter('930000000001'));
    expect(secrets.meter('930000000001').password).not.toBe(secrets.meter('930000000002').password);
    expect(secrets.service('gateway').password).not.toBe(secrets.service('worker').password);
    expect(secrets.fourG('860000000000001')).not.toBe(secrets.fourG('860000000000002'));
    expect(() => new DeviceSecrets('short')).toThrow();
  });

  it("the simulator's load generator, given the deployment's secret, registers with the secret the platform expects", () => {
    const master = 'unit-test-device-secret-0123456789abcdef';
    const def = loadDefinition({ connections: 3, metersPerConnection: 2, deviceSecret: master });
    expect(def.collectors.map((c) => c.secret)).toEqual(def.collectors.map((c) => new DeviceSecrets(master).fourG(c.imei)));
    expect(loadDefinition({ connections: 1 }).collectors[0].secret).toBeUndefined();
  });

  it('signs a down message over topic, expiry, nonce, id and frame', () => {
    const key = secrets.meter('930000000001').password;
    const a = JSON.parse(signDown(key, 'meter/930000000001/down', 1, '68AA', 1000, 'n1'));
    const b = JSON.parse(signDown(key, 'meter/930000000002/down', 1, '68AA', 1000, 'n1'));
    expect(a).toMatchObject({ id: 1, frame: '68AA', exp: 1000, nonce: 'n1' });
    expect(a.sig).toMatch(/^[0-9a-f]{64}$/);
    expect(a.sig).not.toBe(b.sig);
  });
});
