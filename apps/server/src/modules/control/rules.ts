import { ELECTRIC_PLAN_KINDS, WATER_PLAN_KINDS, type CommandKind, type CommandStatus } from '@meter/contracts';
import type { Protocol } from '../../gateway/frames.ts';
import { beijingFields, beijingMinuteOfDay } from '../../time.ts';

// The rules of device control, as pure functions: command kinds and their lifecycle, what happens
// after a failed attempt, the no-disconnect hours of an alarm scheme, and which protocol and
// channel a meter speaks.

// the command kinds and states are declared with the control endpoints (packages/contracts endpoints/control.ts)
export { COMMAND_KINDS, COMMAND_KIND_LIST, COMMAND_STATUS, type CommandKind, type CommandStatus } from '@meter/contracts';
export const PENDING: CommandStatus[] = ['queued', 'sent'];
export const FINAL: CommandStatus[] = ['succeeded', 'failed', 'timed_out', 'expired'];

/** Who asked: 1 a person, 2 automatic (balance), 3 timed control, 4 scheduled reading. */
export const ORIGIN = { manual: 1, automatic: 2, timed: 3, scheduled: 4 } as const;

/** Allowed lifecycle moves (DESIGN §5): queued → sent → succeeded | failed | timed_out | expired. */
const MOVES: Record<CommandStatus, CommandStatus[]> = {
  queued: ['sent', 'expired'],
  // a transient failure puts the command back in the queue for another attempt
  sent: ['succeeded', 'failed', 'timed_out', 'expired', 'queued'],
  succeeded: [],
  failed: [],
  timed_out: [],
  expired: [],
};

export function canMove(from: CommandStatus, to: CommandStatus): boolean {
  return MOVES[from].includes(to);
}

/** After an attempt that did not succeed: try again later, or the final status. */
export function afterFailure(
  c: { attempts: number; maxAttempts: number; expiresAt: Date },
  transient: boolean,
  now: Date,
  retryDelayMs: number,
): { status: 'queued'; nextAttemptAt: Date } | { status: 'failed' | 'timed_out' | 'expired' } {
  if (!transient) return { status: 'failed' };
  const next = new Date(now.getTime() + retryDelayMs * 2 ** Math.max(0, c.attempts - 1));
  if (c.attempts >= c.maxAttempts) return { status: 'timed_out' };
  if (next >= c.expiresAt) return { status: c.attempts > 0 ? 'timed_out' : 'expired' };
  return { status: 'queued', nextAttemptAt: next };
}

/** Two valve commands undo each other: a new one replaces a queued opposite one. */
export const OPPOSITE: Partial<Record<CommandKind, CommandKind>> = {
  open: 'close',
  close: 'open',
  protect_on: 'protect_off',
  protect_off: 'protect_on',
};

// ---------------------------------------------------------------------------------------------
// No-disconnect hours (alarm_schemes.no_close_start/end/weekend), China time (time.ts)
// ---------------------------------------------------------------------------------------------

export interface NoCloseRule {
  noCloseStart: string;
  noCloseEnd: string;
  noCloseWeekend: boolean;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;
const minutesOf = (s: string) => {
  const m = HHMM.exec(s);
  return m ? Number(m[1]) * 60 + Number(m[2]) : null;
};

/** Minutes since midnight and weekday (0 = Sunday) in China. */
export function chinaClock(now: Date) {
  return { minutes: beijingMinuteOfDay(now), weekday: beijingFields(now).weekday };
}

/**
 * Why a close is not allowed now, or null. A window whose end is before its start runs over
 * midnight (22:00–08:00); equal start and end means the whole day.
 */
export function noCloseReason(rule: NoCloseRule | null | undefined, now: Date): string | null {
  if (!rule) return null;
  const { minutes, weekday } = chinaClock(now);
  if (rule.noCloseWeekend && (weekday === 0 || weekday === 6)) return '周末不断电';
  const start = minutesOf(rule.noCloseStart);
  const end = minutesOf(rule.noCloseEnd);
  if (start === null || end === null) return null;
  const inside = start === end ? true : start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  return inside ? `不断电时段 ${rule.noCloseStart}-${rule.noCloseEnd}` : null;
}

// ---------------------------------------------------------------------------------------------
// Protocol and channel of a meter
// ---------------------------------------------------------------------------------------------

/** device_lookups ids of the protocol dictionary (migration 0006). */
const PROTOCOL_IDS: Record<number, Protocol> = { 11: 'dlt645', 12: 'dlt645', 13: 'cjt188' };

export function protocolOf(m: { kind: number; address: string; protocolId: number | null }): Protocol {
  if (m.protocolId != null && PROTOCOL_IDS[m.protocolId]) return PROTOCOL_IDS[m.protocolId];
  if (m.address.length === 14) return 'cjt188';
  if (m.address.length === 12) return 'dlt645';
  return m.kind === 2 ? 'cjt188' : 'dlt645';
}

/** NB-IoT plans talk MQTT (SPEC §3 plan values by kind). */
export function isNbPlan(kind: number, plan: number): boolean {
  return (kind === 2 ? WATER_PLAN_KINDS.nb : ELECTRIC_PLAN_KINDS.nb).includes(plan);
}

/** Where the gateway reaches a meter: through a TCP connection (collector's or its own IMEI) and/or MQTT. */
export interface Route {
  address: string;
  protocol: Protocol;
  /** IMEI of the TCP connection to use (the collector's, or the 4G meter's own) */
  imei: string | null;
  /** the meter may be reached over MQTT (meter/<address>/down) */
  mqtt: boolean;
}

export function routeOf(
  m: { kind: number; plan: number; address: string; imei: string; protocolId: number | null; collectorId: number | null },
  collectorImei: string | null,
): Route {
  const protocol = protocolOf(m);
  if (m.collectorId != null && collectorImei) return { address: m.address, protocol, imei: collectorImei, mqtt: false };
  if (isNbPlan(m.kind, m.plan)) return { address: m.address, protocol, imei: null, mqtt: true };
  // a 4G meter: its own TCP connection when it holds one, else MQTT
  return { address: m.address, protocol, imei: m.imei || null, mqtt: true };
}

/** Consumption while closed is only flagged above this many units (register rounding). */
export const CONSUMPTION_EPSILON = '0.01';
