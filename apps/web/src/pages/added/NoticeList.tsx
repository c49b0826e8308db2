// The notice list shared by /systemNotice (系统公告, the platform to every company) and /addedNotice
// (物业公告, a company to its owners): drafts, publishing (with SMS to the owners addressed where the
// company chose it), withdrawing, read counts, a preview, and the editor (RichTextEditor, this chunk only).
import { useCallback, useMemo, useRef, useState } from 'react';
import { Button, Drawer, Form, Input, Modal, Select, Space, Switch, Tag, TreeSelect, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { NOTICE_STATUSES, SYSTEM_NOTICE_CATEGORIES } from '@meter/contracts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { timeRangeColumn } from '../../components/resourceColumns.tsx';
import { noticeApi, noticeTypesInUse, type Notice, type NoticeForm, type NoticeKind, type SystemNotice } from '../../api/notice.ts';
import { areaArchiveApi } from '../../api/area.ts';
import { useCan } from '../../app/session.ts';
import { getModal, toast } from '../../app/feedback.tsx';
import { formValues } from '../../components/validate.ts';
import { treeOptions, useCompany } from '../records/deviceFields.tsx';
import { fmt } from './AppealDrawer.tsx';
import { NoticeReading, RichTextEditor } from './RichTextEditor.tsx';

type Row = (Partial<Notice> & Partial<SystemNotice>) & { id: number; title: string; content: string; status: number; statusText: string; pinned: boolean } & Record<string, unknown>;

export const NOTICE_STATUS_COLORS: Record<number, string> = { 0: 'default', 1: 'success', 2: 'warning' };
const statusEnum = Object.fromEntries(Object.entries(NOTICE_STATUSES).map(([k, v]) => [k, { text: v }]));
const categoryOptions = Object.entries(SYSTEM_NOTICE_CATEGORIES).map(([k, v]) => ({ value: Number(k), label: v }));

function AreaPicker({ value, onChange }: { value?: number[]; onChange?: (v: number[]) => void }) {
  const company = useCompany();
  const { data, isFetching } = useQuery({ queryKey: ['noticeAreas', company], queryFn: () => areaArchiveApi.treeNoRoom(company) });
  const options = useMemo(() => treeOptions(data ?? [], false), [data]);
  return (
    <TreeSelect aria-label="发送范围" value={value} onChange={(v) => onChange?.((v ?? []).map(Number))} treeData={options} loading={isFetching}
      multiple treeCheckable showCheckedStrategy={TreeSelect.SHOW_PARENT} allowClear treeDefaultExpandAll treeNodeFilterProp="title"
      placeholder="不选则发给全部业主" style={{ width: '100%' }} />
  );
}

function EditModal({ kind, editing, onClose, onDone }: { kind: NoticeKind; editing?: Row | 'new'; onClose(): void; onDone(): void }) {
  const [form] = Form.useForm<NoticeForm>();
  const company = useCompany();
  const api = noticeApi(kind);
  const { data: types } = useQuery({ queryKey: ['noticeTypes', company], queryFn: () => noticeTypesInUse(company), enabled: kind === 'company' && !!editing });
  const [busy, setBusy] = useState(false);
  const row = editing === 'new' ? undefined : editing;
  const initial: Partial<NoticeForm> = row
    ? { title: row.title, content: row.content, pinned: row.pinned, category: row.category, typeId: row.typeId ?? undefined, areaIds: row.areaIds, sendSms: row.sendSms }
    : { pinned: false, sendSms: false, category: 1, areaIds: [], content: '' };
  const submit = async () => {
    const v = await formValues(form);
    if (!v) return;
    setBusy(true);
    try {
      if (row) await api.update(row.id, v, company);
      else await api.create(v, company);
      toast.success(row ? '公告已保存' : '公告草稿已保存，发布后对方才能看到');
      onDone();
    } catch {
      // the request layer has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={row ? '编辑公告' : kind === 'system' ? '新建系统公告' : '新建物业公告'} open={!!editing} onCancel={onClose} onOk={submit}
      confirmLoading={busy} okText="保存草稿" cancelText="取消" width={820} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false} initialValues={initial}>
        <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请填写公告标题' }, { max: 100, message: '公告标题不能超过 100 个字' }]}>
          <Input maxLength={100} showCount placeholder="例如：关于 12 月 1 日停水的通知" />
        </Form.Item>
        <Space size={24} align="start" wrap>
          {kind === 'system' ? (
            <Form.Item name="category" label="类别" style={{ width: 200 }}><Select aria-label="类别" options={categoryOptions} /></Form.Item>
          ) : (
            <Form.Item name="typeId" label="公告类型" style={{ width: 220 }} extra={types && !types.length ? '还没有在用的公告类型，可在“公告类型”中添加' : undefined}>
              <Select aria-label="公告类型" options={types ?? []} allowClear placeholder="请选择公告类型" />
            </Form.Item>
          )}
          <Form.Item name="pinned" label="置顶" valuePropName="checked"><Switch /></Form.Item>
          {kind === 'company' && (
            <Form.Item name="sendSms" label="发布时短信通知业主" valuePropName="checked" tooltip="按「公告通知」短信模板给发送范围内有手机号的业主各发一条，按单位短信单价计费">
              <Switch />
            </Form.Item>
          )}
        </Space>
        {kind === 'company' && <Form.Item name="areaIds" label="发送范围"><AreaPicker /></Form.Item>}
        <Form.Item name="content" label="内容" rules={[{ validator: (_r, v: string) => (String(v ?? '').replace(/<(?!img)[^>]*>|&nbsp;|\s/g, '') ? Promise.resolve() : Promise.reject(new Error('请填写公告内容'))) }]}>
          <RichTextEditor />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function NoticeList({ kind }: { kind: NoticeKind }) {
  const api = noticeApi(kind);
  const company = useCompany();
  const system = kind === 'system';
  const canWrite = useCan('notice.publish') || system;
  const ref = useRef<ActionType | undefined>(undefined);
  const [editing, setEditing] = useState<Row | 'new'>();
  const [viewing, setViewing] = useState<Row>();
  const { data: types } = useQuery({ queryKey: ['noticeTypes', company], queryFn: () => noticeTypesInUse(company), enabled: !system });

  const act = useCallback((r: Row, what: 'publish' | 'withdraw' | 'remove') => {
    const api = noticeApi(kind);
    const text = { publish: '发布', withdraw: '撤回', remove: '删除' }[what];
    const sms = what === 'publish' && r.sendSms ? '，并按发送范围给业主发送短信' : '';
    getModal()?.confirm({
      title: `${text}公告`, content: `确定${text}「${r.title}」吗${sms}？`, okText: '确定', cancelText: '取消', okButtonProps: { danger: what !== 'publish' },
      onOk: async () => {
        try {
          if (what === 'publish') {
            const res = await api.publish(r.id, company);
            toast.success(res.smsCount ? `公告已发布，已排队发送短信 ${res.smsCount} 条` : '公告已发布');
          } else {
            await api[what](r.id, company);
            toast.success(`公告已${text}`);
          }
          ref.current?.reload();
        } catch {
          // the request layer has shown the server's message
        }
      },
    });
  }, [kind, company]);

  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      {
        title: '标题', dataIndex: 'title', ellipsis: true, width: 240,
        render: (_d, r) => <Space size={4}>{r.pinned && r.status === 1 && <Tag color="red">置顶</Tag>}<Typography.Link onClick={() => setViewing(r)}>{r.title}</Typography.Link></Space>,
      },
      { title: '标题', dataIndex: 'q', hideInTable: true, search: true, fieldProps: { placeholder: '标题包含' } },
      system
        ? { title: '类别', dataIndex: 'category', width: 100, search: true, valueType: 'select', fieldProps: { options: categoryOptions }, render: (_d, r) => r.categoryText }
        : { title: '公告类型', dataIndex: 'typeId', width: 120, search: true, valueType: 'select', fieldProps: { options: types ?? [] }, render: (_d, r) => r.typeName || '—' },
      ...(system ? [] : [{
        title: '发送范围', dataIndex: 'areaNames', width: 160, ellipsis: true, render: (_d: unknown, r: Row) => (r.areaNames?.length ? r.areaNames.join('、') : '全部业主'),
      } as ResourceColumn<Row>]),
      { title: '状态', dataIndex: 'status', width: 90, search: true, valueType: 'select', valueEnum: statusEnum, render: (_d, r) => <Tag color={NOTICE_STATUS_COLORS[r.status]}>{r.statusText}</Tag> },
      system
        ? { title: '已读单位', dataIndex: 'readCompanies', width: 100, render: (_d, r) => `${r.readCompanies ?? 0} / ${r.totalCompanies ?? 0}` }
        : { title: '已读业主', dataIndex: 'readCount', width: 100, render: (_d, r) => `${r.readCount ?? 0} / ${r.audience ?? 0}` },
      ...(system ? [] : [{
        title: '短信', dataIndex: 'smsCount', width: 90, render: (_d: unknown, r: Row) => (r.sendSms ? `${r.smsCount ?? 0} 条` : '不发送'),
      } as ResourceColumn<Row>]),
      { title: '发布时间', dataIndex: 'publishedAt', width: 150, render: (_d, r) => fmt(r.publishedAt) },
      { title: '创建人', dataIndex: 'createdByName', width: 100 },
      timeRangeColumn<Row>('创建时间'),
      {
        title: '操作', valueType: 'option', width: 170, fixed: 'right',
        render: (_d, r) => [
          <a key="v" onClick={() => setViewing(r)}>预览</a>,
          ...(canWrite && r.status !== 1 ? [<a key="e" onClick={() => setEditing(r)}>编辑</a>, <a key="p" onClick={() => act(r, 'publish')}>发布</a>] : []),
          ...(canWrite && r.status === 1 ? [<a key="w" onClick={() => act(r, 'withdraw')}>撤回</a>] : []),
          ...(canWrite && r.status === 0 ? [<Typography.Link key="d" type="danger" onClick={() => act(r, 'remove')}>删除</Typography.Link>] : []),
        ],
      },
    ],
    [system, types, canWrite, act],
  );

  return (
    <>
      <ResourceTable<Row>
        entityName={system ? '系统公告' : '物业公告'}
        headerTitle={system ? '系统公告（发给所有单位）' : '物业公告（发给业主）'}
        rowKey="id"
        columns={columns}
        actionRef={ref}
        areaFilter={false}
        list={(q) => api.list(q)}
        toolBar={() => (canWrite ? [<Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>新建公告</Button>] : [])}
      />
      <EditModal kind={kind} editing={editing} onClose={() => setEditing(undefined)} onDone={() => { setEditing(undefined); ref.current?.reload(); }} />
      <Drawer title={viewing?.title} width={720} open={!!viewing} onClose={() => setViewing(undefined)} destroyOnHidden>
        {viewing && (
          <NoticeReading
            size={8}
            wrap
            labels={<><Tag color={NOTICE_STATUS_COLORS[viewing.status]}>{viewing.statusText}</Tag><Typography.Text type="secondary">{system ? viewing.categoryText : viewing.typeName}</Typography.Text></>}
            publishedAt={viewing.publishedAt}
            html={viewing.content}
          />
        )}
      </Drawer>
    </>
  );
}
