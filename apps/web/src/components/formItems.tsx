// Form pieces the money dialogs share: the 元 amount input and the optional 备注 (≤ 200 字).
import { Form, Input, type InputProps } from 'antd';

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
