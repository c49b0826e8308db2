// The per-company settings dialogs of /belongs (设备权限, 支付设置): 760 px, 保存/取消, a spinner until
// the settings are loaded, kept open on a mask click.
import { useEffect, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import { FormDialog } from '../../components/FormDialog.tsx';

interface Props {
  title: string;
  open: boolean;
  /** the settings are loaded: the form shows and 保存 is enabled */
  ready: boolean;
  saving: boolean;
  onOk(): void;
  onCancel(): void;
  children: ReactNode;
}

export default function SettingsModal({ title, open, ready, saving, onOk, onCancel, children }: Props) {
  return (
    <FormDialog
      title={title}
      open={open}
      width={760}
      confirmLoading={saving}
      okButtonProps={{ disabled: !ready }}
      onOk={onOk}
      onCancel={onCancel}
    >
      {ready ? (
        children
      ) : (
        <div style={{ textAlign: 'center', padding: 32 }}>
          <Spin />
        </div>
      )}
    </FormDialog>
  );
}

/**
 * The company's settings while its dialog is open: asked when `company` is set (null until they come and
 * while closed); a failed load closes the dialog. `load` and `onFailed` keep their identity between renders
 * (a module's function, useCallback): the settings are asked again when they change.
 */
export function useCompanySettings<T>(company: { id: number } | null, load: (companyId: number) => Promise<T>, onFailed: () => void) {
  const [data, setData] = useState<T | null>(null);
  useEffect(() => {
    setData(null);
    if (!company) return;
    let live = true;
    load(company.id)
      .then((d) => live && setData(d))
      .catch(() => live && onFailed());
    return () => {
      live = false;
    };
  }, [company, load, onFailed]);
  return [data, setData] as const;
}
