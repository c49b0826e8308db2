import {
  AREA_TYPES, COLLECTOR_PLANS, DECORATIONS, ELECTRIC_PLAN_OPTIONS, GENDERS, LOOKUP_KINDS, METER_KINDS, ORIENTATIONS, USE_STATUS, WATER_PLAN_OPTIONS,
  type ImportKind, type LookupKind,
} from '@meter/contracts';

// The columns of each kind's template: Chinese header, the form field it fills (the contracts
// resource's key), an example value, a note for the 填写说明 sheet, and for an enum its labels (the
// template's drop-down list). A reference (上级区域, 房间, 采集器…) is written as a path or a natural
// key, never as an id: the service resolves it in the caller's company.

export interface ImportColumn {
  header: string;
  /** the form field (resource key) or, for a reference, a name of our own */
  key: string;
  required?: boolean;
  example: string;
  note: string;
  /** enum: the labels offered in the drop-down (value → label) */
  options?: Record<string, string>;
  /** a drop-down of suggestions that also admits other text (the meter plan: a label or its code) */
  suggest?: string[];
  /** kept as text in the template (digits with leading zeros, long numbers) */
  text?: boolean;
  width?: number;
}

const label = (e: Record<number | string, string>) => Object.fromEntries(Object.entries(e).map(([k, v]) => [k, v]));

export const WALLET_OPTIONS: Record<string, string> = { electric: '电费', water: '水费', subsidy: '补贴', other: '其他费用' };

const ROOM_PATH_NOTE = '区域路径/房间名称，如 阳光园区/1号楼/1层/1-101（须已存在）';

const PLAN_NOTE = [
  `电表：${ELECTRIC_PLAN_OPTIONS.map((o) => o.label).join('、')}`,
  `水表：${WATER_PLAN_OPTIONS.map((o) => o.label).join('、')}`,
].join('；');

const lookupColumns: ImportColumn[] = (['protocol', 'baud', 'phase', 'gateway', 'port', 'brand', 'caliber', 'type'] as LookupKind[]).map((k) => ({
  header: LOOKUP_KINDS[k],
  key: `${k}Id`,
  example: '',
  note: `选填，设备字典「${LOOKUP_KINDS[k]}」中的名称`,
}));

