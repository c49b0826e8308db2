// The per-company settings dialogs of /belongs (设备权限, 支付设置): 760 px, 保存/取消, a spinner until
// the settings are loaded, kept open on a mask click.
import type { ReactNode } from 'react';
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
