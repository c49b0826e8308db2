// 短信模板 (/alermSmsConfigTemplate, platform management): the message templates companies bind in their
// 提醒规则 (/systemSend), one event each, with {variables} filled in when a message is sent. Declared
// once in @meter/contracts (smsTemplateResource); a template still bound by a company cannot be deleted.
import { useMemo } from 'react';
import { Tag, Typography } from 'antd';
import { SMS_EVENTS, SMS_VARIABLES, smsTemplateResource } from '@meter/contracts';
import { smsTemplateApi, type SmsTemplate, type SmsTemplateBody } from '../../api/sms.ts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { columnsFromResource } from '../../components/resourceColumns.tsx';

type Row = SmsTemplate & Record<string, unknown>;

const EVENT_COLORS: Record<number, string> = { 1: 'gold', 2: 'red', 3: 'green', 4: 'blue', 5: 'purple' };

export function templateBody(v: Record<string, unknown>): SmsTemplateBody {
  return { name: String(v.name ?? '').trim(), event: Number(v.event ?? 1), content: String(v.content ?? '').trim(), status: Number(v.status ?? 1), memo: String(v.memo ?? '').trim() };
}

export default function AlermSmsConfigTemplate() {
  const columns = useMemo<ResourceColumn<Row>[]>(
    () =>
      columnsFromResource<Row>(smsTemplateResource, {
        event: { render: (_d, r) => <Tag color={EVENT_COLORS[r.event]}>{SMS_EVENTS[r.event] ?? r.event}</Tag> },
        content: { render: (_d, r) => <Typography.Text style={{ maxWidth: 420 }} ellipsis={{ tooltip: r.content }}>{r.content}</Typography.Text> },
        status: { render: (_d, r) => (r.status === 1 ? <Tag color="success">在用</Tag> : <Tag>停用</Tag>) },
        createdAt: { hideInForm: true },
      }),
    [],
  );
  return (
    <ResourceTable<Row>
      entityName="短信模板"
      headerTitle={<span>短信模板 <Typography.Text type="secondary" style={{ fontSize: 12 }}>可用变量：{Object.entries(SMS_VARIABLES).map(([k, v]) => `{${k}} ${v}`).join('，')}</Typography.Text></span>}
      columns={columns}
      areaFilter={false}
      list={(q) => smsTemplateApi.list(q as { index: number; size: number }) as Promise<{ code: string; data: Row[]; count: number }>}
      create={(v) => smsTemplateApi.create(templateBody(v))}
      update={(r, v) => smsTemplateApi.update(r.id, templateBody(v))}
      remove={(r) => smsTemplateApi.remove([r.id])}
      toForm={(r) => ({ ...r, event: String(r.event), status: String(r.status) })}
      createDefaults={{ event: '1', status: '1' }}
      formColumns={1}
      modalWidth={560}
    />
  );
}
