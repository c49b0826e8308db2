import type { Tx } from '../../db/client.ts';
import * as control from '../control/repo.ts';
import { ORIGIN, OPPOSITE, noCloseReason } from '../control/rules.ts';

// How billing asks for a valve/relay to be closed or opened (欠费自动断电/关阀, 充值自动合闸/开阀,
// 销户关阀). Billing only requests; the control module owns commands and decides: protection
// (保电/保水) and no-disconnect hours are its rules, checked when it carries the command out, and a
// command it refuses is recorded with the reason. The request joins the caller's transaction, so a
// rolled-back balance change requests nothing.

export type ValveAction = 'open' | 'close';

export interface ValveRequest {
  companyId: number;
  meterId: number;
  action: ValveAction;
  /** ORIGIN.automatic (2) for balance-driven requests, ORIGIN.manual (1) for a person's */
  origin: number;
  memo: string;
  requestedBy: number | null;
  requesterName: string;
}

export interface ValveOutcome {
  meterId: number;
  /** the command now pending for this meter and action (a new one, or one already pending) */
  commandId: number | null;
  /** false: an identical command was already pending, or none was queued (see skipped) */
  created: boolean;
  /** why the control module took no command now (保电/保水, no-disconnect hours) */
  skipped?: string;
}

export type ValveRequester = (tx: Tx, r: ValveRequest) => Promise<ValveOutcome>;

const TTL_MS = 24 * 3600_000;

/**
 * Queues the command through the control module's repository (its one-pending rule, its opposite
 * supersession). An automatic close is not taken for a protected meter or inside the alarm scheme's
 * no-disconnect hours — the control module's data and rule (noCloseReason) decide; billing asks again
 * later (alarms.retryDeferredCloses).
 */
const queueThroughControl: ValveRequester = async (tx, r) => {
  const [m] = await control.controlMeters(tx, [r.meterId]);
  if (!m || m.status !== 1) return { meterId: r.meterId, commandId: null, created: false, skipped: '表具不在用' };
  if (r.action === 'close' && r.origin === ORIGIN.automatic) {
    if (m.protection) return { meterId: r.meterId, commandId: null, created: false, skipped: m.protection.kind === 2 ? '保水中' : '保电中' };
    const why = noCloseReason(m.noClose, new Date());
    if (why) return { meterId: r.meterId, commandId: null, created: false, skipped: why };
  }
  const opposite = OPPOSITE[r.action];
  if (opposite) await control.supersedeQueued(tx, r.meterId, opposite, `已被新的${r.action === 'open' ? '合闸/开阀' : '拉闸/关阀'}指令取代`);
  const cmd = await control.insertCommand(tx, {
    companyId: r.companyId,
    meterId: r.meterId,
    collectorId: m.collectorId,
    kind: r.action,
    payload: {},
    expiresAt: new Date(Date.now() + TTL_MS),
    maxAttempts: 3,
    requestedBy: r.requestedBy,
    requesterName: r.requesterName,
    origin: r.origin,
    memo: r.memo,
    overrideReason: '',
  });
  if (cmd) return { meterId: r.meterId, commandId: cmd.id, created: true };
  const pending = await control.pendingCommand(tx, r.meterId, r.action);
  return { meterId: r.meterId, commandId: pending?.id ?? null, created: false };
};

let requester: ValveRequester = queueThroughControl;

/** Replaces how valve requests are carried (the control module's service, or a test double). */
export function setValveRequester(fn: ValveRequester) {
  requester = fn;
}

export function requestValve(tx: Tx, r: ValveRequest): Promise<ValveOutcome> {
  return requester(tx, r);
}

export const AUTOMATIC = ORIGIN.automatic;
export const MANUAL = ORIGIN.manual;
