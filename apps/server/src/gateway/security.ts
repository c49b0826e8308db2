import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from 'pino';

// Device-side credentials and message signing (docs/OPERATIONS.md «设备侧安全»). Everything derives
// from one server secret (DEVICE_SECRET, or DATA_DIR/device-secret generated at first start, never
// committed): the MQTT passwords of the server's roles, each NB meter's MQTT password (also the key
// its down messages are signed with), each 4G meter's TCP registration secret, and the key that
// signs internal messages (gateway/exec, gateway/reply, events, internal signals).

export type ServiceRole = 'gateway' | 'worker' | 'api';

export interface Credentials {
  username: string;
  password: string;
}

const hmac = (key: string | Buffer, text: string) => createHmac('sha256', key).update(text).digest();

/** Constant-time comparison of two texts (different lengths compare unequal). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export class DeviceSecrets {
  private readonly master: Buffer;
  constructor(master: string) {
    if (master.length < 32) throw new Error('DEVICE_SECRET 至少 32 个字符');
    this.master = Buffer.from(master);
  }

  /** The MQTT login of a server role (username `svc-<role>`). */
  service(role: ServiceRole): Credentials {
    return { username: `svc-${role}`, password: hmac(this.master, `mqtt-role:${role}`).toString('base64url') };
  }

  /** An NB meter's MQTT login: username = its address; the password also keys its down messages. */
  meter(address: string): Credentials {
    return { username: address, password: hmac(this.master, `mqtt-meter:${address.toUpperCase()}`).toString('hex').slice(0, 32) };
  }

  /** The TCP registration secret of a 4G meter (collectors keep theirs in the archive). */
  fourG(imei: string): string {
    return hmac(this.master, `tcp-imei:${imei}`).toString('hex').slice(0, 32);
  }

  /** The key internal messages are signed with. */
  get signingKey(): Buffer {
    return hmac(this.master, 'internal-messages');
  }
}

/**
 * The server secret: DEVICE_SECRET when set, else DATA_DIR/device-secret, created (mode 0600) at
 * first start. Processes of one deployment share it (same DATA_DIR, or the same DEVICE_SECRET).
 */
export function loadDeviceSecret(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = path.join(dataDir, 'device-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (e) {
    // another process of this deployment created it first
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw e;
  }
}

/**
 * Logs a recurring refusal at a bounded rate: the first `perMinute` occurrences of a minute each,
 * then one line per minute with the count of those not logged (1,000 junk connections are a handful
 * of lines, not 1,000).
 */
export class LogThrottle {
  private minute = -1;
  private used = 0;
  private skipped = 0;
  constructor(
    private readonly log: Pick<Logger, 'warn'>,
    private readonly message: string,
    private readonly perMinute = 5,
    private readonly now: () => number = Date.now,
  ) {}

  hit(fields: Record<string, unknown> = {}) {
    const minute = Math.floor(this.now() / 60_000);
    if (minute !== this.minute) {
      if (this.skipped) this.log.warn({ suppressed: this.skipped }, `${this.message}（上一分钟另有 ${this.skipped} 次未逐条记录）`);
      this.minute = minute;
      this.used = 0;
      this.skipped = 0;
    }
    if (this.used < this.perMinute) {
      this.used++;
      this.log.warn(fields, this.message);
    } else this.skipped++;
  }
}

const HEADER = /^S1 (\d{13}) ([A-Za-z0-9_-]{16,43}) ([A-Za-z0-9_-]{43})$/;
const MAX_SEEN = 200_000;

/**
 * Signs internal MQTT messages and checks them: `S1 <expiresAtMs> <id> <hmac>\n<json body>`, the
 * HMAC (SHA-256, base64url) over topic, expiry, id and body. A message is accepted once: unsigned,
 * forged, moved to another topic, expired or replayed (an id already seen) → dropped and logged at a
 * throttled rate. Processes of one deployment need clocks within a few seconds of each other.
 */
export class Sealer {
  private readonly seen = new Map<string, number>();
  private readonly drops: LogThrottle;
  /** messages dropped since start, by reason (diagnostics and tests) */
  readonly dropped = { unsigned: 0, forged: 0, expired: 0, replayed: 0 };

  constructor(
    private readonly key: Buffer,
    log: Pick<Logger, 'warn'>,
    private readonly now: () => number = Date.now,
  ) {
    this.drops = new LogThrottle(log, 'MQTT 内部消息签名无效、已过期或重复，已丢弃');
  }

  private mac(topic: string, exp: string, id: string, body: string) {
    return createHmac('sha256', this.key).update(`${topic}\n${exp}\n${id}\n`).update(body).digest('base64url');
  }

  /** The payload for `topic` carrying `body` (JSON text), valid for ttlMs. */
  seal(topic: string, body: string, ttlMs = 30_000): string {
    const exp = String(this.now() + ttlMs);
    const id = randomBytes(12).toString('base64url');
    return `S1 ${exp} ${id} ${this.mac(topic, exp, id, body)}\n${body}`;
  }

  /** The body of a valid message not seen before, else null (dropped). `expiresAt` is the signed expiry. */
  open(topic: string, payload: Buffer): { body: string; expiresAt: number } | null {
    const nl = payload.indexOf(0x0a);
    const m = nl > 0 && nl < 120 ? HEADER.exec(payload.subarray(0, nl).toString('latin1')) : null;
    if (!m) return this.drop('unsigned', topic);
    const body = payload.subarray(nl + 1).toString('utf8');
    const [, exp, id, sig] = m;
    if (!sameText(sig, this.mac(topic, exp, id, body))) return this.drop('forged', topic);
    const expiresAt = Number(exp);
    const now = this.now();
    if (expiresAt < now) return this.drop('expired', topic);
    if (this.seen.has(id)) return this.drop('replayed', topic);
    if (this.seen.size >= MAX_SEEN) this.forget(now);
    this.seen.set(id, expiresAt);
    return { body, expiresAt };
  }

  private forget(now: number) {
    for (const [id, exp] of this.seen) if (exp < now) this.seen.delete(id);
    // still full of unexpired ids (a flood of valid messages): keep the newest half
    if (this.seen.size >= MAX_SEEN) {
      let n = this.seen.size / 2;
      for (const id of this.seen.keys()) {
        if (n-- <= 0) break;
        this.seen.delete(id);
      }
    }
  }

  private drop(reason: keyof Sealer['dropped'], topic: string): null {
    this.dropped[reason]++;
    this.drops.hit({ topic, reason });
    return null;
  }
}

/**
 * A message to an NB meter on meter/<address>/down: `{id, frame, exp, nonce, sig}`, the HMAC keyed
 * by the meter's own password, over topic, expiry, nonce, id and frame. The meter acts on a frame only
 * when the signature is right, the expiry is ahead and the nonce is new (docs/DEVICE-WIRE.md).
 */
export function signDown(meterKey: string, topic: string, id: number, frame: string, exp: number, nonce: string): string {
  const sig = createHmac('sha256', meterKey).update(`${topic}\n${exp}\n${nonce}\n${id}\n${frame}`).digest('hex');
  return JSON.stringify({ id, frame, exp, nonce, sig });
}
