// Form validation feedback (SPEC §5): a failed form shows the warning 表单验证失败!; field-by-field
// validation shows the first failing field's message as a warning and stops.
import type { FormInstance } from 'antd';
import { toast } from '../app/feedback.tsx';

export const FORM_INVALID = '表单验证失败!';

/**
 * A validation that a newer one (a second click on the same button) made out of date: nothing failed,
 * the newer validation answers for both.
 */
export function supersededValidation(e: unknown): boolean {
  const err = e as { outOfDate?: boolean; errorFields?: unknown[] } | null;
  return !!err?.outOfDate && !err.errorFields?.length;
}

/**
 * Validate an antd form; on failure warn 表单验证失败!, scroll to the first field in error and give
 * undefined (the caller stops there). A validation superseded by a second click gives undefined
 * silently: the second click goes on (a double-clicked 确定充值 showed 表单验证失败! for a valid form).
 */
export async function formValues<T>(form: FormInstance<T>, warn: (text: string) => void = toast.warning): Promise<T | undefined> {
  try {
    return await form.validateFields();
  } catch (e) {
    if (supersededValidation(e)) return undefined;
    warn(FORM_INVALID);
    scrollToFirstError(form, e);
    return undefined;
  }
}

/**
 * Bring the first field in error into view and focus it: a long form (a meter's) scrolled down to its
 * 保存 otherwise keeps the messages above out of sight.
 */
export function scrollToFirstError(form: Pick<FormInstance, 'scrollToField'> | undefined, e: unknown): void {
  const first = (e as { errorFields?: { name: (string | number)[] }[] } | null)?.errorFields?.[0];
  if (first && form) form.scrollToField(first.name, { block: 'center', focus: true });
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
