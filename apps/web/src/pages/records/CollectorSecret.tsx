// 注册密钥 of a collector (/recordsCollect, issue 12 §2): the gateway accepts a collector only when it
// registers with `REG <imei> <secret>`, so the installer configures this line as the DTU's registration
// packet. Only staff who may edit collectors (device.collectorEdit) open it; the secret is masked until
// asked for, and regenerating it (audited) makes the old one stop working at once.
import { useState } from 'react';
import { Alert, Button, Descriptions, Modal, Popconfirm, Space, Typography } from 'antd';
import type { CollectorSecret } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { toast } from '../../app/feedback.tsx';

const MASK = '•'.repeat(16);

/** The line the DTU sends first (docs/DEVICE-WIRE.md). */
export const registrationLine = (imei: string, secret: string) => `REG ${imei} ${secret}`;

export function CollectorSecretModal({ collector, company, onClose }: {
  collector: { id: number; name: string; imei: string };
  company: string | undefined;
  onClose(): void;
}) {
  const [shown, setShown] = useState<CollectorSecret | null>(null);
  const [busy, setBusy] = useState(false);
  const one = { query: { id: collector.id, searchCompanyID: company } };

  const reveal = async () => {
    setBusy(true);
    try {
      setShown(await call(E.collector.secret, one));
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };

  const regenerate = async () => {
    setBusy(true);
    try {
      setShown(await call(E.collector.resetSecret, one));
      toast.success('注册密钥已重新生成，请将新的注册包配置到采集器');
    } catch {
      // shown by the request wrapper
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal open title={`注册密钥 - ${collector.name}`} footer={<Button onClick={onClose}>关闭</Button>} onCancel={onClose} destroyOnHidden width={560}>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message="采集器上线时须先发送注册包，请在 DTU 中将注册包配置为下方内容（以换行结尾）。密钥请勿外传。"
      />
      <Descriptions column={1} bordered size="small">
        <Descriptions.Item label="IMEI">{collector.imei}</Descriptions.Item>
        <Descriptions.Item label="注册密钥">
          {shown ? (
            <Typography.Text code copyable data-testid="collector-secret">{shown.secret}</Typography.Text>
          ) : (
            <Space>
              <Typography.Text type="secondary">{MASK}</Typography.Text>
              <Button size="small" loading={busy} onClick={() => void reveal()}>显示</Button>
            </Space>
          )}
        </Descriptions.Item>
        {shown && (
          <Descriptions.Item label="注册包">
            <Typography.Text code copyable data-testid="collector-registration">{registrationLine(shown.imei, shown.secret)}</Typography.Text>
          </Descriptions.Item>
        )}
      </Descriptions>
      <div style={{ marginTop: 16 }}>
        <Popconfirm
          title="重新生成注册密钥"
          description="旧密钥将立即失效，采集器须配置新的注册包后才能上线。确定重新生成吗？"
          okText="确定"
          cancelText="取消"
          onConfirm={() => regenerate()}
        >
          <Button danger loading={busy}>重新生成密钥</Button>
        </Popconfirm>
      </div>
    </Modal>
  );
}
