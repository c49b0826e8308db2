import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { findControlChar, num } from './input.ts';
import { fieldSchema } from './resource.ts';

describe('num: a number or a numeric string, nothing else', () => {
  const id = num(z.number().int().positive());
  it('takes numbers and numeric strings', () => {
    expect(id.parse(12)).toBe(12);
    expect(id.parse('12')).toBe(12);
    expect(id.parse(' 7 ')).toBe(7);
  });
  it('refuses booleans, arrays, objects, null, blank and non-numeric text (z.coerce.number() took true as 1, [12] as 12)', () => {
    for (const v of [true, false, [12], ['12'], { a: 1 }, null, '', ' ', '1e3', '0x10', 'Infinity', '12abc']) {
      expect(id.safeParse(v).success, JSON.stringify(v)).toBe(false);
    }
  });
  it('keeps the inner rules and the Chinese message', () => {
    expect(id.safeParse(0).success).toBe(false);
    expect(id.safeParse('1.5').success).toBe(false);
    const r = num(z.number().int(), '须为整数').safeParse(true);
    expect(r.error?.issues[0].message).toBe('须为整数');
  });
  it('declared int and ref fields refuse booleans and arrays', () => {
    const ref = fieldSchema({ key: 'roomId', label: '房间', type: 'ref' });
    const int = fieldSchema({ key: 'n', label: '数量', type: 'int', min: 0 });
    for (const v of [true, [12], null, '']) {
      expect(ref.safeParse(v).success, JSON.stringify(v)).toBe(false);
      expect(int.safeParse(v).success, JSON.stringify(v)).toBe(false);
    }
    expect(ref.parse('3')).toBe(3);
  });
});

describe('findControlChar', () => {
  it('names the path of the first string with a control character', () => {
    expect(findControlChar({ username: '\u0000x' })).toEqual(['username']);
    expect(findControlChar({ a: { b: ['ok', 'x\u001fy'] } })).toEqual(['a', 'b', '1']);
    expect(findControlChar({ ['k\u0000']: 1 })).toEqual(['k?']);
    expect(findControlChar({ s: 'x\u007f' })).toEqual(['s']);
  });
  it('lets text with tabs and line breaks, Chinese and emoji through', () => {
    expect(findControlChar({ memo: '第一行\r\n第二行\t备注 😀', n: 1, b: true, z: null })).toBeNull();
    expect(findControlChar('plain')).toBeNull();
  });
});
