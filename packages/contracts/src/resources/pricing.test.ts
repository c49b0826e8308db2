import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  alarmIssues, amountToFen, dateToLocal, formatHm, inNoCloseWindow, localToDate, normalizeLocalDateTime, normalizePrice,
  normalizeVersion, parseHm, parseTimeRange, priceError, schemeIssues, tierIssues, touIssues, touPeriodAt, versionAt,
  versionIssues, DAY_MINUTES,
} from './pricing.ts';
import { ChargingSchemeBody } from './scheme.ts';

const TOU_OK = [
  { name: '尖', price: '1.2', ranges: ['11:00-12:00', '15:00-17:00'] },
  { name: '峰', price: '0.9', ranges: ['10:00-11:00', '14:00-15:00', '17:00-19:00'] },
  { name: '平', price: '0.6', ranges: ['08:00-10:00', '12:00-14:00', '19:00-22:00'] },
  { name: '谷', price: '0.3', ranges: ['22:00-08:00'] },
];

describe('prices', () => {
  it('accepts non-negative prices with at most 4 decimals', () => {
    for (const ok of ['0', '0.6800', '0.5283', '12', 1.2, '10000']) expect(priceError(ok), String(ok)).toBeNull();
    expect(priceError('-0.1')).toBe('单价须为不小于 0 的数字');
    expect(priceError('0.12345')).toBe('单价最多 4 位小数');
    expect(priceError('1e-3')).toBe('单价须为不小于 0 的数字');
    expect(priceError('')).toBe('请填写单价');
    expect(priceError('10000.0001')).toBe('单价不能大于 10000');
    expect(priceError(0.1 + 0.2)).toBe('单价最多 4 位小数');
  });
  it('normalises to 4 decimals without float error', () => {
    expect(normalizePrice('0.68')).toBe('0.6800');
    expect(normalizePrice(1.2)).toBe('1.2000');
    expect(normalizePrice(' 3 ')).toBe('3.0000');
  });
  it('converts 元 amounts to 分 exactly', () => {
    expect(amountToFen('20')).toBe(2000);
    expect(amountToFen('0.1')).toBe(10);
    expect(amountToFen(19.99)).toBe(1999);
    expect(amountToFen('')).toBe(0);
    expect(amountToFen(undefined)).toBe(0);
  });
});

describe('tiers', () => {
  it('accepts ascending limits with an open last tier', () => {
    expect(tierIssues([{ upTo: '200', price: '0.5283' }, { upTo: 400, price: '0.5783' }, { upTo: null, price: '0.8283' }])).toEqual([]);
    expect(tierIssues([{ upTo: '0.5', price: '1' }, { upTo: '', price: '2' }])).toEqual([]);
  });
  it('needs two tiers', () => {
    expect(tierIssues([{ upTo: null, price: '1' }])).toEqual([{ path: [], message: '阶梯计价至少需要两档' }]);
    expect(tierIssues(undefined)).toHaveLength(1);
  });
  it('refuses limits that do not ascend', () => {
    const r = tierIssues([{ upTo: '200', price: '1' }, { upTo: '200', price: '2' }, { upTo: null, price: '3' }]);
    expect(r).toEqual([{ path: [1, 'upTo'], message: '第 2 档上限须大于第 1 档上限（200）' }]);
    expect(tierIssues([{ upTo: '400', price: '1' }, { upTo: '200', price: '2' }, { upTo: null, price: '3' }])[0].path).toEqual([1, 'upTo']);
  });
  it('needs a limit on every tier but the last, and none on the last', () => {
    expect(tierIssues([{ upTo: null, price: '1' }, { upTo: null, price: '2' }])).toEqual([
      { path: [0, 'upTo'], message: '请填写第 1 档上限' },
    ]);
    expect(tierIssues([{ upTo: '100', price: '1' }, { upTo: '200', price: '2' }])).toEqual([
      { path: [1, 'upTo'], message: '最后一档（第 2 档）不设上限，请清空' },
    ]);
    expect(tierIssues([{ upTo: '0', price: '1' }, { upTo: null, price: '2' }])[0].message).toBe('第 1 档上限须大于 0');
    expect(tierIssues([{ upTo: '10.123', price: '1' }, { upTo: null, price: '2' }])[0].message).toBe('第 1 档上限最多 2 位小数');
  });
  it('checks each tier price', () => {
    expect(tierIssues([{ upTo: '100', price: '-1' }, { upTo: null, price: '0.12345' }])).toEqual([
      { path: [0, 'price'], message: '第 1 档单价须为不小于 0 的数字' },
      { path: [1, 'price'], message: '第 2 档单价最多 4 位小数' },
    ]);
  });
});

