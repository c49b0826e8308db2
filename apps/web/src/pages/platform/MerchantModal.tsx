// 支付设置 (/belongs, per company): the company's own WeChat Pay / Alipay merchant and its pay gears
// (充值档位). Secrets are write-only: the server answers only whether one is stored and its public
// half's fingerprint; a blank secret field keeps the stored one. Without an enabled merchant the
// platform's merchant takes the company's online payments.
import { useEffect } from 'react';
import { Alert, Button, Form, Input, Select, Space, Switch, Tabs, Tag, Typography } from 'antd';
import { companyAdminApi, type Merchant, type MerchantInput } from '../../api/company.ts';
import { toast } from '../../app/feedback.tsx';
import SettingsModal, { useCompanySettings } from './SettingsModal.tsx';
import { useBusyRun } from '../../components/busyRun.ts';

interface Props {
  company: { id: number; name: string } | null;
  onClose(): void;
}

type Values = Omit<MerchantInput, 'companyId'> & { gears: string[] };

const SECRET_FIELDS = ['wxPrivateKey', 'wxApiV3Key', 'aliPrivateKey'] as const;

/** The stored merchant → form values (secrets never pre-filled). */
export function merchantForm(m: Merchant, gears: string[]): Values {
  return {
    wxEnabled: m.wxEnabled, wxMchid: m.wxMchid, wxAppid: m.wxAppid, wxSerialNo: m.wxSerialNo, wxPrivateKey: '', wxPlatformSerial: m.wxPlatformSerial,
    wxPlatformKey: m.wxPlatformKey, wxApiV3Key: '', aliEnabled: m.aliEnabled, aliAppId: m.aliAppId, aliSellerId: m.aliSellerId, aliPrivateKey: '',
    aliPublicKey: m.aliPublicKey, gears,
  };
}

/** Form values → the save body (trimmed; blank secrets mean keep). */
export function merchantBody(companyId: number, v: Values): MerchantInput {
  const t = (x: unknown) => String(x ?? '').trim();
  const body: MerchantInput = {
    companyId, wxEnabled: !!v.wxEnabled, wxMchid: t(v.wxMchid), wxAppid: t(v.wxAppid), wxSerialNo: t(v.wxSerialNo), wxPlatformSerial: t(v.wxPlatformSerial),
    wxPlatformKey: t(v.wxPlatformKey), aliEnabled: !!v.aliEnabled, aliAppId: t(v.aliAppId), aliSellerId: t(v.aliSellerId), aliPublicKey: t(v.aliPublicKey),
  };
  for (const k of SECRET_FIELDS) body[k] = k === 'wxApiV3Key' ? String(v[k] ?? '') : t(v[k]);
  return body;
}

const stored = (set: boolean, fp?: string) =>
  set ? `已保存${fp ? `（公钥指纹 ${fp}）` : ''}，留空不修改` : '未保存，请粘贴';

const pemRows = { minRows: 3, maxRows: 6 };

/** 启用 switch and two fields side by side: the head of each provider's tab */
function ProviderHead({ enabled, label, left, right }: { enabled: string; label: string; left: [string, string, string, number]; right: [string, string, string, number] }) {
  const field = ([name, text, hint, max]: [string, string, string, number]) => (
    <Form.Item name={name} label={text} style={{ flex: 1 }}>
      <Input placeholder={hint} maxLength={max} />
    </Form.Item>
  );
  return (
    <>
      <Form.Item name={enabled} label={label} valuePropName="checked">
        <Switch checkedChildren="启用" unCheckedChildren="停用" />
      </Form.Item>
      <Space.Compact block style={{ gap: 12 }}>
        {field(left)}
        {field(right)}
      </Space.Compact>
    </>
  );
}

/** The company's merchant settings and its pay gears (充值档位). */
async function loadSettings(companyId: number) {
  const [merchant, g] = await Promise.all([companyAdminApi.merchant(companyId), companyAdminApi.payGear(companyId)]);
  return { merchant, gears: g.gears };
}

