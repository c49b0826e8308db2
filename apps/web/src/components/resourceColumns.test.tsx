import { describe, expect, it } from 'vitest';
import { defineResource } from '@meter/contracts';
import { columnsFromResource } from './resourceColumns.tsx';
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
  it('overrides and extra columns', () => {
    const c = columnsFromResource<Record<string, unknown>>(def, { name: { width: 120 } }, [{ title: '区域', dataIndex: 'areaName' }]);
    expect(c[0].width).toBe(120);
    expect(c.at(-1)!.dataIndex).toBe('areaName');
  });
});
