import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { resetInflight } from '../../api/request.ts';
import { mockServer, ok, renderPage, signIn, type Call } from '../../test/harness.tsx';
import SystemSend from './SystemSend.tsx';

// 短信配置 (/systemSend): the company picks 阿里云 or 腾讯云; the fields follow the provider, the secret is
// never shown (only 已保存密钥) and an empty one is sent as '' (keep the stored one).

configure({ asyncUtilTimeout: 8000 });


const stored = {
  companyId: 1, provider: 'aliyun', accessKeyId: 'LTAI-demo', secretSet: true, signName: '演示物业', templateCode: 'SMS_100000001',
  sdkAppId: '', region: '', updatedAt: '2026-11-26 10:00:00', mode: 'emulator', smsPriceFen: 8, phonePriceFen: 20,
};

const rules = [1, 2].flatMap((meterKind) => [1, 2, 3, 4].map((event) => ({
  meterKind, event, templateId: null, thresholdFen: 0, channel: event <= 2 ? 'sms' : 'off', templateName: null, templateContent: null, saved: false,
})));
const templates = [
  { id: 11, name: '缴费到账通知', event: 4, content: '{owner}缴费¥{amount}', status: 1, memo: '', createdAt: '2026-11-26 10:00:00' },
  { id: 12, name: '余额不足提醒', event: 1, content: '{owner}余额¥{balance}', status: 1, memo: '', createdAt: '2026-11-26 10:00:00' },
];

function mockSms(calls: Call[] = []): Call[] {
  return mockServer(
    (c) => {
      const p = c.path;
      if (p.endsWith('/sms/config') && c.method === 'POST') return ok({ ...stored, ...c.body, secret: undefined, secretSet: true });
      if (p.endsWith('/sms/config')) return ok(stored);
      if (p.endsWith('/sms/bulk/preview')) {
        return ok({ owners: 3, count: 2, priceFen: 6, costFen: 12, sample: [{ ownerName: '业主1', phone: '13800000000', roomName: '101', content: '业主1您好' }] });
      }
      if (p.endsWith('/sms/bulk/send')) return ok({ batch: 'b'.repeat(36), total: 2, queued: 2, sending: 0, sent: 0, failed: 0, costFen: 0, done: false });
      if (p.endsWith('/sms/bulk/progress')) return ok({ batch: 'b'.repeat(36), total: 2, queued: 0, sending: 0, sent: 2, failed: 0, costFen: 12, done: true });
      if (p.endsWith('/alermSmsConfig/ConfigList')) return ok(rules);
      if (p.endsWith('/alermSmsConfig')) return ok(rules);
      if (p.endsWith('/alermSmsConfigTemplate/List')) return ok(templates, templates.length);
      return undefined;
    },
    [],
    calls,
  );
}

const session = () => signIn(['systemSend']);

const show = () => renderPage('systemSend', <SystemSend />);

/** signed in, the server mocked, /systemSend shown: the requests it sends */
function open(): Call[] {
  session();
  const calls = mockSms();
  show();
  return calls;
}

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/sms/config'));

beforeEach(() => resetInflight());

