import { describe, expect, it } from 'vitest';
import { defineResource } from '@meter/contracts';
import { columnsFromResource, timeRangeColumn } from './resourceColumns.tsx';
import { formColumns, tableColumns } from './ResourceTable.tsx';

const def = defineResource({
  name: 't',
  title: '测试',
  fields: [
    { key: 'name', label: '名称', type: 'text', required: true, max: 8, search: 'like' },
    { key: 'kind', label: '类型', type: 'enum', options: { 1: '电', 2: '水' }, required: true },
    { key: 'phone', label: '手机', type: 'phone' },
    { key: 'idNo', label: '身份证', type: 'idcard' },
    { key: 'createdAt', label: '创建时间', type: 'datetime', readonly: true },
  ],
});

describe('columnsFromResource', () => {
  const cols = columnsFromResource<Record<string, unknown>>(def);
  it('maps types, search and required from the declaration', () => {
    expect(cols.map((c) => c.valueType)).toEqual(['text', 'select', 'text', 'text', 'dateTime']);
    expect(cols[0].search).toBe(true);
    expect(cols[1].search).toBe(false);
    expect(cols[1].valueEnum).toEqual({ 1: { text: '电' }, 2: { text: '水' } });
  });
  it('read-only fields are table columns but not form fields', () => {
    expect(tableColumns(cols).map((c) => c.dataIndex)).toContain('createdAt');
    expect(formColumns(cols, 'create').map((c) => (c as { dataIndex?: unknown }).dataIndex)).not.toContain('createdAt');
  });
  it('carries Chinese rules: required, max length, phone and ID-card checks', async () => {
    const form = formColumns(cols, 'create') as { dataIndex: string; formItemProps: { rules: { required?: boolean; message?: string; validator?: (r: unknown, v: unknown) => Promise<void> }[] } }[];
    const name = form.find((c) => c.dataIndex === 'name')!;
    expect(name.formItemProps.rules[0]).toMatchObject({ required: true, message: '请输入名称' });
    expect(form.find((c) => c.dataIndex === 'kind')!.formItemProps.rules[0].message).toBe('请选择类型');
    const id = form.find((c) => c.dataIndex === 'idNo')!.formItemProps.rules.find((r) => r.validator)!;
    await expect(id.validator!({}, '11010519491231002X')).resolves.toBeUndefined();
    await expect(id.validator!({}, '110105194912310021')).rejects.toThrow('身份证不是有效的 18 位身份证号码');
  });
  it('an enum default is the string key of its option (the select shows 在用, not 1)', () => {
    const [status] = columnsFromResource<Record<string, unknown>>(
      defineResource({ name: 's', title: '状态', fields: [{ key: 'status', label: '状态', type: 'enum', options: { 1: '在用', 0: '停用' }, default: 1, search: 'eq' }] }),
    );
    expect(status.initialValue).toBe('1');
    expect(Object.keys(status.valueEnum as object)).toContain(status.initialValue);
  });
  it('a number below its minimum is refused with a message, not clamped by the input', async () => {
    const [size] = columnsFromResource<Record<string, unknown>>(
      defineResource({ name: 'r', title: '房间', fields: [{ key: 'sizeM2', label: '面积（㎡）', type: 'decimal', scale: 2, min: 0, max: 100000 }] }),
    );
    // the input does not clamp: it replaces the min 0 pro-field's digit input adds by itself
    expect(size.fieldProps).toHaveProperty('min', -Number.MAX_SAFE_INTEGER);
    const rule = (size.rules as { validator: (r: unknown, v: unknown) => Promise<void> }[])[0];
    await expect(rule.validator({}, -5)).rejects.toThrow('面积（㎡）不能小于 0');
    await expect(rule.validator({}, 100001)).rejects.toThrow('面积（㎡）不能大于 100000');
    await expect(rule.validator({}, 0)).resolves.toBeUndefined();
    await expect(rule.validator({}, undefined)).resolves.toBeUndefined();
  });
  it('a phone of 11 digits with no mobile prefix is refused for its prefix, not its length', async () => {
    const form = formColumns(cols, 'create') as { dataIndex: string; formItemProps: { rules: { validator?: (r: unknown, v: unknown) => Promise<void> }[] } }[];
    const phone = form.find((c) => c.dataIndex === 'phone')!.formItemProps.rules.find((r) => r.validator)!;
    await expect(phone.validator!({}, '23800138000')).rejects.toThrow('手机号段无效：中国大陆手机号码以 13～19 开头（现为 23）');
    await expect(phone.validator!({}, '1380013800')).rejects.toThrow('手机须为 11 位数字（现为 10 位）');
    await expect(phone.validator!({}, '13800138000')).resolves.toBeUndefined();
    await expect(phone.validator!({}, '')).resolves.toBeUndefined();
  });
  it('overrides and extra columns', () => {
    const c = columnsFromResource<Record<string, unknown>>(def, { name: { width: 120 } }, [{ title: '区域', dataIndex: 'areaName' }]);
    expect(c[0].width).toBe(120);
    expect(c.at(-1)!.dataIndex).toBe('areaName');
  });
});

describe('timeRangeColumn', () => {
  it('is search-only and sends the range as startTime / endTime, or as the keys named', () => {
    const range = ['2025-03-01 00:00:00', '2025-03-31 23:59:59'];
    const send = (c: ReturnType<typeof timeRangeColumn>) => (c.search as { transform(v: unknown): unknown }).transform(range);
    const plain = timeRangeColumn('登记时间');
    expect(plain).toMatchObject({ dataIndex: 'timeRange', valueType: 'dateTimeRange', hideInTable: true });
    expect(send(plain)).toEqual({ startTime: range[0], endTime: range[1] });
    const control = timeRangeColumn('开始时间', { dataIndex: '__range', keys: ['start', 'end'] });
    expect(control.dataIndex).toBe('__range');
    expect(send(control)).toEqual({ start: range[0], end: range[1] });
  });
});
