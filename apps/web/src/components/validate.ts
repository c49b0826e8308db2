// Form validation feedback (SPEC §5): a failed form shows the warning 表单验证失败!; field-by-field
// validation shows the first failing field's message as a warning and stops.
import type { FormInstance } from 'antd';
import { toast } from '../app/feedback.tsx';

export const FORM_INVALID = '表单验证失败!';

/** Validate an antd form; on failure warn 表单验证失败! and give undefined (the caller stops there). */
export async function formValues<T>(form: FormInstance<T>, warn: (text: string) => void = toast.warning): Promise<T | undefined> {
  try {
    return await form.validateFields();
  } catch {
    warn(FORM_INVALID);
    return undefined;
  }
}

export interface FieldCheck {
  value: unknown;
  /** the warning shown when this field fails */
  message: string;
  /** passes when true; default: present and not blank (strings are trimmed) */
  test?: (value: unknown) => boolean;
}

const present = (v: unknown) =>
  v !== undefined && v !== null && !(typeof v === 'string' && v.trim() === '') && !(Array.isArray(v) && v.length === 0);

/** Check fields in order; warn with the first failing field's message and stop. */
export function checkFields(checks: FieldCheck[], warn: (text: string) => void = toast.warning): boolean {
  for (const c of checks) {
    const ok = c.test ? c.test(c.value) : present(c.value);
    if (!ok) {
      warn(c.message);
      return false;
    }
  }
  return true;
}
