import { noCloseReason, type NoCloseRule } from '../control/index.ts';
import { formatBeijing, startOfBeijingDay } from '../../time.ts';

// What an account in arrears (alarm level 3) really has (issue 11 item 11): its supply is off only
// when every meter's read-back says so; a close deferred by the alarm scheme's no-disconnect hours is
// 待断电 with the time it will happen; a protected meter (保电/保水) is not closed at all; a close
// on its way is 断电中. Never "断电" while a meter still shows 通.

export type SupplyState = 'off' | 'closing' | 'pending' | 'protected' | 'on' | 'none';

export interface SupplyMeter {
  /** the device's read-back: 1 通, 0 断, null unknown */
  valveState: number | null;
  /** a close command queued or sent */
  closing: boolean;
  noClose: NoCloseRule | null;
  protected: boolean;
}

export interface SupplyInput {
  wallet: string;
  alarmLevel: number;
  closeDeferred: boolean;
  meters: SupplyMeter[];
}

export interface Supply {
  state: SupplyState;
  /** e.g. 欠费·已断电, 欠费·待断电（11-26 08:00）, 欠费·断电中 */
  text: string;
  /** when a deferred close will be taken ('YYYY-MM-DD HH:mm', China time), if known */
  closeAt: string | null;
}

const HHMM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** 'YYYY-MM-DD HH:mm' in China time. */
export const chinaMinute = (d: Date) => formatBeijing(d, 'YYYY-MM-DD HH:mm');

/**
 * The first moment from `now` on at which the rule allows a close: now itself, the end of the
 * no-disconnect window, or (with 周末不断电) Monday 00:00 — whichever comes first and is allowed.
 * null when the rule never allows one (a whole-day window every day).
 */
export function nextCloseAt(rule: NoCloseRule | null, now: Date): Date | null {
  if (!noCloseReason(rule, now)) return now;
  const end = HHMM.exec(rule!.noCloseEnd);
  const dayStart = startOfBeijingDay(now).getTime();
  const candidates: number[] = [];
  for (let d = 0; d <= 8; d++) {
    const day = dayStart + d * 86400_000;
    candidates.push(day);
    if (end) candidates.push(day + (Number(end[1]) * 60 + Number(end[2])) * 60_000);
  }
  const ok = candidates.filter((c) => c > now.getTime() && !noCloseReason(rule, new Date(c))).sort((a, b) => a - b);
  return ok.length ? new Date(ok[0]) : null;
}

const WORDS: Record<string, { off: string; closing: string; pending: string; protect: string; on: string }> = {
  electric: { off: '已断电', closing: '断电中', pending: '待断电', protect: '保电中，不断电', on: '未断电' },
  water: { off: '已关阀', closing: '关阀中', pending: '待关阀', protect: '保水中，不关阀', on: '未关阀' },
};

/** The supply state of an account in arrears; null for an account not at the close level. */
export function supplyOf(a: SupplyInput, now: Date): Supply | null {
  if (a.alarmLevel !== 3) return null;
  const w = WORDS[a.wallet] ?? WORDS.electric;
  const open = a.meters.filter((m) => m.valveState !== 0);
  if (!a.meters.length) return { state: 'none', text: '欠费', closeAt: null };
  if (!open.length) return { state: 'off', text: `欠费·${w.off}`, closeAt: null };
  if (open.some((m) => m.closing)) return { state: 'closing', text: `欠费·${w.closing}`, closeAt: null };
  if (open.every((m) => m.protected)) return { state: 'protected', text: `欠费·${w.protect}`, closeAt: null };
  if (a.closeDeferred) {
    const times = open.filter((m) => !m.protected).map((m) => nextCloseAt(m.noClose, now));
    if (times.some((t) => t === null)) return { state: 'pending', text: `欠费·${w.pending}（不断电时段全天）`, closeAt: null };
    const at = new Date(Math.max(...times.map((t) => t!.getTime())));
    const closeAt = chinaMinute(at);
    return { state: 'pending', text: `欠费·${w.pending}（预计 ${closeAt.slice(5)}）`, closeAt };
  }
  return { state: 'on', text: `欠费·${w.on}`, closeAt: null };
}
