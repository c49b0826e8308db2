import { describe, expect, it, vi } from 'vitest';
import type { FormInstance } from 'antd';
import { checkFields, FORM_INVALID, formValues } from './validate.ts';

/** the parts of a form these rules use (the rest is never called) */
const fakeForm = (f: Partial<FormInstance>) => f as FormInstance;

describe('form validation feedback', () => {
  it('warns 表单验证失败! and gives nothing when the form does not validate', async () => {
    const warn = vi.fn();
    const scrollToField = vi.fn();
    const form = fakeForm({
      validateFields: () => Promise.reject({ errorFields: [{ name: ['a'], errors: ['请输入a'] }, { name: ['b'], errors: ['请输入b'] }] }),
      scrollToField,
    });
    await expect(formValues(form, warn)).resolves.toBeUndefined();
    expect(warn).toHaveBeenCalledWith(FORM_INVALID);
    expect(FORM_INVALID).toBe('表单验证失败!');
    // the first field in error is brought into view
    expect(scrollToField).toHaveBeenCalledWith(['a'], expect.objectContaining({ block: 'center', focus: true }));
  });

  it('a validation made out of date by a second click warns nothing (the second one answers)', async () => {
    const warn = vi.fn();
    const form = fakeForm({ validateFields: () => Promise.reject({ outOfDate: true, errorFields: [], values: { a: 1 } }), scrollToField: vi.fn() });
    await expect(formValues(form, warn)).resolves.toBeUndefined();
    expect(warn).not.toHaveBeenCalled();
  });

  it('passes the values through when valid, without a warning', async () => {
    const warn = vi.fn();
    const form = fakeForm({ validateFields: () => Promise.resolve({ a: 1 }) });
    await expect(formValues(form, warn)).resolves.toEqual({ a: 1 });
    expect(warn).not.toHaveBeenCalled();
  });

  it('field by field: only the first failing field warns, then it stops', () => {
    const warn = vi.fn();
    const later = vi.fn(() => false);
    const ok = checkFields(
      [
        { value: '张三', message: '请输入姓名' },
        { value: '   ', message: '请输入手机号' },
        { value: '', message: '请输入地址' },
        { value: 1, message: '不会检查', test: later },
      ],
      warn,
    );
    expect(ok).toBe(false);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith('请输入手机号');
    expect(later).not.toHaveBeenCalled();
  });

  it('custom tests and all-valid input', () => {
    const warn = vi.fn();
    expect(checkFields([{ value: 5, message: '金额须大于0', test: (v) => Number(v) > 0 }, { value: ['a'], message: 'x' }], warn)).toBe(true);
    expect(checkFields([{ value: [], message: '请选择房间' }], warn)).toBe(false);
    expect(warn).toHaveBeenCalledWith('请选择房间');
  });
});
