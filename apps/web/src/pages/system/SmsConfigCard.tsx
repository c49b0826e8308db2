// 短信服务商 on /systemSend: the company's SMS provider — 仅记录日志 (default), 阿里云短信 or 腾讯云短信 —
// with its key ID, secret, signature and template. The secret is never shown: the card says whether one
// is stored, and an empty secret field keeps it. In the demo (emulator mode) messages go to the local
// emulators, which check the signatures with the secret stored here.
import { useEffect } from 'react';
import { Alert, Button, Card, Form, Input, Radio, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '@meter/contracts';
import { smsApi, type SmsConfigInput } from '../../api/sms.ts';
import { toast } from '../../app/feedback.tsx';
import { FORM_INVALID } from '../../components/validate.ts';

export const PROVIDER_OPTIONS = [
  { value: 'log', label: '仅记录日志（不发送）' },
  { value: 'aliyun', label: '阿里云短信' },
  { value: 'tencent', label: '腾讯云短信' },
];

export function SmsConfigCard() {
  const [form] = Form.useForm<SmsConfigInput>();
  const info = useQuery({ queryKey: ['smsConfig'], queryFn: () => smsApi.config() });
  const provider = Form.useWatch('provider', form) ?? info.data?.provider ?? 'log';
  const ali = provider === 'aliyun';
  const voice = Boolean(Form.useWatch('voiceTemplateCode', form));

  useEffect(() => {
    if (info.data) form.setFieldsValue({ ...info.data, secret: '' });
  }, [info.data, form]);

  const submit = async (v: SmsConfigInput) => {
    try {
      await smsApi.saveConfig({ ...v, secret: v.secret?.trim() ?? '' });
    } catch {
      return; // the wrapper showed the server's reason (e.g. 请填写短信签名)
    }
    toast.success('短信服务商配置已保存');
    void info.refetch();
  };

  const d = info.data;
  return (
    <Card title="短信服务商" loading={info.isLoading} extra={d?.mode === 'emulator' ? <Tag color="orange">演示：本地模拟器</Tag> : <Tag color="green">正式服务</Tag>}>
      {d && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16, maxWidth: 720 }}
          message={`本单位短信单价 ${formatMoney(d.smsPriceFen)}/条，电话 ${formatMoney(d.phonePriceFen)}/次；服务商接收成功后按单价计费，未送达不计费。`}
        />
      )}
      <Form form={form} layout="vertical" name="sms-config" onFinish={submit} onFinishFailed={() => toast.warning(FORM_INVALID)} style={{ maxWidth: 520 }}>
        <Form.Item name="provider" label="服务商" rules={[{ required: true, message: '请选择服务商' }]}>
          <Radio.Group options={PROVIDER_OPTIONS} optionType="button" />
        </Form.Item>
        {provider !== 'log' && (
          <>
            <Form.Item name="accessKeyId" label={ali ? 'AccessKey ID' : 'SecretId'} rules={[{ required: true, whitespace: true, message: ali ? '请填写 AccessKey ID' : '请填写 SecretId' }]}>
              <Input autoComplete="off" />
            </Form.Item>
            <Form.Item
              name="secret"
              label={ali ? 'AccessKey Secret' : 'SecretKey'}
              extra={d?.secretSet ? '已保存密钥；留空则保持不变' : '密钥加密保存，保存后不再显示'}
              rules={d?.secretSet ? [] : [{ required: true, whitespace: true, message: ali ? '请填写 AccessKey Secret' : '请填写 SecretKey' }]}
            >
              <Input.Password autoComplete="new-password" placeholder={d?.secretSet ? '••••••（已设置）' : ''} />
            </Form.Item>
            {!ali && (
              <Form.Item name="sdkAppId" label="SdkAppId" rules={[{ required: true, pattern: /^\d{10}$/, message: 'SdkAppId 应为 10 位数字' }]}>
                <Input />
              </Form.Item>
            )}
            <Form.Item name="signName" label="短信签名" rules={[{ required: true, whitespace: true, message: '请填写短信签名' }]}>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item
              name="templateCode"
              label={ali ? '模板编号（TemplateCode）' : '模板 ID（TemplateId）'}
              extra={ali ? '通知模板只含一个变量 ${content}' : '通知模板只含一个参数 {1}'}
              rules={[ali ? { required: true, pattern: /^SMS_\d+$/, message: '阿里云模板编号应形如 SMS_123456789' } : { required: true, pattern: /^\d+$/, message: '腾讯云模板 ID 应为数字' }]}
            >
              <Input />
            </Form.Item>
            {!ali && (
              <Form.Item name="region" label="地域" extra="默认 ap-guangzhou">
                <Input placeholder="ap-guangzhou" />
              </Form.Item>
            )}
            <Form.Item
              name="voiceTemplateCode"
              label={ali ? '语音通知模板（TtsCode）' : '语音通知模板 ID（VMS TemplateId）'}
              extra={`电话提醒（语音通知）用，模板只含一个变量；留空则电话提醒只记录日志、不拨打`}
              rules={[ali ? { pattern: /^TTS_\d+$/, message: '阿里云语音模板编号应形如 TTS_123456789' } : { pattern: /^\d+$/, message: '腾讯云语音模板 ID 应为数字' }]}
            >
              <Input />
            </Form.Item>
            {voice && ali && (
              <Form.Item name="voiceShowNumber" label="主叫显号" rules={[{ required: true, pattern: /^\d{5,20}$/, message: '请填写已审核的主叫显号' }]}>
                <Input />
              </Form.Item>
            )}
            {voice && !ali && (
              <Form.Item name="voiceSdkAppId" label="VoiceSdkAppid" rules={[{ required: true, pattern: /^\d{10}$/, message: 'VoiceSdkAppid 应为 10 位数字' }]}>
                <Input />
              </Form.Item>
            )}
          </>
        )}
        <Button type="primary" htmlType="submit">保存配置</Button>
        {d?.updatedAt && <span style={{ marginLeft: 12, color: '#999' }}>上次保存：{d.updatedAt}</span>}
      </Form>
    </Card>
  );
}