describe('time ranges', () => {
  it('parses HH:mm with 24:00 only as an end', () => {
    expect(parseHm('00:00')).toBe(0);
    expect(parseHm('23:59')).toBe(1439);
    expect(parseHm('24:00')).toBeNull();
    expect(parseHm('24:00', true)).toBe(1440);
    expect(parseHm('8:00')).toBeNull();
    expect(parseHm('12:60')).toBeNull();
    expect(formatHm(1440)).toBe('24:00');
  });
  it('parses ranges, wrapping midnight when the end is earlier', () => {
    expect(parseTimeRange('08:00-12:00')).toEqual({ start: 480, end: 720 });
    expect(parseTimeRange('22:00-06:00')).toEqual({ start: 1320, end: 360 });
    expect(parseTimeRange('00:00-24:00')).toEqual({ start: 0, end: 1440 });
    expect(parseTimeRange('08:00 - 12:00')).toEqual({ start: 480, end: 720 });
    expect(parseTimeRange('08:00-08:00')).toBeNull();
    expect(parseTimeRange('00:00-00:00')).toBeNull();
    expect(parseTimeRange('08:00')).toBeNull();
    expect(parseTimeRange('25:00-26:00')).toBeNull();
  });
});

describe('time of use coverage', () => {
  it('accepts periods that cover the day exactly once, wrapping midnight', () => {
    expect(touIssues(TOU_OK)).toEqual([]);
    expect(touIssues([{ name: '峰', price: '1', ranges: ['08:00-22:00'] }, { name: '谷', price: '0.3', ranges: ['22:00-24:00', '00:00-08:00'] }])).toEqual([]);
  });
  it('finds a gap', () => {
    const r = touIssues([{ name: '峰', price: '1', ranges: ['08:00-20:00'] }, { name: '谷', price: '0.3', ranges: ['22:00-08:00'] }]);
    expect(r).toEqual([{ path: [], message: '分时时段须覆盖全天 24 小时：20:00-22:00 未设置' }]);
    const end = touIssues([{ name: '峰', price: '1', ranges: ['00:00-12:00'] }, { name: '谷', price: '0.3', ranges: ['12:00-23:00'] }]);
    expect(end[0].message).toBe('分时时段须覆盖全天 24 小时：23:00-24:00 未设置');
  });
  it('finds an overlap and names both ranges', () => {
    const r = touIssues([{ name: '峰', price: '1', ranges: ['08:00-21:00'] }, { name: '谷', price: '0.3', ranges: ['20:00-08:00'] }]);
    expect(r).toHaveLength(1);
    expect(r[0].message).toBe('时段「谷 20:00-08:00」与「峰 08:00-21:00」重叠');
    expect(r[0].path).toEqual([1, 'ranges', 0]);
  });
  it('checks names, prices and range syntax', () => {
    expect(touIssues([{ name: '峰', price: '1', ranges: ['00:00-24:00'] }])[0].message).toBe('分时计价至少需要两个时段');
    const r = touIssues([
      { name: '高峰', price: '1', ranges: ['00:00-12:00'] },
      { name: '谷', price: 'x', ranges: ['12:00-24:00'] },
      { name: '谷', price: '1', ranges: [] },
    ]);
    expect(r.map((i) => i.path)).toEqual([[0, 'name'], [1, 'price'], [2, 'name'], [2, 'ranges']]);
    expect(touIssues([{ name: '峰', price: '1', ranges: ['8-12'] }, { name: '谷', price: '1', ranges: ['12:00-08:00'] }])[0]).toEqual({
      path: [0, 'ranges', 0], message: '「峰」的时间范围「8-12」格式应为 HH:mm-HH:mm，且开始与结束不同',
    });
  });
  it('property: any partition of the day into periods is accepted, and each minute finds its period', () => {
    const partition = fc
      .uniqueArray(fc.integer({ min: 1, max: DAY_MINUTES - 1 }), { minLength: 1, maxLength: 12 })
      .chain((cuts) => fc.tuple(fc.constant([...cuts].sort((a, b) => a - b)), fc.array(fc.integer({ min: 0, max: 3 }), { minLength: cuts.length + 1, maxLength: cuts.length + 1 }), fc.integer({ min: 0, max: DAY_MINUTES - 1 })));
    fc.assert(
      fc.property(partition, ([cuts, owners, rotate]) => {
        const bounds = [0, ...cuts, DAY_MINUTES];
        const names = ['尖', '峰', '平', '谷'];
        // rotating every boundary makes some range wrap midnight
        const shift = (m: number) => (m + rotate) % DAY_MINUTES;
        const periods = names.map((name) => ({ name, price: '1', ranges: [] as string[] }));
        for (let i = 0; i < bounds.length - 1; i++) {
          const a = shift(bounds[i]);
          const b = shift(bounds[i + 1]);
          periods[owners[i]].ranges.push(`${formatHm(a)}-${formatHm(b === 0 ? DAY_MINUTES : b)}`);
        }
        const used = periods.filter((p) => p.ranges.length > 0);
        if (used.length < 2) return;
        expect(touIssues(used)).toEqual([]);
        for (let i = 0; i < bounds.length - 1; i++) {
          const minute = shift(bounds[i]);
          expect(touPeriodAt(used, minute)?.name).toBe(names[owners[i]]);
        }
        // dropping one range always leaves a gap
        const holed = used.map((p, k) => (k === 0 ? { ...p, ranges: p.ranges.slice(1) } : p));
        const issues = touIssues(holed);
        expect(issues.length).toBe(1);
      }),
    );
  });
});

