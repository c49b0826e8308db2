import { Modal, type ModalProps } from 'antd';

/**
 * The dialog of a form or a confirmation, one way everywhere: 取消 and an OK button (保存 unless `okText`
 * says otherwise; `confirmLoading` while it submits), its content dropped when it closes, and a click
 * beside it does not close it (nothing typed is lost by a stray click).
 */
export function FormDialog(props: ModalProps) {
  return <Modal okText="保存" cancelText="取消" destroyOnHidden maskClosable={false} {...props} />;
}