export const COLUMNS: Record<ImportKind, ImportColumn[]> = {
  area: [
    { header: '区域名称', key: 'name', required: true, example: '1号楼', note: '最多 64 个字；同一上级区域下不能重名', width: 20 },
    { header: '上级区域', key: 'parentPath', example: '阳光园区', note: '上级区域的完整路径，如 阳光园区/1号楼；不填为顶级区域；可以是本文件中的其他行', width: 28 },
    { header: '区域类型', key: 'areaType', example: AREA_TYPES[0], note: '不填为 普通区域', options: label(AREA_TYPES), width: 18 },
    { header: '省', key: 'province', example: '广东省', note: '选填', width: 12 },
    { header: '市', key: 'city', example: '深圳市', note: '选填；填了市须先填省', width: 12 },
    { header: '区/县', key: 'district', example: '南山区', note: '选填；填了区/县须先填市', width: 12 },
    { header: '乡镇/街道', key: 'town', example: '', note: '选填；填了乡镇/街道须先填区/县', width: 14 },
    { header: '排序', key: 'sort', example: '0', note: '0–9999 的整数，不填为 0', width: 8 },
  ],
  room: [
    { header: '房间名称', key: 'name', required: true, example: '1-101', note: '最多 64 个字；同一区域下不能重名', width: 14 },
    { header: '所属区域', key: 'areaPath', required: true, example: '阳光园区/1号楼/1层', note: '区域的完整路径（须已存在）', width: 28 },
    { header: '装修情况', key: 'decoration', example: DECORATIONS[1], note: '不填为 毛坯', options: label(DECORATIONS) },
    { header: '朝向', key: 'orientation', example: ORIENTATIONS[1], note: '不填为 东', options: label(ORIENTATIONS) },
    { header: '收费类型', key: 'chargingTypeName', example: '', note: '选填，收费类型的名称（须已存在且在用）', width: 16 },
    { header: '面积（㎡）', key: 'sizeM2', example: '89.5', note: '0–100000，最多 2 位小数' },
    { header: '状态', key: 'status', example: USE_STATUS[1], note: '不填为 在用', options: label(USE_STATUS) },
    { header: '备注', key: 'memo', example: '', note: '最多 200 个字', width: 20 },
  ],
  owner: [
    { header: '业主姓名', key: 'name', required: true, example: '张三', note: '最多 32 个字' },
    { header: '手机号码', key: 'phone', required: true, example: '13800138000', note: '11 位手机号码；同一单位内不能重复', text: true, width: 16 },
    { header: '身份证号', key: 'idNumber', example: '', note: '选填，18 位身份证号码', text: true, width: 22 },
    { header: '性别', key: 'gender', example: GENDERS[1], note: '不填为 未知', options: label(GENDERS) },
    { header: '邮箱', key: 'email', example: '', note: '选填', width: 20 },
    { header: '入住房间', key: 'roomPath', example: '阳光园区/1号楼/1层/1-101', note: `选填：${ROOM_PATH_NOTE}，须无人入住`, width: 32 },
    { header: '备注', key: 'memo', example: '', note: '最多 200 个字', width: 20 },
  ],
  collector: [
    { header: '采集器名称', key: 'name', required: true, example: '1号楼采集器', note: '最多 64 个字', width: 18 },
    { header: 'IMEI', key: 'imei', required: true, example: '860000000000001', note: '15 位数字，全平台唯一', text: true, width: 18 },
    { header: '采集器方案', key: 'plan', required: true, example: COLLECTOR_PLANS[0], note: '须为本单位已开通的方案', options: label(COLLECTOR_PLANS), width: 14 },
    { header: '安装区域', key: 'areaPath', required: true, example: '阳光园区/1号楼', note: '区域的完整路径（须已存在）', width: 28 },
    { header: 'SIM 卡号', key: 'simNo', example: '', note: '选填，最多 20 位数字', text: true, width: 22 },
    { header: '安装位置', key: 'installAddress', example: '1层弱电间', note: '选填，最多 200 个字', width: 20 },
    { header: '备注', key: 'memo', example: '', note: '最多 200 个字', width: 20 },
  ],
  meter: [
    { header: '表具名称', key: 'name', example: '1-101电表', note: '选填，最多 64 个字', width: 16 },
    { header: '表具类别', key: 'kind', required: true, example: METER_KINDS[1], note: '电表 或 水表', options: label(METER_KINDS) },
    {
      header: '表具方案', key: 'plan', required: true, example: '0', note: `方案代码（括号中的数字）或下拉中的方案名称，须为本单位已开通的方案。${PLAN_NOTE}`, width: 16,
      suggest: [...new Set([...ELECTRIC_PLAN_OPTIONS, ...WATER_PLAN_OPTIONS].map((o) => o.label))],
    },
    { header: '表地址', key: 'address', required: true, example: '000000000101', note: '电表 12 位、水表 14 位数字，全平台唯一', text: true, width: 18 },
    { header: '房间', key: 'roomPath', required: true, example: '阳光园区/1号楼/1层/1-101', note: ROOM_PATH_NOTE, width: 32 },
    { header: '采集器 IMEI', key: 'collectorImei', example: '860000000000001', note: '选填：表具所接采集器的 IMEI（本单位的采集器）', text: true, width: 18 },
    { header: '表具 IMEI', key: 'imei', example: '', note: '选填：NB/4G 表具的 15 位 IMEI，全平台唯一', text: true, width: 18 },
    ...lookupColumns,
    { header: '倍率', key: 'multiplier', example: '1', note: '0.01–100000，不填为 1' },
    { header: '初始读数', key: 'initialReading', example: '0', note: '不填为 0，最多 2 位小数' },
    { header: '收费方案', key: 'chargingSchemeName', example: '', note: '选填：本单位同类别收费方案的名称', width: 16 },
    { header: '报警方案', key: 'alarmSchemeName', example: '', note: '选填：本单位同类别报警方案的名称', width: 16 },
    { header: '安装日期', key: 'installDate', example: '2025-01-01', note: '选填，格式 YYYY-MM-DD', text: true, width: 14 },
    { header: '上报周期（分钟）', key: 'reportInterval', example: '0', note: '0–10080，不填为 0（按通讯方式）' },
    { header: '状态', key: 'status', example: '在用', note: '不填为 在用', options: { 1: '在用', 0: '停用' } },
    { header: '备注', key: 'memo', example: '', note: '最多 200 个字', width: 20 },
  ],
  opening: [
    { header: '业主手机号码', key: 'phone', required: true, example: '13800138000', note: '已登记业主的手机号码', text: true, width: 16 },
    { header: '业主姓名', key: 'name', example: '张三', note: '选填：填写时须与该手机号码的业主一致' },
    { header: '房间', key: 'roomPath', example: '阳光园区/1号楼/1层/1-101', note: `选填：${ROOM_PATH_NOTE}；须为该业主当前入住的房间`, width: 32 },
    { header: '钱包', key: 'wallet', required: true, example: WALLET_OPTIONS.electric, note: '电费、水费、补贴 或 其他费用', options: WALLET_OPTIONS },
    { header: '期初余额（元）', key: 'amount', required: true, example: '150.00', note: '不能为 0；欠费结转填负数；最多 2 位小数', width: 14 },
    { header: '备注', key: 'memo', example: '', note: '最多 200 个字', width: 20 },
  ],
};

/** The header a form field is shown under (for a validation message naming the column). */
export function headerOf(kind: ImportKind, key: string): string {
  const cols = COLUMNS[kind];
  const direct = cols.find((c) => c.key === key);
  if (direct) return direct.header;
  // a reference resolved to an id: roomId ← roomPath, areaId ← areaPath …
  const alias: Record<string, string> = {
    areaId: 'areaPath', parentId: 'parentPath', roomId: 'roomPath', collectorId: 'collectorImei',
    chargingTypeId: 'chargingTypeName', chargingSchemeId: 'chargingSchemeName', alarmSchemeId: 'alarmSchemeName',
  };
  return cols.find((c) => c.key === alias[key])?.header ?? '';
}