describe('local date time', () => {
  it('normalises dates and moments, refusing impossible ones', () => {
    expect(normalizeLocalDateTime('2025-07-01')).toBe('2025-07-01 00:00:00');
    expect(normalizeLocalDateTime('2025-07-01 08:30')).toBe('2025-07-01 08:30:00');
    expect(normalizeLocalDateTime('2025-07-01T08:30:15')).toBe('2025-07-01 08:30:15');
    expect(normalizeLocalDateTime('2025-02-29')).toBeNull();
    expect(normalizeLocalDateTime('2024-02-29')).toBe('2024-02-29 00:00:00');
    expect(normalizeLocalDateTime('2025-13-01')).toBeNull();
    expect(normalizeLocalDateTime('2025-07-01 24:00')).toBeNull();
    expect(normalizeLocalDateTime('20250701')).toBeNull();
  });
  it('converts Asia/Shanghai local time to an instant and back', () => {
    const d = localToDate('2025-07-01 00:00:00');
    expect(d.toISOString()).toBe('2025-06-30T16:00:00.000Z');
    expect(dateToLocal(d)).toBe('2025-07-01 00:00:00');
  });
});

describe('versions and schemes', () => {
  const flat = { effectiveFrom: '2025-01-01', mode: 'flat', unitPrice: '0.68' };
  it('a flat version needs a price; fees are optional 元 amounts', () => {
    expect(versionIssues(flat)).toEqual([]);
    expect(versionIssues({ ...flat, unitPrice: undefined })).toEqual([{ path: ['unitPrice'], message: '请填写单价' }]);
    expect(versionIssues({ ...flat, monthlyFee: '10.001' })).toEqual([{ path: ['monthlyFee'], message: '月固定费最多 2 位小数' }]);
    expect(versionIssues({ ...flat, minimumCharge: '-1' })).toEqual([{ path: ['minimumCharge'], message: '最低消费须为不小于 0 的数字' }]);
    expect(versionIssues({ ...flat, mode: 'x' })[0].path).toEqual(['mode']);
    expect(versionIssues({ ...flat, effectiveFrom: '2025-02-30' })[0].path).toEqual(['effectiveFrom']);
  });
  it('paths of tier and TOU issues lead to the field', () => {
    expect(versionIssues({ effectiveFrom: '2025-01-01', mode: 'tiered', tiers: [{ upTo: '200', price: '1' }, { upTo: '100', price: '1' }, { price: '1' }] })[0].path)
      .toEqual(['tiers', 1, 'upTo']);
    expect(versionIssues({ effectiveFrom: '2025-01-01', mode: 'tou', tou: { periods: [TOU_OK[0]] } })[0].path).toEqual(['tou', 'periods']);
  });
  it('a scheme needs a version, unique effective moments, and an accumulation only when tiered', () => {
    expect(schemeIssues({ versions: [] })).toEqual([{ path: ['versions'], message: '请至少添加一个价格版本' }]);
    expect(schemeIssues({ versions: [flat, { ...flat, effectiveFrom: '2025-01-01 00:00:00' }] })).toEqual([
      { path: ['versions', 1, 'effectiveFrom'], message: '生效时间 2025-01-01 00:00:00 与第 1 个版本相同' },
    ]);
    const tiered = { effectiveFrom: '2025-01-01', mode: 'tiered', tiers: [{ upTo: '200', price: '1' }, { price: '2' }] };
    expect(schemeIssues({ versions: [tiered] })[0].path).toEqual(['chargingMonthType']);
    expect(schemeIssues({ versions: [tiered], chargingMonthType: 1 })).toEqual([]);
    expect(schemeIssues({ versions: [flat], chargingMonthType: 2 })[0].message).toBe('只有阶梯计价需要累计方式，请清空');
    expect(schemeIssues({ versions: [flat], chargingMonthType: null })).toEqual([]);
  });
  it('normalises a version to its stored form, keeping only what its mode uses', () => {
    expect(normalizeVersion({ ...flat, tiers: [{ upTo: '1', price: '1' }], monthlyFee: '10.5' })).toEqual({
      effectiveFrom: '2025-01-01 00:00:00', mode: 'flat', unitPrice: '0.6800', tiers: [], tou: { periods: [] }, monthlyFeeFen: 1050, minimumChargeFen: 0,
    });
    const tou = normalizeVersion({ effectiveFrom: '2025-01-01', mode: 'tou', tou: { periods: [...TOU_OK].reverse() } });
    expect(tou.tou.periods.map((p) => p.name)).toEqual(['尖', '峰', '平', '谷']);
    expect(tou.tou.periods[0].price).toBe('1.2000');
    expect(tou.unitPrice).toBe('0.0000');
    const tiers = normalizeVersion({ effectiveFrom: '2025-01-01', mode: 'tiered', tiers: [{ upTo: '200.0', price: '0.5283' }, { upTo: '', price: '0.8283' }] });
    expect(tiers.tiers).toEqual([{ upTo: '200', price: '0.5283' }, { upTo: null, price: '0.8283' }]);
  });
  it('finds the version in effect at a moment', () => {
    const vs = [{ effectiveFrom: '2025-01-01 00:00:00', p: 1 }, { effectiveFrom: '2026-01-01 00:00:00', p: 2 }, { effectiveFrom: '2024-01-01 00:00:00', p: 0 }];
    expect(versionAt(vs, '2023-12-31 23:59:59')).toBeUndefined();
    expect(versionAt(vs, '2024-06-01 00:00:00')?.p).toBe(0);
    expect(versionAt(vs, '2025-12-31 23:59:59')?.p).toBe(1);
    expect(versionAt(vs, '2026-01-01 00:00:00')?.p).toBe(2);
  });
});

