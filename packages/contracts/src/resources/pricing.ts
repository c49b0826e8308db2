// The pricing model of charging schemes (收费方案) and the rules of alarm schemes (报警方案), as pure
// functions shared by server (400 on bad input) and web (form checks before submit). The billing
// engine that prices readings with these versions belongs next to this file.
//
// Units: unit prices are 元 per kWh / m³ as decimal strings with 4 decimals ("0.6800"); tier limits
// are quantities (kWh / m³, up to 2 decimals); fees and thresholds are integers in 分 once validated
// (元 strings with up to 2 decimals on the wire). Times of day are 'HH:mm' in Asia/Shanghai; moments
// are 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai (time.ts).
import { Decimal } from 'decimal.js';
import { yuanToFen } from '../money.ts';
import { beijingFields, parseBeijing } from '../time.ts';

export type PriceMode = 'flat' | 'tiered' | 'tou';
export const PRICE_MODES: Record<PriceMode, string> = { flat: '统一单价', tiered: '阶梯计价', tou: '分时计价' };

/** The four time-of-use period names (尖峰平谷), in display order. */
export const TOU_PERIOD_NAMES = ['尖', '峰', '平', '谷'] as const;
export type TouPeriodName = (typeof TOU_PERIOD_NAMES)[number];

/** 阶梯 accumulation (chargingMonthType): null = none, 1 month, 2 year. */
export const CHARGING_MONTH_TYPES: Record<string, string> = { 1: '月累计', 2: '年累计' };

export const MAX_UNIT_PRICE = 10000;
export const MAX_TIER_QUANTITY = 1_000_000_000;
export const MAX_TIERS = 10;
/** fees, thresholds and charge-code amounts: at most 100万元 (fits the int4 分 columns) */
export const MAX_AMOUNT_YUAN = 1_000_000;
export const MAX_VERSIONS = 100;
export const DAY_MINUTES = 24 * 60;

export interface Tier {
  /** upper limit of the tier in kWh / m³ (accumulated per month or year); null = open-ended (last tier) */
  upTo: string | null;
  price: string;
}

export interface TouPeriod {
  name: string;
  price: string;
  /** 'HH:mm-HH:mm'; a range may wrap midnight ('22:00-06:00'); '24:00' only as an end */
  ranges: string[];
}

/** One price version as the billing engine reads it: canonical strings, fees in 分. */
export interface PriceVersion {
  /** 'YYYY-MM-DD HH:mm:ss', Asia/Shanghai */
  effectiveFrom: string;
  mode: PriceMode;
  /** flat: the price; other modes: '0.0000' */
  unitPrice: string;
  /** tiered: ascending limits, the last open-ended; other modes: [] */
  tiers: Tier[];
  /** tou: the periods covering 24 h exactly once; other modes: { periods: [] } */
  tou: { periods: TouPeriod[] };
  monthlyFeeFen: number;
  minimumChargeFen: number;
}

/** A version as it comes from a form or a request (loosely typed; checked by versionIssues). */
export interface PriceVersionInput {
  effectiveFrom?: unknown;
  mode?: unknown;
  unitPrice?: unknown;
  tiers?: { upTo?: unknown; price?: unknown }[] | unknown;
  tou?: { periods?: { name?: unknown; price?: unknown; ranges?: unknown }[] | unknown } | unknown;
  /** 元, up to 2 decimals */
  monthlyFee?: unknown;
  /** 元, up to 2 decimals */
  minimumCharge?: unknown;
}

export type IssuePath = (string | number)[];
export interface Issue {
  path: IssuePath;
  message: string;
}

const prefix = (p: IssuePath, issues: Issue[]): Issue[] => issues.map((i) => ({ path: [...p, ...i.path], message: i.message }));

// ---- numbers ---------------------------------------------------------------------------------

const PLAIN_NON_NEGATIVE = /^\d+(\.\d+)?$/;

const textOf = (v: unknown): string | null => (typeof v === 'number' ? (Number.isFinite(v) ? String(v) : null) : typeof v === 'string' ? v.trim() : null);
const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

function decimalError(v: unknown, what: string, scale: number, max: number, positive = false): string | null {
  if (isBlank(v)) return `请填写${what}`;
  const s = textOf(v);
  if (s === null || !PLAIN_NON_NEGATIVE.test(s)) return `${what}须为不小于 0 的数字`;
  const d = new Decimal(s);
  if (d.decimalPlaces() > scale) return `${what}最多 ${scale} 位小数`;
  if (positive && d.isZero()) return `${what}须大于 0`;
  if (d.greaterThan(max)) return `${what}不能大于 ${max}`;
  return null;
}