export default function MerchantModal({ company, onClose }: Props) {
  const [form] = Form.useForm<Values>();
  const [loaded, setLoaded] = useCompanySettings(company, loadSettings, onClose);
  const data = loaded?.merchant ?? null;
  const { busy: saving, run } = useBusyRun();
  // the form shows the settings as loaded, and as saved
  useEffect(() => {
    if (loaded) form.setFieldsValue(merchantForm(loaded.merchant, loaded.gears));
  }, [loaded, form]);

  const save = async () => {
    if (!company) return;
    const v = await form.validateFields().catch(() => null);
    if (!v) return;
    await run(async () => {
      const merchant = await companyAdminApi.saveMerchant(merchantBody(company.id, v));
      const g = await companyAdminApi.savePayGear(company.id, (v.gears ?? []).map((x) => String(x).trim()).filter(Boolean));
      setLoaded({ merchant, gears: g.gears });
      toast.success('保存成功');
      onClose();
    });
  };

  const useEmulator = () => {
    if (!data?.emulator) return;
    form.setFieldsValue({ wxPlatformSerial: data.emulator.wxPlatformSerial, wxPlatformKey: data.emulator.wxPlatformKey, aliPublicKey: data.emulator.aliPublicKey });
  };

  const wechat = data && (
    <>
      <ProviderHead enabled="wxEnabled" label="启用本单位微信支付商户" left={['wxMchid', '商户号（mchid）', '如 1900009191', 12]} right={['wxAppid', 'AppID', 'wx 开头的 18 位', 18]} />
      <Form.Item name="wxSerialNo" label="商户 API 证书序列号">
        <Input maxLength={40} />
      </Form.Item>
      <Form.Item name="wxPrivateKey" label="商户 API 私钥（apiclient_key.pem）" extra={stored(data.wxPrivateKeySet, data.wxPrivateKeyFingerprint)}>
        <Input.TextArea autoSize={pemRows} placeholder={stored(data.wxPrivateKeySet)} autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Form.Item name="wxApiV3Key" label="APIv3 密钥" extra={data.wxApiV3KeySet ? '已保存，留空不修改' : '32 个字符'}>
        <Input.Password autoComplete="new-password" maxLength={32} placeholder={data.wxApiV3KeySet ? '已保存，留空不修改' : '32 个字符'} />
      </Form.Item>
      <Form.Item name="wxPlatformSerial" label="平台证书序列号或平台公钥 ID">
        <Input placeholder="PUB_KEY_ID_…" maxLength={128} />
      </Form.Item>
      <Form.Item name="wxPlatformKey" label="微信支付平台公钥（PEM）">
        <Input.TextArea autoSize={pemRows} spellCheck={false} />
      </Form.Item>
    </>
  );

  const alipay = data && (
    <>
      <ProviderHead enabled="aliEnabled" label="启用本单位支付宝商户" left={['aliAppId', '支付宝 AppID', '16 位数字', 16]} right={['aliSellerId', '卖家 ID（PID）', '2088 开头的 16 位', 16]} />
      <Form.Item name="aliPrivateKey" label="应用私钥（PEM）" extra={stored(data.aliPrivateKeySet, data.aliPrivateKeyFingerprint)}>
        <Input.TextArea autoSize={pemRows} placeholder={stored(data.aliPrivateKeySet)} autoComplete="off" spellCheck={false} />
      </Form.Item>
      <Form.Item name="aliPublicKey" label="支付宝公钥（PEM）">
        <Input.TextArea autoSize={pemRows} spellCheck={false} />
      </Form.Item>
    </>
  );

  const gears = (
    <>
      <Typography.Paragraph type="secondary">业主在线充值时可直接点选的金额（元），最多 12 个，保存后按金额从小到大排列。</Typography.Paragraph>
      <Form.Item name="gears" label="充值档位（元）">
        <Select mode="tags" tokenSeparators={[',', '，', ' ']} open={false} suffixIcon={null} placeholder="输入金额后回车，如 50、100、200" />
      </Form.Item>
    </>
  );

  return (
    <SettingsModal title={company ? `支付设置 — ${company.name}` : '支付设置'} open={!!company} ready={!!data} saving={saving} onOk={() => void save()} onCancel={onClose}>
      {data && (
        <Form form={form} layout="vertical" requiredMark={false}>
          {data.mode === 'simulated' ? (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} message="当前为模拟支付模式，单位支付商户不生效。" />
          ) : (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 12 }}
              message={
                <Space wrap>
                  <span>未启用时，本单位的在线支付使用平台商户收款。密钥加密保存，不会回显。</span>
                  {data.mode === 'emulator' && <Tag color="orange">本地支付模拟器</Tag>}
                  {data.emulator && (
                    <Button size="small" onClick={useEmulator}>
                      填入模拟器平台公钥
                    </Button>
                  )}
                </Space>
              }
            />
          )}
          <Tabs
            items={[
              { key: 'wechat', label: '微信支付', forceRender: true, children: wechat },
              { key: 'alipay', label: '支付宝', forceRender: true, children: alipay },
              { key: 'gears', label: '充值档位', forceRender: true, children: gears },
            ]}
          />
        </Form>
      )}
    </SettingsModal>
  );
}
