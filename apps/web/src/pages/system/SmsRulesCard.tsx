// 提醒规则 on /systemSend (alermSmsConfig): for each meter kind and event — 余额不足, 欠费停止供应, 恢复供应,
// 缴费到账 — the template (短信模板), the channel and, for 余额不足, the balance at or below which to remind
// (0 = at every alarm of the alarm scheme). A row never saved uses the alarm scheme's channels and the
// built-in text; 恢复供应 and 缴费到账 are sent only with a template.
import { useEffect, useState } from 'react';
import { Button, Card, InputNumber, Select, Table, Tag } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { METER_KINDS, SMS_EVENTS } from '@meter/contracts';
import { smsTemplateApi, type SmsRuleInput } from '../../api/sms.ts';
import { toast } from '../../app/feedback.tsx';

export const CHANNEL_OPTIONS = [
  { value: 'sms', label: '短信' },
  { value: 'phone', label: '电话' },
  { value: 'both', label: '短信和电话' },
  { value: 'off', label: '不发送' },
];

type Rule = SmsRuleInput & { saved: boolean };

export function SmsRulesCard() {
  const rules = useQuery({ queryKey: ['smsRules'], queryFn: () => smsTemplateApi.rules() });
  const templates = useQuery({ queryKey: ['smsTemplates', 'inUse'], queryFn: () => smsTemplateApi.list({ index: 1, size: 200, status: 1 }) });
  const [rows, setRows] = useState<Rule[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (rules.data) setRows(rules.data.map((r) => ({ meterKind: r.meterKind, event: r.event, templateId: r.templateId, thresholdFen: r.thresholdFen, channel: r.channel, saved: r.saved })));
  }, [rules.data]);

  const change = (i: number, patch: Partial<Rule>) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const save = async () => {
    setSaving(true);
    try {
      await smsTemplateApi.saveRules(rows.map(({ saved: _saved, ...r }) => r));
      toast.success('提醒规则已保存');
      void rules.refetch();
    } catch {
      // the wrapper showed the server's reason (e.g. 恢复供应、缴费到账提醒须选择短信模板)
    } finally {
      setSaving(false);
    }
  };

  const options = (event: number) => (templates.data?.data ?? []).filter((t) => t.event === event).map((t) => ({ value: t.id, label: String(t.name) }));

  return (
    <Card title="提醒规则" loading={rules.isLoading} extra={<Button type="primary" loading={saving} onClick={() => void save()}>保存规则</Button>}>
      <Table<Rule>
        rowKey={(r) => `${r.meterKind}-${r.event}`}
        dataSource={rows}
        pagination={false}
        size="small"
        columns={[
          { title: '表类型', key: 'meterKind', render: (_d, r) => METER_KINDS[r.meterKind] },
          { title: '事件', key: 'event', render: (_d, r) => <>{SMS_EVENTS[r.event]} {!r.saved && <Tag>默认</Tag>}</> },
          {
            title: '短信模板', key: 'templateId',
            render: (_d, r, i) => (
              <Select
                aria-label={`${METER_KINDS[r.meterKind]}${SMS_EVENTS[r.event]}模板`}
                style={{ width: 200 }}
                allowClear
                placeholder={r.event <= 2 ? '系统默认文字' : '请选择模板'}
                value={r.templateId ?? undefined}
                options={options(r.event)}
                onChange={(v: number | undefined) => change(i, { templateId: v ?? null })}
              />
            ),
          },
          {
            title: '提醒阈值（元）', key: 'thresholdFen',
            render: (_d, r, i) => (r.event === 1
              ? (
                <InputNumber
                  aria-label={`${METER_KINDS[r.meterKind]}余额不足阈值`}
                  min={0}
                  precision={2}
                  value={r.thresholdFen / 100}
                  onChange={(v) => change(i, { thresholdFen: Math.round(Number(v ?? 0) * 100) })}
                  placeholder="0 = 按报警方案"
                />
              )
              : '-'),
          },
          {
            title: '发送方式', key: 'channel',
            render: (_d, r, i) => (
              <Select aria-label={`${METER_KINDS[r.meterKind]}${SMS_EVENTS[r.event]}发送方式`} style={{ width: 130 }} value={r.channel} options={CHANNEL_OPTIONS} onChange={(v: Rule['channel']) => change(i, { channel: v })} />
            ),
          },
        ]}
      />
    </Card>
  );
}