/** Why a unit price is invalid (≥ 0, at most 4 decimals, at most MAX_UNIT_PRICE), or null. */
export const priceError = (v: unknown, what = '单价') => decimalError(v, what, 4, MAX_UNIT_PRICE);
/** A valid price as its canonical 4-decimal string ("0.68" → "0.6800"). */
export const normalizePrice = (v: unknown): string => new Decimal(textOf(v) as string).toFixed(4);

/** Why a tier limit is invalid (> 0, at most 2 decimals), or null. */
export const quantityError = (v: unknown, what = '阶梯上限') => decimalError(v, what, 2, MAX_TIER_QUANTITY, true);
/** A valid quantity as its canonical plain string ("200.0" → "200"). */
export const normalizeQuantity = (v: unknown): string => new Decimal(textOf(v) as string).toFixed();

/** Why a 元 amount is invalid (≥ 0, at most 2 decimals, at most MAX_AMOUNT_YUAN), or null. */
export const amountError = (v: unknown, what = '金额') => decimalError(v, what, 2, MAX_AMOUNT_YUAN);
/** A valid 元 amount in 分; blank = 0. */
export const amountToFen = (v: unknown): number => (isBlank(v) ? 0 : yuanToFen(textOf(v) as string));

// ---- times -----------------------------------------------------------------------------------

const HM_RE = /^(\d{2}):(\d{2})$/;

/** 'HH:mm' → minutes since midnight; '24:00' only when allowed (the end of a range); else null. */
export function parseHm(s: unknown, allow24 = false): number | null {
  if (typeof s !== 'string') return null;
  const m = HM_RE.exec(s.trim());
  if (!m) return null;
  const h = Number(m[1]);
  const min = Number(m[2]);
  if (min > 59) return null;
  if (h === 24 && min === 0 && allow24) return DAY_MINUTES;
  return h <= 23 ? h * 60 + min : null;
}

/** minutes → 'HH:mm' (1440 → '24:00'). */
export const formatHm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export interface TimeRange {
  start: number;
  end: number;
}

/** 'HH:mm-HH:mm' → minutes; end < start wraps midnight; start = end is refused (empty or ambiguous). */
export function parseTimeRange(s: unknown): TimeRange | null {
  if (typeof s !== 'string') return null;
  const parts = s.replace(/\s+/g, '').split(/[-~～—]/);
  if (parts.length !== 2) return null;
  const start = parseHm(parts[0]);
  const end = parseHm(parts[1], true);
  if (start === null || end === null) return null;
  if (start === end) return null;
  return { start, end };
}

/** The canonical text of a range ('08:00 - 12:00' → '08:00-12:00'). */
export const formatTimeRange = (r: TimeRange) => `${formatHm(r.start)}-${formatHm(r.end)}`;

/** A range as segments of [0, 1440): a range across midnight becomes two. */
export function rangeSegments(r: TimeRange): [number, number][] {
  if (r.end > r.start) return [[r.start, r.end]];
  return [[r.start, DAY_MINUTES], ...(r.end > 0 ? [[0, r.end] as [number, number]] : [])];
}

/** Whether a minute of the day lies in a range (start inclusive, end exclusive, wrapping midnight). */
export function inTimeRange(r: TimeRange, minute: number): boolean {
  return rangeSegments(r).some(([a, b]) => minute >= a && minute < b);
}

const DT_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;
const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/**
 * 'YYYY-MM-DD' or 'YYYY-MM-DD HH:mm[:ss]' (a real calendar moment) → 'YYYY-MM-DD HH:mm:ss';
 * null when malformed.
 */
