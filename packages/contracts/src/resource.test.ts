import { describe, expect, it } from 'vitest';
import { defineResource, formSchema, isValidIdCard, listQuerySchema } from './resource.ts';

const def = defineResource({
  name: 'thing',
  title: '东西',
  fields: [
    { key: 'name', label: '名称', type: 'text', required: true, max: 8, search: 'like' },
    { key: 'kind', label: '类型', type: 'enum', options: { 0: '甲', 1: '乙' }, required: true, search: 'eq' },
    { key: 'price', label: '单价', type: 'decimal', scale: 4, min: 0 },
    { key: 'phone', label: '手机', type: 'phone' },
    { key: 'idNo', label: '身份证', type: 'idcard' },
    { key: 'memo', label: '备注', type: 'textarea' },
  ],
});

describe('formSchema', () => {
  const s = formSchema(def);
  it('accepts a valid body and normalises empties', () => {
    expect(s.parse({ name: ' 表 ', kind: '1', price: '1.2345', phone: '', idNo: '' })).toEqual({
      name: '表', kind: 1, price: '1.2345', phone: '', idNo: '', memo: '',
    });
  });
  it('names the field in Chinese', () => {
    const r = s.safeParse({ name: '', kind: 5, price: '1.23456', phone: '123' });
    expect(r.success).toBe(false);
    const msgs = r.error!.issues.map((i) => i.message);
    expect(msgs).toEqual(expect.arrayContaining(['请输入名称', '类型取值无效', '单价格式不正确（最多 4 位小数）', '手机须为 11 位数字（现为 3 位）']));
  });
  it('a mobile number of 11 digits with no mobile prefix is refused for its prefix, not its length', () => {
    const msg = (phone: string) => s.safeParse({ name: 'x', kind: 1, price: '1', phone }).error?.issues[0].message;
    expect(msg('23800138000')).toBe('手机号段无效：中国大陆手机号码以 13～19 开头（现为 23）');
    expect(msg('1380013800')).toBe('手机须为 11 位数字（现为 10 位）');
    expect(msg('138-0013-800')).toBe('手机只能填写数字');
    expect(msg('13800138000')).toBeUndefined();
  });
  it('requires required non-text fields', () => {
    const r = s.safeParse({ name: 'x' });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].path).toEqual(['kind']);
  });
});

describe('listQuerySchema', () => {
  it('pages and filters, blank means no filter', () => {
    expect(listQuerySchema(def).parse({ index: '2', size: '10', name: '', kind: '0' })).toMatchObject({ index: 2, size: 10, kind: 0 });
    expect(listQuerySchema(def).parse({}).name).toBeUndefined();
  });
});

describe('isValidIdCard', () => {
  it('checks the check digit and the birth date', () => {
    expect(isValidIdCard('11010519491231002X')).toBe(true);
    expect(isValidIdCard('110105194912310021')).toBe(false); // wrong check digit
    expect(isValidIdCard('110105194902300020')).toBe(false); // 30 Feb
    expect(isValidIdCard('11010519491231002')).toBe(false); // 17 digits
    expect(isValidIdCard('440524188001010014')).toBe(false); // before 1900
  });
});
