// On 系统设置 (/headSet), for the company: 系统配置 (sys_config: receipt title and footnote, 欠费线)
// and 导出配置 (which columns each .xlsx export carries). Everyone reads them; a company admin
// (account or role administration) or the platform admin for the company picked in the header
// changes them — the rule the server's declarations hold (configAdmin in endpoints/settings.ts).
import { useEffect, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Checkbox, Collapse, Form, Input, Space, Tag, Typography } from 'antd';
import { sysConfigResource, type ExportConfig, type FieldDef } from '@meter/contracts';
import { call } from '../../api/endpoint.ts';
import { E } from '../../api/endpoints.gen.ts';
import { companyPick } from '../../app/page.tsx';
import { useSession, type Session } from '../../app/session.ts';
import { useStore } from '../../app/store.ts';
import { toast } from '../../app/feedback.tsx';
import { FORM_INVALID, supersededValidation } from '../../components/validate.ts';

const ADMIN_ROUTES = ['systemRecords', 'systemRole', 'belongs'];
export const canEditCompanySettings = (s: Session | null) => !!s && s.routes.some((r) => ADMIN_ROUTES.includes(r));

const MONEY = /^-?\d{1,12}(\.\d{1,2})?$/;

function fieldInput(f: FieldDef, disabled: boolean) {
  if (f.type === 'textarea') return <Input.TextArea rows={2} maxLength={f.max} showCount disabled={disabled} />;
  return <Input maxLength={f.type === 'money' ? 16 : f.max} suffix={f.type === 'money' ? '元' : undefined} disabled={disabled} style={{ maxWidth: f.type === 'money' ? 200 : undefined }} />;
}

function fieldRules(f: FieldDef) {
  if (f.type === 'money') return [{ required: true, message: `请输入${f.label}` }, { pattern: MONEY, message: `${f.label}格式不正确（最多 2 位小数）` }];
  return [{ max: f.max, message: `${f.label}最多 ${f.max} 个字` }];
}

function SysConfigCard({ company, editable }: { company: string; editable: boolean }) {
  const [form] = Form.useForm<Record<string, string>>();
  const query = company ? { searchCompanyID: company } : {};
  const q = useQuery({ queryKey: ['sysConfig', company], queryFn: () => call(E.settings.configList, { query }) });
  useEffect(() => {
    if (q.data) form.setFieldsValue(Object.fromEntries(q.data.map((r) => [r.key, r.value])));
  }, [q.data, form]);
  const [saving, setSaving] = useState(false);
  const submit = async (v: Record<string, string>) => {
    setSaving(true);
    try {
      await call(E.settings.configSave, { query, body: v });
    } catch {
      return; // the wrapper showed the server's reason
    } finally {
      setSaving(false);
    }
    toast.success('系统配置已保存');
    void q.refetch();
  };
  return (
    <Card title="系统配置" loading={q.isLoading}>
      <Form form={form} layout="horizontal" labelCol={{ flex: '140px' }} style={{ maxWidth: 720 }} onFinish={submit}
        onFinishFailed={(e) => !supersededValidation(e) && toast.warning(FORM_INVALID)}>
        {sysConfigResource.fields.map((f) => (
          <Form.Item key={f.key} name={f.key} label={f.label} extra={f.tooltip} rules={fieldRules(f)}>
            {fieldInput(f, !editable)}
          </Form.Item>
        ))}
        {editable ? (
          <Form.Item label=" " colon={false}>
            <Button type="primary" htmlType="submit" loading={saving}>保存系统配置</Button>
          </Form.Item>
        ) : (
          <Typography.Text type="secondary">系统配置由单位管理员修改</Typography.Text>
        )}
      </Form>
    </Card>
  );
}

function ExportPanel({ x, company, editable, onSaved }: { x: ExportConfig; company: string; editable: boolean; onSaved(): void }) {
  const [shown, setShown] = useState(() => x.columns.filter((c) => c.shown).map((c) => c.header));
  useEffect(() => setShown(x.columns.filter((c) => c.shown).map((c) => c.header)), [x]);
  const [saving, setSaving] = useState(false);
  const save = async () => {
    if (!shown.length) {
      toast.warning('至少保留一列');
      return;
    }
    setSaving(true);
    try {
      // in the declared order, whatever order they were ticked in
      const columns = x.columns.map((c) => c.header).filter((h) => shown.includes(h));
      await call(E.settings.saveExportConfig, { query: company ? { searchCompanyID: company } : {}, body: { key: x.key, columns } });
    } catch {
      return;
    } finally {
      setSaving(false);
    }
    toast.success(`${x.title}导出配置已保存`);
    onSaved();
  };
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Checkbox.Group
        aria-label={`${x.title}导出列`}
        disabled={!editable}
        value={shown}
        onChange={(v) => setShown(v.map(String))}
        options={x.columns.map((c) => ({ label: c.header, value: c.header }))}
      />
      {editable && (
        <Space>
          <Button type="primary" size="small" loading={saving} onClick={save}>保存</Button>
          <Button size="small" onClick={() => setShown(x.columns.map((c) => c.header))}>全选</Button>
        </Space>
      )}
    </Space>
  );
}

function ExportConfigCard({ company, editable }: { company: string; editable: boolean }) {
  const client = useQueryClient();
  const q = useQuery({ queryKey: ['exportConfig', company], queryFn: () => call(E.settings.exportConfig, { query: company ? { searchCompanyID: company } : {} }) });
  const items = (q.data ?? []).map((x) => {
    const hidden = x.columns.filter((c) => !c.shown).length;
    return {
      key: x.key,
      label: (
        <Space>
          <span>{x.title}</span>
          {hidden ? <Tag color="orange">隐藏 {hidden} 列</Tag> : <Tag>全部 {x.columns.length} 列</Tag>}
        </Space>
      ),
      children: <ExportPanel x={x} company={company} editable={editable} onSaved={() => void client.invalidateQueries({ queryKey: ['exportConfig'] })} />,
    };
  });
  return (
    <Card title="导出配置" loading={q.isLoading} extra={<Typography.Text type="secondary">勾选的列会出现在导出的 Excel 中</Typography.Text>}>
      {items.length ? <Collapse items={items} /> : <Typography.Text type="secondary">没有可配置的导出</Typography.Text>}
    </Card>
  );
}

export function CompanySettings() {
  const session = useSession();
  const company = useStore(companyPick);
  if (!session) return null;
  if (!session.company && !company) {
    return <Alert type="info" showIcon message="系统配置与导出配置按单位保存：请先在页面顶部选择单位" />;
  }
  const editable = canEditCompanySettings(session);
  return (
    <>
      <SysConfigCard company={company} editable={editable} />
      <ExportConfigCard company={company} editable={editable} />
    </>
  );
}
