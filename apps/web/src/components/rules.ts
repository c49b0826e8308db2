// Form rules shared by hand-written forms and the declared ones (resourceColumns), kept apart from the
// resource declarations so a page that only needs a rule does not load them (and zod).
import type { Rule } from 'antd/es/form';
import { phoneError } from '@meter/contracts';

/** A mobile number, with the server's words for what is wrong (length, digits or prefix); '' passes. */
export function phoneRule(label = '手机号码'): Rule {
  return {
    validator: (_r, v) => {
      const e = v == null || String(v).trim() === '' ? null : phoneError(String(v), label);
      return e ? Promise.reject(new Error(e)) : Promise.resolve();
    },
  };
}

/** A confirmation field: required, and equal to `field` (e.g. 确认新密码 against newPassword). */
export function confirmRules(field: string, required: string, mismatch: string): Rule[] {
  return [
    { required: true, message: required },
    ({ getFieldValue }) => ({
      validator: (_r, value) => (!value || value === getFieldValue(field) ? Promise.resolve() : Promise.reject(new Error(mismatch))),
    }),
  ];
}