export function normalizeLocalDateTime(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const m = DT_RE.exec(v.trim());
  if (!m) return null;
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1).map((x) => (x === undefined ? undefined : Number(x))) as number[];
  if (y < 1970 || y > 2999 || mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return null;
  const probe = new Date(Date.UTC(y, mo - 1, d));
  if (probe.getUTCDate() !== d) return null;
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)} ${pad(h)}:${pad(mi)}:${pad(s)}`;
}

/** A local 'YYYY-MM-DD HH:mm:ss' (Asia/Shanghai) as an instant. */
export function localToDate(local: string): Date {
  return new Date(parseBeijing(local));
}

/** An instant as 'YYYY-MM-DD HH:mm:ss' in Asia/Shanghai. */
export function dateToLocal(d: Date): string {
  const x = beijingFields(d);
  return `${pad(x.year, 4)}-${pad(x.month)}-${pad(x.day)} ${pad(x.hour)}:${pad(x.minute)}:${pad(x.second)}`;
}

// ---- tiers -----------------------------------------------------------------------------------

/** 阶梯: at least two tiers; limits strictly ascending; the last tier open-ended; prices valid. */
export function tierIssues(tiers: unknown): Issue[] {
  if (!Array.isArray(tiers) || tiers.length < 2) return [{ path: [], message: '阶梯计价至少需要两档' }];
  if (tiers.length > MAX_TIERS) return [{ path: [], message: `阶梯最多 ${MAX_TIERS} 档` }];
  const out: Issue[] = [];
  let prev: Decimal | null = null;
  tiers.forEach((raw, i) => {
    const t = (raw ?? {}) as { upTo?: unknown; price?: unknown };
    const n = i + 1;
    const pe = priceError(t.price, `第 ${n} 档单价`);
    if (pe) out.push({ path: [i, 'price'], message: pe });
    if (i === tiers.length - 1) {
      if (!isBlank(t.upTo)) out.push({ path: [i, 'upTo'], message: `最后一档（第 ${n} 档）不设上限，请清空` });
      return;
    }
    const qe = quantityError(t.upTo, `第 ${n} 档上限`);
    if (qe) {
      out.push({ path: [i, 'upTo'], message: qe });
      prev = null;
      return;
    }
    const q = new Decimal(textOf(t.upTo) as string);
    if (prev && !q.greaterThan(prev)) {
      out.push({ path: [i, 'upTo'], message: `第 ${n} 档上限须大于第 ${i} 档上限（${prev.toFixed()}）` });
    }
    prev = q;
  });
  return out;
}

// ---- time of use -----------------------------------------------------------------------------

/**
 * 尖峰平谷: two to four periods with distinct names from 尖/峰/平/谷, each with a valid price and at
 * least one 'HH:mm-HH:mm' range; together the ranges cover the 24 hours exactly once.
 */
export function touIssues(periods: unknown): Issue[] {
  if (!Array.isArray(periods) || periods.length < 2) return [{ path: [], message: '分时计价至少需要两个时段' }];
  if (periods.length > TOU_PERIOD_NAMES.length) return [{ path: [], message: '分时计价最多四个时段（尖、峰、平、谷）' }];
  const out: Issue[] = [];
  const seen = new Set<string>();
  const segs: { a: number; b: number; label: string; path: IssuePath }[] = [];
  let parsedAll = true;
  periods.forEach((raw, i) => {
    const p = (raw ?? {}) as { name?: unknown; price?: unknown; ranges?: unknown };
    const name = typeof p.name === 'string' ? p.name.trim() : '';
    if (!(TOU_PERIOD_NAMES as readonly string[]).includes(name)) {
      out.push({ path: [i, 'name'], message: '时段名称须为尖、峰、平、谷之一' });
    } else if (seen.has(name)) {
      out.push({ path: [i, 'name'], message: `时段「${name}」重复` });
    }
    seen.add(name);
    const label = name || `第 ${i + 1} 个时段`;
    const pe = priceError(p.price, `「${label}」单价`);
    if (pe) out.push({ path: [i, 'price'], message: pe });
    if (!Array.isArray(p.ranges) || p.ranges.length === 0) {
      out.push({ path: [i, 'ranges'], message: `请为「${label}」设置时间范围` });
      parsedAll = false;
      return;
    }
    if (p.ranges.length > 24) {
      out.push({ path: [i, 'ranges'], message: `「${label}」的时间范围过多` });
      parsedAll = false;
      return;
    }
    p.ranges.forEach((text, j) => {
      const r = parseTimeRange(text);
      if (!r) {
        out.push({ path: [i, 'ranges', j], message: `「${label}」的时间范围「${String(text)}」格式应为 HH:mm-HH:mm，且开始与结束不同` });
        parsedAll = false;
        return;
      }
      for (const [a, b] of rangeSegments(r)) segs.push({ a, b, label: `${label} ${formatTimeRange(r)}`, path: [i, 'ranges', j] });
    });
  });
  if (!parsedAll || out.length) return out;
  segs.sort((x, y) => x.a - y.a || x.b - y.b);
  let covered = 0;
  let last: (typeof segs)[number] | null = null;
  for (const s of segs) {
    if (last && s.a < covered) {
      out.push({ path: s.path, message: `时段「${s.label}」与「${last.label}」重叠` });
      return out;
    }
    if (s.a > covered) {
      out.push({ path: [], message: `分时时段须覆盖全天 24 小时：${formatHm(covered)}-${formatHm(s.a)} 未设置` });
      return out;
    }
    covered = s.b;
    last = s;
  }
  if (covered < DAY_MINUTES) out.push({ path: [], message: `分时时段须覆盖全天 24 小时：${formatHm(covered)}-24:00 未设置` });
  return out;
}

/** The TOU period a minute of the day falls in (after touIssues passed). */
export function touPeriodAt(periods: TouPeriod[], minute: number): TouPeriod | undefined {
  return periods.find((p) => p.ranges.some((text) => {
    const r = parseTimeRange(text);
    return !!r && inTimeRange(r, minute);
  }));
}

// ---- versions and schemes --------------------------------------------------------------------

const MODES = Object.keys(PRICE_MODES);

/** Everything wrong with one version (paths relative to the version). */
export function versionIssues(v: PriceVersionInput): Issue[] {
  const out: Issue[] = [];
  if (isBlank(v.effectiveFrom)) out.push({ path: ['effectiveFrom'], message: '请填写生效时间' });
  else if (!normalizeLocalDateTime(v.effectiveFrom)) out.push({ path: ['effectiveFrom'], message: '生效时间格式应为 YYYY-MM-DD 或 YYYY-MM-DD HH:mm:ss' });
  if (!MODES.includes(v.mode as string)) {
    out.push({ path: ['mode'], message: '请选择计价方式（统一单价、阶梯计价或分时计价）' });
  } else if (v.mode === 'flat') {
    const e = priceError(v.unitPrice);
    if (e) out.push({ path: ['unitPrice'], message: e });
  } else if (v.mode === 'tiered') {
    out.push(...prefix(['tiers'], tierIssues(v.tiers)));
  } else {
    const periods = v.tou && typeof v.tou === 'object' ? (v.tou as { periods?: unknown }).periods : undefined;
    out.push(...prefix(['tou', 'periods'], touIssues(periods)));
  }
  if (!isBlank(v.monthlyFee)) {
    const e = amountError(v.monthlyFee, '月固定费');
    if (e) out.push({ path: ['monthlyFee'], message: e });
  }
  if (!isBlank(v.minimumCharge)) {
    const e = amountError(v.minimumCharge, '最低消费');
    if (e) out.push({ path: ['minimumCharge'], message: e });
  }
  return out;
}

export interface SchemeInput {
  chargingMonthType?: unknown;
  versions?: unknown;
}

/**
 * Everything wrong with a scheme's pricing: at least one version, each valid, effective moments
 * unique; the accumulation (chargingMonthType 1 月 / 2 年) is required when a version is tiered and
 * must be empty when none is.
 */
export function schemeIssues(s: SchemeInput): Issue[] {
  const versions = s.versions;
  if (!Array.isArray(versions) || versions.length === 0) return [{ path: ['versions'], message: '请至少添加一个价格版本' }];
  if (versions.length > MAX_VERSIONS) return [{ path: ['versions'], message: `价格版本最多 ${MAX_VERSIONS} 个` }];
  const out: Issue[] = [];
  const firstAt = new Map<string, number>();
  versions.forEach((raw, i) => {
    const v = (raw ?? {}) as PriceVersionInput;
    out.push(...prefix(['versions', i], versionIssues(v)));
    const at = normalizeLocalDateTime(v.effectiveFrom);
    if (!at) return;
    const j = firstAt.get(at);
    if (j !== undefined) out.push({ path: ['versions', i, 'effectiveFrom'], message: `生效时间 ${at} 与第 ${j + 1} 个版本相同` });
    else firstAt.set(at, i);
  });
  const tiered = versions.some((v) => (v as PriceVersionInput | null)?.mode === 'tiered');
  const cmt = s.chargingMonthType;
  const empty = cmt === null || cmt === undefined || cmt === '';
  if (tiered && !(cmt === 1 || cmt === 2 || cmt === '1' || cmt === '2')) {
    out.push({ path: ['chargingMonthType'], message: '阶梯计价须选择累计方式（月累计或年累计）' });
  } else if (!tiered && !empty) {
    out.push({ path: ['chargingMonthType'], message: '只有阶梯计价需要累计方式，请清空' });
  }
  return out;
}

/** A valid version input (versionIssues found nothing) in its canonical stored form. */
export function normalizeVersion(v: PriceVersionInput): PriceVersion {
  const mode = v.mode as PriceMode;
  const tiers = mode === 'tiered'
    ? (v.tiers as { upTo?: unknown; price?: unknown }[]).map((t, i, all) => ({
        upTo: i === all.length - 1 ? null : normalizeQuantity(t.upTo),
        price: normalizePrice(t.price),
      }))
    : [];
  const periods = mode === 'tou'
    ? ((v.tou as { periods: { name: string; price: unknown; ranges: string[] }[] }).periods)
        .map((p) => ({
          name: p.name.trim(),
          price: normalizePrice(p.price),
          ranges: p.ranges.map((r) => formatTimeRange(parseTimeRange(r) as TimeRange)),
        }))
        .sort((a, b) => TOU_PERIOD_NAMES.indexOf(a.name as TouPeriodName) - TOU_PERIOD_NAMES.indexOf(b.name as TouPeriodName))
    : [];
  return {
    effectiveFrom: normalizeLocalDateTime(v.effectiveFrom) as string,
    mode,
    unitPrice: mode === 'flat' ? normalizePrice(v.unitPrice) : '0.0000',
    tiers,
    tou: { periods },
    monthlyFeeFen: amountToFen(v.monthlyFee),
    minimumChargeFen: amountToFen(v.minimumCharge),
  };
}

/** The version in effect at a local moment ('YYYY-MM-DD HH:mm:ss'): the latest one not after it. */
export function versionAt<T extends { effectiveFrom: string }>(versions: T[], at: string): T | undefined {
  let best: T | undefined;
  for (const v of versions) if (v.effectiveFrom <= at && (!best || v.effectiveFrom > best.effectiveFrom)) best = v;
  return best;
}

// ---- alarm schemes ---------------------------------------------------------------------------

export interface AlarmRules {
  alarm1Fen: number;
  alarm2Fen: number;
  closeFen: number;
  /** 'HH:mm' or '' (no window) */
  noCloseStart: string;
  noCloseEnd: string;
  noCloseWeekend?: boolean;
}

/**
 * 报警方案: 一级报警 ≥ 二级报警 ≥ 断闸金额; the no-disconnect window has both ends or neither, and
 * they differ (the window may wrap midnight, e.g. 22:00-08:00). Paths are the wire field names.
 */
export function alarmIssues(a: AlarmRules): Issue[] {
  const out: Issue[] = [];
  if (a.alarm2Fen > a.alarm1Fen) out.push({ path: ['alarmAmount2'], message: '二级报警金额不能大于一级报警金额' });
  if (a.closeFen > a.alarm2Fen) out.push({ path: ['closeAmount'], message: '断闸金额不能大于二级报警金额' });
  const s = a.noCloseStart.trim();
  const e = a.noCloseEnd.trim();
  if (s || e) {
    const sm = parseHm(s);
    const em = parseHm(e);
    if (sm === null) out.push({ path: ['noCloseStart'], message: '请填写不断闸开始时间（HH:mm）' });
    else if (em === null) out.push({ path: ['noCloseEnd'], message: '请填写不断闸结束时间（HH:mm）' });
    else if (sm === em) out.push({ path: ['noCloseEnd'], message: '不断闸开始时间和结束时间不能相同' });
  }
  return out;
}

/**
 * Whether an automatic close is held off at this instant: on Saturday and Sunday (Asia/Shanghai) when
 * the weekend flag is set, and inside [start, end) of the daily window (wrapping midnight when end < start).
 */
export function inNoCloseWindow(a: Pick<AlarmRules, 'noCloseStart' | 'noCloseEnd' | 'noCloseWeekend'>, at: Date): boolean {
  const local = beijingFields(at);
  const day = local.weekday;
  if (a.noCloseWeekend && (day === 0 || day === 6)) return true;
  const s = parseHm(a.noCloseStart);
  const e = parseHm(a.noCloseEnd);
  if (s === null || e === null || s === e) return false;
  return inTimeRange({ start: s, end: e }, local.hour * 60 + local.minute);
}
