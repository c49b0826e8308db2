import type { z } from 'zod';
import { ChargingSchemeBody, amountToFen } from '@meter/contracts';
import type { Tx } from '../../db/client.ts';
import * as repo from './repo.ts';

// Demo schemes of a company (DESIGN §2): one charging scheme of each pricing mode for electricity and
// water, a price change, charge codes and alarm schemes. The schemes go through the same validation
// as the API, so the demo never holds a scheme the form would refuse.

type SchemeIn = z.input<typeof ChargingSchemeBody>;

const TOU_COMMERCIAL = [
  { name: '尖', price: '1.2000', ranges: ['11:00-12:00', '15:00-17:00'] },
  { name: '峰', price: '0.9000', ranges: ['10:00-11:00', '14:00-15:00', '17:00-19:00'] },
  { name: '平', price: '0.6000', ranges: ['08:00-10:00', '12:00-14:00', '19:00-22:00'] },
  { name: '谷', price: '0.3000', ranges: ['22:00-08:00'] },
];

export function demoSchemes(now = new Date()): SchemeIn[] {
  const nextYear = now.getFullYear() + 1;
  return [
    {
      name: '商业用电（统一电价）', kind: 1, memo: '2025 年起由 0.6500 调整为 0.6800 元/kWh',
      versions: [
        { effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '0.6500' },
        { effectiveFrom: '2025-01-01', mode: 'flat', unitPrice: '0.6800' },
      ],
    },
    {
      name: '居民阶梯电价', kind: 1, chargingMonthType: 1, memo: '按月累计：200 kWh 以内、200–400 kWh、400 kWh 以上',
      versions: [{
        effectiveFrom: '2024-01-01', mode: 'tiered',
        tiers: [{ upTo: '200', price: '0.5283' }, { upTo: '400', price: '0.5783' }, { upTo: null, price: '0.8283' }],
      }],
    },
    {
      name: '商业分时电价', kind: 1, memo: '尖峰平谷分时计价，月最低消费 20 元',
      versions: [{ effectiveFrom: '2024-01-01', mode: 'tou', tou: { periods: TOU_COMMERCIAL }, minimumCharge: '20.00' }],
    },
    {
      name: '居民用水（统一水价）', kind: 2, memo: `${nextYear} 年 1 月 1 日起调整为 4.5000 元/m³`,
      versions: [
        { effectiveFrom: '2024-01-01', mode: 'flat', unitPrice: '4.2000' },
        { effectiveFrom: `${nextYear}-01-01`, mode: 'flat', unitPrice: '4.5000' },
      ],
    },
    {
      name: '居民阶梯水价', kind: 2, chargingMonthType: 2, memo: '按年累计：180 m³ 以内、180–260 m³、260 m³ 以上',
      versions: [{
        effectiveFrom: '2024-01-01', mode: 'tiered', monthlyFee: '2.00',
        tiers: [{ upTo: '180', price: '4.2000' }, { upTo: '260', price: '5.4600' }, { upTo: null, price: '8.4000' }],
      }],
    },
  ];
}

const CHARGE_CODES = [
  { code: 'DF001', name: '电费', schemeType: 1, amount: '0' },
  { code: 'SF001', name: '水费', schemeType: 2, amount: '0' },
  { code: 'WYF001', name: '物业管理费', schemeType: 3, amount: '150.00' },
  { code: 'GTF001', name: '公摊电费', schemeType: 4, amount: '20.00' },
  { code: 'QT001', name: '垃圾清运费', schemeType: 5, amount: '10.00' },
];

const ALARM_SCHEMES = [
  { name: '电表默认报警', kind: 1, alarm1: '20', alarm2: '10', close: '0', overdraft: '0', notifySms: true, notifyPhone: false, start: '22:00', end: '08:00', weekend: false, memo: '余额低于 20 元、10 元各提醒一次，夜间不断电' },
  { name: '水表默认报警', kind: 2, alarm1: '20', alarm2: '10', close: '0', overdraft: '0', notifySms: true, notifyPhone: false, start: '', end: '', weekend: false, memo: '' },
  { name: '商户报警（可透支）', kind: 1, alarm1: '50', alarm2: '20', close: '0', overdraft: '10', notifySms: true, notifyPhone: true, start: '20:00', end: '09:00', weekend: true, memo: '允许透支 10 元，周末不断电' },
];

/** Writes the demo schemes, charge codes and alarm schemes of one company. */
export async function seedSchemes(tx: Tx, companyId: number, now = new Date()) {
  for (const input of demoSchemes(now)) {
    const s = ChargingSchemeBody.parse(input);
    const id = await repo.insertScheme(tx, companyId, { name: s.name, kind: s.kind, chargingMonthType: s.chargingMonthType, status: s.status, memo: s.memo });
    await repo.syncVersions(tx, companyId, id, s.versions);
  }
  await repo.insertChargeCodes(tx, CHARGE_CODES.map(({ amount, ...c }) => ({ companyId, ...c, amountFen: amountToFen(amount) })));
  await repo.insertAlarmSchemes(tx, ALARM_SCHEMES.map((a) => ({
    companyId,
    name: a.name,
    kind: a.kind,
    alarm1Fen: amountToFen(a.alarm1),
    alarm2Fen: amountToFen(a.alarm2),
    closeFen: amountToFen(a.close),
    overdraftFen: amountToFen(a.overdraft),
    notifySms: a.notifySms,
    notifyPhone: a.notifyPhone,
    noCloseStart: a.start,
    noCloseEnd: a.end,
    noCloseWeekend: a.weekend,
    memo: a.memo,
  })));
}
