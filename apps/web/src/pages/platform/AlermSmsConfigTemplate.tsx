// 短信模板 (/alermSmsConfigTemplate, platform management): the message templates companies bind in their
// 提醒规则 (/systemSend), one event each, with {variables} filled in when a message is sent. Declared
// once in @meter/contracts (smsTemplateResource, crudApi.smsTemplate); a template still bound by a company
// cannot be deleted.
import { Tag, Typography } from 'antd';
import { SMS_EVENTS, SMS_VARIABLES, smsTemplateResource, type CrudRow } from '@meter/contracts';
import { E } from '../../api/endpoints.gen.ts';
import { CrudPage } from '../../components/CrudPage.tsx';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';

const EVENT_COLORS: Record<number, string> = { 1: 'gold', 2: 'red', 3: 'green', 4: 'blue', 5: 'purple' };

/** The form as the body: the event and status as numbers, the texts trimmed. */
export function templateBody(v: Record<string, unknown>) {
  return { name: String(v.name ?? '').trim(), event: Number(v.event ?? 1), content: String(v.content ?? '').trim(), status: Number(v.status ?? 1), memo: String(v.memo ?? '').trim() };
}

const overrides: Record<string, Partial<ResourceColumn<CrudRow>>> = {
  event: { render: (_d, r) => <Tag color={EVENT_COLORS[Number(r.event)]}>{SMS_EVENTS[Number(r.event)] ?? String(r.event)}</Tag> },
  content: { render: (_d, r) => <Typography.Text style={{ maxWidth: 420 }} ellipsis={{ tooltip: String(r.content) }}>{String(r.content)}</Typography.Text> },
  status: { render: (_d, r) => (r.status === 1 ? <Tag color="success">在用</Tag> : <Tag>停用</Tag>) },
  createdAt: { hideInForm: true },
};

const title = (
  <span>
    短信模板 <Typography.Text type="secondary" style={{ fontSize: 12 }}>可用变量：{Object.entries(SMS_VARIABLES).map(([k, v]) => `{${k}} ${v}`).join('，')}</Typography.Text>
  </span>
);

export default function AlermSmsConfigTemplate() {
  return (
    <CrudPage
      resource={smsTemplateResource}
      api={E.smsTemplate}
      headerTitle={title}
      overrides={overrides}
      fromForm={templateBody}
      createDefaults={{ event: '1', status: '1' }}
      modalWidth={560}
    />
  );
}
