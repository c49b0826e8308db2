import { DLT645_DI, type Dlt645DataItem } from './dlt645.ts';

/**
 * The parameters (参变量) the platform reads and sets on DL/T 645 electricity meters, beyond the
 * codec's own table: one list for the gateway (what it writes and how it decodes the answers) and the
 * simulator (which registers its meters keep).
 */
export const DLT645_PARAMS = {
  alarm1Money: { dataId: 0x04001001, label: '报警金额1限值', unit: '元', bytes: 4, decimals: 2 },
  alarm2Money: { dataId: 0x04001002, label: '报警金额2限值', unit: '元', bytes: 4, decimals: 2 },
  overdraftLimit: { dataId: 0x04001003, label: '透支金额限值', unit: '元', bytes: 4, decimals: 2 },
  hoardLimit: { dataId: 0x04001004, label: '囤积金额限值', unit: '元', bytes: 4, decimals: 2 },
  closeAllowMoney: { dataId: 0x04001005, label: '合闸允许金额限值', unit: '元', bytes: 4, decimals: 2 },
  ctRatio: { dataId: 0x04000306, label: '电流互感器变比', unit: '', bytes: 3, decimals: 0 },
  ptRatio: { dataId: 0x04000307, label: '电压互感器变比', unit: '', bytes: 3, decimals: 0 },
  /** 表号: 12 digits, written like an address */
  meterNumber: { dataId: DLT645_DI.METER_NUMBER, label: '表号', unit: '', bytes: 6, decimals: -1 },
} as const;
export type Dlt645Param = keyof typeof DLT645_PARAMS;
export const DLT645_PARAM_KEYS = Object.keys(DLT645_PARAMS) as Dlt645Param[];
const isAddressParam = (p: { decimals: number }) => p.decimals < 0;

/** The parameters as codec data items, by data identifier (pass as `dataItems` to decode them). */
export const DLT645_PARAM_ITEMS: Readonly<Record<number, Dlt645DataItem>> = Object.freeze(
  Object.fromEntries(
    Object.entries(DLT645_PARAMS).map(([key, p]): [number, Dlt645DataItem] => [
      p.dataId,
      isAddressParam(p)
        ? { key, label: p.label, format: { type: 'address' } }
        : { key, label: p.label, unit: p.unit, format: { type: 'bcd', bytes: p.bytes, decimals: p.decimals, signed: false } },
    ]),
  ),
);
