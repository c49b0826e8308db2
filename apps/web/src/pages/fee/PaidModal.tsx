// The dialog after a counter payment went through: what was paid, the receipt's number and 打印票据
// (opens /billprint on that receipt).
import { Button, Modal, Result, Space, Typography } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import type { ReactNode } from 'react';

export function PaidModal({ title, subTitle, receipt, onClose }: {
  title: ReactNode;
  subTitle: ReactNode;
  receipt: { receiptNo: string; receiptId: number };
  onClose(): void;
}) {
  const navigate = useNavigate();
  return (
    <Modal open title={title} onCancel={onClose} footer={[<Button key="ok" type="primary" onClick={onClose}>完成</Button>]}>
      <Result
        status="success"
        title="缴费成功"
        subTitle={subTitle}
        extra={
          <Space direction="vertical">
            <Typography.Text type="secondary">票据号：{receipt.receiptNo}</Typography.Text>
            <Button icon={<PrinterOutlined />} onClick={() => { onClose(); navigate(`/billprint?id=${receipt.receiptId}`); }}>打印票据</Button>
          </Space>
        }
      />
    </Modal>
  );
}
