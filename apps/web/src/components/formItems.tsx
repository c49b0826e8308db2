// Form pieces forms share: the 元 amount input and the optional 备注 (≤ 200 字) of the money dialogs,
// a new password with its confirmation.
import type { ReactNode } from 'react';
import { Form, Input, type InputProps } from 'antd';
import type { Rule } from 'antd/es/form';
import { confirmRules } from './rules.ts';

/** An amount in 元 as typed (a string: the server parses it, the form's rule checks it). */
export function YuanInput(props: InputProps) {
  return <Input prefix="¥" suffix="元" inputMode="decimal" autoComplete="off" placeholder="如 100 或 100.50" maxLength={16} {...props} />;
}

/** The optional 备注 field (name `memo`, at most 200 字). */
export function MemoItem({ placeholder = '选填' }: { placeholder?: string }) {
  return (
    <Form.Item name="memo" label="备注" rules={[{ max: 200, message: '备注最多 200 个字' }]}>
      <Input.TextArea rows={2} placeholder={placeholder} />
    </Form.Item>
  );
}

/** A new password (`新${noun}`, field `name`) and its confirmation (field `confirm`, must be equal). */
export function NewPasswordItems({ name, noun, rules, extra }: { name: string; noun: string; rules: Rule[]; extra?: ReactNode }) {
  return (
    <>
      <Form.Item name={name} label={`新${noun}`} rules={rules} extra={extra}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="confirm" label={`确认新${noun}`} dependencies={[name]} rules={confirmRules(name, `请再次输入新${noun}`, `两次输入的${noun}不一致`)}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
