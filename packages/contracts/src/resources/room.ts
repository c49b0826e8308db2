import { defineResource } from '../resource.ts';

// Rooms (房间 — shown as 出租屋 or 物业 by the company's edition, UNIT_LABELS) and charging types
// (收费类型, page /systemFees). Issue 3 §3.

/** 装修情况 (GetDecorationEnum). */
export const DECORATIONS: Record<number, string> = { 0: '毛坯', 1: '简装', 2: '精装', 3: '豪装' };

/** 朝向 (GetOrientationEnum). */
export const ORIENTATIONS: Record<number, string> = {
  0: '东', 1: '南', 2: '西', 3: '北', 4: '东南', 5: '东北', 6: '西南', 7: '西北', 8: '南北通透',
};

/** 费用类别 (GetChargeTypeEnum). */
export const CHARGE_TYPES: Record<number, string> = { 1: '电费', 2: '水费', 3: '物业费', 4: '公摊费', 5: '其他' };

export const USE_STATUS: Record<number, string> = { 1: '在用', 0: '停用' };

/** An enum as the option list the enum endpoints answer: [{value, label}]. */
export const enumOptions = (e: Record<number, string>) =>
  Object.entries(e).map(([value, label]) => ({ value: Number(value), label }));

const opts = (e: Record<number, string>) => Object.fromEntries(Object.entries(e)) as Record<string, string>;

/** 房间 (RoomInfo). The row id travels as `Id` (SPEC §3). */
export const roomResource = defineResource({
  name: 'room',
  title: '房间',
  idKey: 'Id',
  fields: [
    { key: 'name', label: '房间名称', type: 'text', required: true, max: 64, search: 'like', width: 140 },
    { key: 'areaId', label: '所属区域', type: 'ref', required: true, ref: { url: '/yewu/api/GetAreaTreeNoRoom' } },
    { key: 'areaName', label: '区域位置', type: 'text', readonly: true, width: 220 },
    { key: 'ownerName', label: '业主姓名', type: 'text', readonly: true, search: 'like' },
    { key: 'ownerPhone', label: '业主电话', type: 'text', readonly: true, search: 'like' },
    { key: 'decoration', label: '装修情况', type: 'enum', options: opts(DECORATIONS), default: 0 },
    { key: 'orientation', label: '朝向', type: 'enum', options: opts(ORIENTATIONS), default: 0 },
    {
      key: 'chargingTypeId', label: '收费类型', type: 'ref', search: 'eq',
      ref: { url: '/yewu/api/ChargingType/GetAllUsingList_All' },
    },
    { key: 'chargingTypeName', label: '收费类型名称', type: 'text', readonly: true, hideInTable: true },
    { key: 'sizeM2', label: '面积（㎡）', type: 'decimal', scale: 2, min: 0, max: 100000 },
    { key: 'meterCount', label: '表具数', type: 'int', readonly: true },
    { key: 'status', label: '状态', type: 'enum', options: opts(USE_STATUS), default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200, hideInTable: true },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** 收费类型 (ChargingType): what a room is charged for, e.g. 住宅用电, 商铺用水. */
export const chargingTypeResource = defineResource({
  name: 'chargingType',
  title: '收费类型',
  fields: [
    { key: 'name', label: '收费类型名称', type: 'text', required: true, max: 64, search: 'like', unique: true },
    {
      key: 'chargeType', label: '费用类别', type: 'enum', required: true, options: opts(CHARGE_TYPES), search: 'eq', default: 1,
      colors: { 1: 'gold', 2: 'blue', 3: 'green', 4: 'purple', 5: 'default' },
    },
    { key: 'status', label: '状态', type: 'enum', options: opts(USE_STATUS), colors: { 1: 'success' }, default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});