describe('ChargingSchemeBody', () => {
  it('answers the canonical scheme, versions sorted by effective moment', () => {
    const r = ChargingSchemeBody.parse({
      name: ' 居民阶梯电价 ', kind: '1', chargingMonthType: 1, memo: '',
      versions: [
        { effectiveFrom: '2026-01-01', mode: 'tiered', tiers: [{ upTo: 200, price: '0.55' }, { upTo: null, price: 0.85 }], monthlyFee: '5' },
        { id: 7, effectiveFrom: '2025-01-01', mode: 'flat', unitPrice: '0.6' },
      ],
    });
    expect(r).toMatchObject({ name: '居民阶梯电价', kind: 1, chargingMonthType: 1, status: 1 });
    expect(r.versions.map((v) => v.effectiveFrom)).toEqual(['2025-01-01 00:00:00', '2026-01-01 00:00:00']);
    expect(r.versions[0]).toMatchObject({ id: 7, unitPrice: '0.6000' });
    expect(r.versions[1]).toMatchObject({ tiers: [{ upTo: '200', price: '0.5500' }, { upTo: null, price: '0.8500' }], monthlyFeeFen: 500 });
  });
  it('an empty accumulation is null; issues carry the field path', () => {
    expect(ChargingSchemeBody.parse({ name: 'a', kind: 2, chargingMonthType: '', versions: [{ effectiveFrom: '2025-01-01', mode: 'flat', unitPrice: '4.2' }] }).chargingMonthType).toBeNull();
    const bad = ChargingSchemeBody.safeParse({ name: 'a', kind: 1, versions: [{ effectiveFrom: '2025-01-01', mode: 'flat', unitPrice: '0.12345' }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['versions', 0, 'unitPrice'], message: '单价最多 4 位小数' });
    const none = ChargingSchemeBody.safeParse({ name: 'a', kind: 1 });
    expect(none.error?.issues.map((i) => i.path.join('.'))).toContain('versions');
  });
});

describe('alarm rules', () => {
  const base = { alarm1Fen: 2000, alarm2Fen: 1000, closeFen: 0, noCloseStart: '', noCloseEnd: '' };
  it('alarm1 ≥ alarm2 ≥ close', () => {
    expect(alarmIssues(base)).toEqual([]);
    expect(alarmIssues({ ...base, alarm2Fen: 2000, closeFen: 2000 })).toEqual([]);
    expect(alarmIssues({ ...base, alarm2Fen: 2001 })[0]).toEqual({ path: ['alarmAmount2'], message: '二级报警金额不能大于一级报警金额' });
    expect(alarmIssues({ ...base, closeFen: 1001 })[0]).toEqual({ path: ['closeAmount'], message: '断闸金额不能大于二级报警金额' });
  });
  it('the no-disconnect window needs both ends, different', () => {
    expect(alarmIssues({ ...base, noCloseStart: '22:00', noCloseEnd: '08:00' })).toEqual([]);
    expect(alarmIssues({ ...base, noCloseStart: '22:00' })[0].path).toEqual(['noCloseEnd']);
    expect(alarmIssues({ ...base, noCloseEnd: '08:00' })[0].path).toEqual(['noCloseStart']);
    expect(alarmIssues({ ...base, noCloseStart: '08:00', noCloseEnd: '08:00' })[0].message).toBe('不断闸开始时间和结束时间不能相同');
  });
  it('holds off closing inside the window (wrapping midnight) and on weekends when flagged', () => {
    const w = { noCloseStart: '22:00', noCloseEnd: '08:00', noCloseWeekend: false };
    const at = (s: string) => localToDate(s);
    expect(inNoCloseWindow(w, at('2025-07-02 23:30:00'))).toBe(true); // Wednesday night
    expect(inNoCloseWindow(w, at('2025-07-02 07:59:00'))).toBe(true);
    expect(inNoCloseWindow(w, at('2025-07-02 08:00:00'))).toBe(false);
    expect(inNoCloseWindow(w, at('2025-07-02 21:59:00'))).toBe(false);
    expect(inNoCloseWindow(w, at('2025-07-05 12:00:00'))).toBe(false); // Saturday, flag off
    expect(inNoCloseWindow({ ...w, noCloseWeekend: true }, at('2025-07-05 12:00:00'))).toBe(true);
    expect(inNoCloseWindow({ ...w, noCloseWeekend: true }, at('2025-07-07 12:00:00'))).toBe(false); // Monday
    expect(inNoCloseWindow({ noCloseStart: '', noCloseEnd: '', noCloseWeekend: false }, at('2025-07-02 23:30:00'))).toBe(false);
  });
});
