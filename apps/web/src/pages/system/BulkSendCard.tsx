// 群发短信 on /systemSend: a message to the owners chosen by the area picked in the area tree, arrears
// and meter kind. 预览 answers how many owners, how many have a mobile number (the ones sent to), the
// cost at the company's SMS price and the first messages as they read; 发送 asks for confirmation with
// that count (the server refuses if the list changed since) and then shows the progress until done.
import { useEffect, useState } from 'react';
import { Alert, App, Button, Card, Checkbox, Descriptions, Form, Input, Progress, Select, Space, Table } from 'antd';
import { formatMoney } from '@meter/contracts';
import { bulkSmsApi, type BulkInput } from '../../api/sms.ts';
import { toast } from '../../app/feedback.tsx';
import { useAreaFilter } from '../../app/page.tsx';

type Preview = Awaited<ReturnType<typeof bulkSmsApi.preview>>;
type Progress = Awaited<ReturnType<typeof bulkSmsApi.progress>>;

interface Values {
  content: string;
  arrearsOnly: boolean;
  meterKind?: number;
}

export function BulkSendCard({ pollMs = 2000 }: { pollMs?: number }) {
  const [form] = Form.useForm<Values>();
  const { modal } = App.useApp();
  const area = useAreaFilter();
  const [preview, setPreview] = useState<{ input: BulkInput; answer: Preview } | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(false);

  const inputOf = (v: Values): BulkInput => ({
    content: v.content?.trim() ?? '', arrearsOnly: !!v.arrearsOnly, meterKind: v.meterKind,
    areaId: area.searchArea ? Number(area.searchArea) : undefined,
  });

  // the list depends on the area picked: a new pick needs a new preview
  useEffect(() => setPreview(null), [area.searchArea]);

  useEffect(() => {
    if (!progress || progress.done) return;
    const timer = setTimeout(() => {
      bulkSmsApi.progress(progress.batch).then(setProgress).catch(() => {});
    }, pollMs);
    return () => clearTimeout(timer);
  }, [progress, pollMs]);

  const doPreview = async () => {
    const v = await form.validateFields();
    const input = inputOf(v);
    setBusy(true);
    try {
      setPreview({ input, answer: await bulkSmsApi.preview(input) });
    } catch {
      // the wrapper showed why
    } finally {
      setBusy(false);
    }
  };

  const doSend = () => {
    if (!preview) return;
    const { input, answer } = preview;
    modal.confirm({
      title: '确认群发短信',
      content: `将向 ${answer.count} 位业主发送短信，预计费用 ${formatMoney(answer.costFen)}。发送后不能撤回，确定发送吗？`,
      okText: '确定发送',
      cancelText: '取消',
      onOk: async () => {
        try {
          setProgress(await bulkSmsApi.send({ ...input, expectCount: answer.count }));
          setPreview(null);
          toast.success('已提交发送');
        } catch {
          setPreview(null); // e.g. 发送名单已变化：preview again
        }
      },
    });
  };

  const pct = progress && progress.total ? Math.round(((progress.sent + progress.failed) / progress.total) * 100) : 0;
  return (
    <Card title="群发短信">
      <Alert type="info" showIcon style={{ marginBottom: 16, maxWidth: 720 }} message={`发送对象为${area.areaName ? `「${area.areaName}」` : '全部区域'}的入住业主（在左侧区域树选择区域）；可用变量：{company} 单位名称，{owner} 业主姓名，{room} 房间。`} />
      <Form form={form} layout="vertical" name="bulk-sms" initialValues={{ arrearsOnly: false }} style={{ maxWidth: 640 }} onValuesChange={() => setPreview(null)}>
        <Space size={24}>
          <Form.Item name="arrearsOnly" valuePropName="checked">
            <Checkbox>仅欠费业主</Checkbox>
          </Form.Item>
          <Form.Item name="meterKind" label="表类型">
            <Select aria-label="表类型" allowClear placeholder="全部" style={{ width: 140 }} options={[{ value: 1, label: '有电表的房间' }, { value: 2, label: '有水表的房间' }]} />
          </Form.Item>
        </Space>
        <Form.Item name="content" label="短信内容" rules={[{ required: true, whitespace: true, message: '请输入短信内容' }, { max: 300, message: '短信内容最多 300 个字' }]}>
          <Input.TextArea rows={3} showCount maxLength={300} />
        </Form.Item>
        <Space>
          <Button onClick={() => void doPreview()} loading={busy}>预览</Button>
          <Button type="primary" disabled={!preview || preview.answer.count === 0} onClick={doSend}>发送</Button>
        </Space>
      </Form>
      {preview && (
        <div style={{ marginTop: 16 }}>
          <Descriptions size="small" column={4} bordered>
            <Descriptions.Item label="符合条件业主">{preview.answer.owners} 人</Descriptions.Item>
            <Descriptions.Item label="可发送（有手机号）">{preview.answer.count} 人</Descriptions.Item>
            <Descriptions.Item label="单价">{formatMoney(preview.answer.priceFen)}</Descriptions.Item>
            <Descriptions.Item label="预计费用">{formatMoney(preview.answer.costFen)}</Descriptions.Item>
          </Descriptions>
          <Table
            style={{ marginTop: 8 }}
            size="small"
            pagination={false}
            rowKey={(r) => `${r.phone}-${r.ownerName}`}
            dataSource={preview.answer.sample}
            columns={[
              { title: '业主', dataIndex: 'ownerName' },
              { title: '房间', dataIndex: 'roomName' },
              { title: '手机号码', dataIndex: 'phone' },
              { title: '短信内容（示例）', dataIndex: 'content' },
            ]}
          />
        </div>
      )}
      {progress && (
        <div style={{ marginTop: 16, maxWidth: 640 }}>
          <Progress percent={pct} status={progress.done ? (progress.failed ? 'exception' : 'success') : 'active'} />
          <span>
            {progress.done ? '发送完成' : '发送中'}：共 {progress.total} 条，已发送 {progress.sent} 条，失败 {progress.failed} 条，待发送 {progress.queued + progress.sending} 条，费用 {formatMoney(progress.costFen)}
          </span>
        </div>
      )}
    </Card>
  );
}