describe('短信服务商 on /systemSend', { timeout: 120_000 }, () => {
  it('shows the stored 阿里云 settings without the secret and saves with an empty secret (kept)', async () => {
    const calls = open();
    const card = (await screen.findByText('AccessKey ID')).closest('.ant-card') as HTMLElement;
    expect(within(card).getByText('演示：本地模拟器')).toBeTruthy();
    expect(within(card).getByText('已保存密钥；留空则保持不变')).toBeTruthy();
    expect((within(card).getByLabelText('AccessKey ID') as HTMLInputElement).value).toBe('LTAI-demo');
    expect((within(card).getByLabelText('AccessKey Secret') as HTMLInputElement).value).toBe('');
    expect(within(card).getByText(/短信单价 ¥0\.08\/条/)).toBeTruthy();
    fireEvent.click(within(card).getByRole('button', { name: '保存配置' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toMatchObject({ provider: 'aliyun', accessKeyId: 'LTAI-demo', secret: '', signName: '演示物业', templateCode: 'SMS_100000001' });
  });

  it('腾讯云 asks for its SdkAppId and a numeric template ID before anything is sent', async () => {
    const calls = open();
    const card = (await screen.findByText('AccessKey ID')).closest('.ant-card') as HTMLElement;
    fireEvent.click(within(card).getByText('腾讯云短信'));
    expect(await within(card).findByText('SecretId')).toBeTruthy();
    fireEvent.change(within(card).getByLabelText('模板 ID（TemplateId）'), { target: { value: 'SMS_1' } });
    fireEvent.click(within(card).getByRole('button', { name: '保存配置' }));
    expect(await within(card).findByText('SdkAppId 应为 10 位数字')).toBeTruthy();
    expect(await within(card).findByText('腾讯云模板 ID 应为数字')).toBeTruthy();
    expect(posts(calls)).toHaveLength(0);
    fireEvent.change(within(card).getByLabelText('SdkAppId'), { target: { value: '1400000001' } });
    fireEvent.change(within(card).getByLabelText('模板 ID（TemplateId）'), { target: { value: '100001' } });
    fireEvent.change(within(card).getByLabelText('SecretKey'), { target: { value: 'new-secret' } });
    fireEvent.click(within(card).getByRole('button', { name: '保存配置' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0].body).toMatchObject({ provider: 'tencent', sdkAppId: '1400000001', templateCode: '100001', secret: 'new-secret' });
  });

  it('提醒规则: a template and channel per meter kind and event, the threshold in 元 sent in 分', async () => {
    const calls = open();
    const card = (await screen.findByText('提醒规则')).closest('.ant-card') as HTMLElement;
    await within(card).findAllByText('默认');
    const pick = async (label: string, option: string) => {
      fireEvent.mouseDown(within(card).getByRole('combobox', { name: label }));
      const opts = await screen.findAllByText(option, { selector: '.ant-select-item-option-content' });
      fireEvent.click(opts[opts.length - 1]);
    };
    await pick('电表缴费到账模板', '缴费到账通知');
    await pick('电表缴费到账发送方式', '短信和电话');
    fireEvent.change(within(card).getByLabelText('电表余额不足阈值'), { target: { value: '15.5' } });
    fireEvent.click(within(card).getByRole('button', { name: '保存规则' }));
    const saves = () => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/alermSmsConfig'));
    await waitFor(() => expect(saves()).toHaveLength(1));
    const sent = saves()[0].body.rules as { meterKind: number; event: number }[];
    expect(sent).toHaveLength(8);
    expect(sent.find((r) => r.meterKind === 1 && r.event === 4)).toEqual({ meterKind: 1, event: 4, templateId: 11, thresholdFen: 0, channel: 'both' });
    expect(sent.find((r) => r.meterKind === 1 && r.event === 1)).toMatchObject({ thresholdFen: 1550, channel: 'sms' });
  });

  it('群发短信: preview shows count and cost, the confirmed send carries the count, progress runs to the end', async () => {
    const calls = open();
    const card = (await screen.findByText('群发短信')).closest('.ant-card') as HTMLElement;
    const send = () => within(card).getByRole('button', { name: '发 送' });
    expect((send() as HTMLButtonElement).disabled).toBe(true);
    fireEvent.change(within(card).getByLabelText('短信内容'), { target: { value: '{owner}您好' } });
    fireEvent.click(within(card).getByText('仅欠费业主'));
    fireEvent.click(within(card).getByRole('button', { name: '预 览' }));
    expect(await within(card).findByText('2 人')).toBeTruthy();
    expect(within(card).getByText('¥0.12')).toBeTruthy();
    const preview = calls.find((c) => c.path.endsWith('/sms/bulk/preview'));
    expect(preview?.body).toMatchObject({ content: '{owner}您好', arrearsOnly: true });
    fireEvent.click(send());
    fireEvent.click(await screen.findByRole('button', { name: '确定发送' }));
    await waitFor(() => expect(calls.filter((c) => c.path.endsWith('/sms/bulk/send'))).toHaveLength(1));
    expect(calls.find((c) => c.path.endsWith('/sms/bulk/send'))?.body).toMatchObject({ content: '{owner}您好', arrearsOnly: true, expectCount: 2 });
    expect(await within(card).findByText(/发送完成：共 2 条，已发送 2 条/)).toBeTruthy();
  });
});
