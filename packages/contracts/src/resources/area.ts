import { defineResource } from '../resource.ts';

/** 区域类型 (SPEC §3): 0 selectable node, 1 ignored (a grouping node that is not picked as a place). */
export const AREA_TYPES: Record<number, string> = { 0: '普通区域', 1: '分组节点（不可选）' };

/** Deepest level an area may have (deep 0 is the top): park → building → unit → floor … */
export const AREA_MAX_DEEP = 9;

/** The four address levels of the area form's cascader (SPEC §3/§9: levels 0–3). */
export const ADDRESS_LEVELS = ['province', 'city', 'district', 'town'] as const;
export const ADDRESS_LEVEL_LABELS = ['省', '市', '区/县', '乡镇/街道'];

/** Provincial-level divisions of the PRC: level 0 of the address cascader. */
export const PROVINCES = [
  '北京市', '天津市', '河北省', '山西省', '内蒙古自治区', '辽宁省', '吉林省', '黑龙江省', '上海市', '江苏省', '浙江省',
  '安徽省', '福建省', '江西省', '山东省', '河南省', '湖北省', '湖南省', '广东省', '广西壮族自治区', '海南省', '重庆市',
  '四川省', '贵州省', '云南省', '西藏自治区', '陕西省', '甘肃省', '青海省', '宁夏回族自治区', '新疆维吾尔自治区',
  '台湾省', '香港特别行政区', '澳门特别行政区',
];

/**
 * 区域 (Area): a node of the company's area tree. `deep` is computed from the parent; the address is
 * stored as four names (province, city, district, town).
 */
export const areaResource = defineResource({
  name: 'area',
  title: '区域',
  fields: [
    { key: 'name', label: '区域名称', type: 'text', required: true, max: 64, search: 'like', width: 180 },
    { key: 'parentId', label: '上级区域', type: 'ref', ref: { url: '/yewu/api/GetAreaTreeNoRoom' }, tooltip: '不选则为顶级区域' },
    { key: 'areaType', label: '区域类型', type: 'enum', options: { 0: AREA_TYPES[0], 1: AREA_TYPES[1] }, default: 0 },
    { key: 'deep', label: '层级', type: 'int', readonly: true },
    { key: 'province', label: '省', type: 'text', max: 32, hideInTable: true },
    { key: 'city', label: '市', type: 'text', max: 32, hideInTable: true },
    { key: 'district', label: '区/县', type: 'text', max: 32, hideInTable: true },
    { key: 'town', label: '乡镇/街道', type: 'text', max: 32, hideInTable: true },
    { key: 'sort', label: '排序', type: 'int', min: 0, max: 9999, default: 0 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

/** 区域权限 (AreaPermission): a named set of areas that can be bound to admin users in one step. */
export const areaPermissionResource = defineResource({
  name: 'areaPermission',
  title: '区域权限',
  fields: [
    { key: 'name', label: '权限名称', type: 'text', required: true, max: 64, search: 'like', unique: true },
    { key: 'areaIds', label: '包含区域', type: 'tags', required: true, tooltip: '绑定该权限的账号可以查看这些区域及其下级' },
    { key: 'status', label: '状态', type: 'enum', options: { 1: '在用', 0: '停用' }, default: 1, search: 'eq' },
    { key: 'memo', label: '备注', type: 'textarea', max: 200 },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});
