// The valve-control password (SPEC §4, §5, §8): switching a device off (open=false) is an order with a
// memo; when the meter's phaseId is not 1 it is sent directly, when it is 1 a password dialog opens
// first. The dialog's input is required (请输入阀控密码) and trimmed, and checked by the server (POST
// /yewu/api/Company/checkValveControlPwd; the password never comes to the browser); a mismatch warns 密码输入不正确
// and does not proceed; cancel rejects and nothing is sent. The typed password also goes with the
// close request (`password`), for the server to check it itself.
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { Form, Input, type FormInstance } from 'antd';
import { toast } from '../../app/feedback.tsx';
import { ApiError } from '../../api/request.ts';
import { checkValvePasswordOnServer, type Company } from './api.ts';
import { FormDialog } from '../../components/FormDialog.tsx';

export const MSG_PWD_REQUIRED = '请输入阀控密码';
export const MSG_PWD_WRONG = '密码输入不正确';

/** Cancelling the password dialog rejects with this. */
export class ValveCancelled extends Error {
  constructor() {
    super('已取消');
    this.name = 'ValveCancelled';
  }
}

export type PasswordCheck = 'empty' | 'mismatch' | 'ok';

/** The typed password, trimmed, against the company's. */
export function checkValvePassword(typed: string | undefined | null, actual: string | undefined | null): PasswordCheck {
  const t = String(typed ?? '').trim();
  if (!t) return 'empty';
  return actual != null && t === String(actual).trim() ? 'ok' : 'mismatch';
}

/** Whether switching this meter off asks the password first (SPEC §4: phaseId 1). */
export const needsPassword = (m: { phaseId: number | null | undefined }) => Number(m.phaseId) === 1;

/**
 * Switch meters off: the password is asked once when any of them has phaseId 1 (a cancel rejects
 * with ValveCancelled and sends nothing); then `send` runs with the password typed (sent with the
 * request, for the server to check), or without one when none was asked.
 */
export async function switchOff<T>(
  meters: { phaseId: number | null | undefined }[],
  ask: () => Promise<string | void>,
  send: (password?: string) => Promise<T>,
): Promise<T> {
  const password = meters.some(needsPassword) ? await ask() : undefined;
  return send(password || undefined);
}

/**
 * Checks a typed password as the dialog does: required (请输入阀控密码), then compared with the
 * company's (密码输入不正确). Resolves with the trimmed password when right, null otherwise (the
 * reason shown as a warning; a failed fetch was shown by the request wrapper).
 */
export async function verifyValvePassword(typed: string, company: Company): Promise<string | null> {
  if (checkValvePassword(typed, 'x') === 'empty') {
    toast.warning(MSG_PWD_REQUIRED);
    return null;
  }
  // the comparison is the server's: the password never comes to the browser
  try {
    await checkValvePasswordOnServer(company, typed.trim());
  } catch (e) {
    if (e instanceof ApiError && e.code === 'VALVE_PWD_WRONG') toast.warning(MSG_PWD_WRONG);
    else toast.warning(e instanceof ApiError ? e.serverMessage || e.message : '请求失败');
    return null;
  }
  return typed.trim();
}

/**
 * The password typed in a form holding a ValvePasswordField, checked by the server: null when the field
 * is empty (it shows 请输入阀控密码) or the password is refused (the reason was shown).
 */
export async function formValvePassword(form: FormInstance<{ password: string }>, company: Company): Promise<string | null> {
  let typed: string;
  try {
    typed = (await form.validateFields()).password;
  } catch {
    return null;
  }
  return verifyValvePassword(typed, company);
}

/**
 * The one valve-password field of every form that switches meters off (the dialog below, the bulk
 * close confirmation, a timed close): required (请输入阀控密码), masked, never remembered by the browser.
 */
export function ValvePasswordField({ name = 'password', extra, autoFocus = true }: { name?: string; extra?: ReactNode; autoFocus?: boolean }) {
  return (
    <Form.Item label="阀控密码" name={name} extra={extra} rules={[{ required: true, whitespace: true, message: MSG_PWD_REQUIRED }]}>
      <Input.Password placeholder="请输入阀控密码" autoFocus={autoFocus} autoComplete="off" />
    </Form.Item>
  );
}

interface Pending {
  resolve(password: string): void;
  reject(e: Error): void;
}

/**
 * The password dialog as a hook: `ask()` opens it and resolves when the right password was typed,
 * rejects (ValveCancelled) when the dialog is cancelled. Render `dialog` once in the page.
 */
export function useValvePassword(company: Company): { ask: () => Promise<string>; dialog: ReactNode } {
  const [open, setOpen] = useState(false);
  const [checking, setChecking] = useState(false);
  const pending = useRef<Pending | null>(null);
  const [form] = Form.useForm<{ password: string }>();

  const ask = useCallback(
    () =>
      new Promise<string>((resolve, reject) => {
        pending.current?.reject(new ValveCancelled());
        pending.current = { resolve, reject };
        form.resetFields();
        setOpen(true);
      }),
    [form],
  );

  const close = () => {
    setOpen(false);
    pending.current = null;
  };

  const confirm = async () => {
    setChecking(true);
    let password: string | null;
    try {
      password = await formValvePassword(form, company);
    } finally {
      setChecking(false);
    }
    if (password == null) return;
    const p = pending.current;
    close();
    p?.resolve(password);
  };

  const cancel = () => {
    const p = pending.current;
    close();
    p?.reject(new ValveCancelled());
  };

  const dialog = (
    <FormDialog
      open={open}
      title="阀控密码"
      okText="确定"
      confirmLoading={checking}
      onOk={() => void confirm()}
      onCancel={cancel}
      width={400}
    >
      <Form form={form} layout="vertical" name="valve-password" onFinish={() => void confirm()}>
        <ValvePasswordField />
      </Form>
    </FormDialog>
  );
  return { ask, dialog };
}
