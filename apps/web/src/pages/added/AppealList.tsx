// The appeal list shared by /addedAppeal (业主诉求) and /systemAppeal (平台诉求): filters by state,
// type, overdue, time (and area for owner appeals), overdue orders marked, a detail drawer with the flow,
// and registration (staff register an owner's appeal on the owner's behalf until the owner app exists).
import { useMemo, useRef, useState } from 'react';
import { Button, Form, Input, Modal, Select, Tag, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import { useQuery } from '@tanstack/react-query';
import { APPEAL_STATUSES } from '@meter/contracts';
import { fitContent, ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { Place, Stacked } from '../../components/cells.tsx';
import { timeRangeColumn } from '../../components/resourceColumns.tsx';
import { appealApi, appealTypesInUse, type Appeal, type AppealForm, type AppealKind } from '../../api/appeal.ts';
import { roomApi } from '../../api/archive.ts';
import { useCan, useSession } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { FORM_INVALID } from '../../components/validate.ts';
import { useCompany } from '../records/deviceFields.tsx';
import { RoomAreaPicker, roomLabel } from '../records/roomFields.tsx';
import { AppealDrawer, fmt, KIND_TITLES, StatusTag } from './AppealDrawer.tsx';

type Row = Appeal & Record<string, unknown>;

const statusEnum = Object.fromEntries(Object.entries(APPEAL_STATUSES).map(([k, v]) => [k, { text: v }]));

function useTypeOptions() {
  const company = useCompany();
  const { data } = useQuery({ queryKey: ['appealTypes', company], queryFn: () => appealTypesInUse(company) });
  return (data ?? []).map((t) => ({ value: t.id, label: `${t.name}（${t.limitHours} 小时）` }));
}

/** Any room of the company, searched by name; the owner living there is filled in by the server. */
function RoomSelect({ value, onChange }: { value?: number; onChange?: (v?: number) => void }) {
  const company = useCompany();
  const [name, setName] = useState('');
  const { data, isFetching } = useQuery({
    queryKey: ['appealRooms', company, name],
    queryFn: () => roomApi.list({ index: 1, size: 50, name, searchCompanyID: company }),
  });
  const options = (data?.data ?? []).map((r) => ({ value: r.Id, label: `${roomLabel(r)}${r.ownerName ? `（${r.ownerName}）` : '（空置）'}` }));
  return (
    <Select aria-label="房间" value={value} onChange={(v) => onChange?.(v ?? undefined)} options={options} loading={isFetching} showSearch allowClear
      filterOption={false} onSearch={setName} placeholder="请选择房间（输入名称搜索）" notFoundContent={isFetching ? '加载中…' : '没有找到房间'} style={{ width: '100%' }} />
  );
}

function CreateModal({ kind, open, onClose, onDone }: { kind: AppealKind; open: boolean; onClose(): void; onDone(): void }) {
  const [form] = Form.useForm<AppealForm>();
  const company = useCompany();
  const types = useTypeOptions();
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    let v: AppealForm;
    try {
      v = await form.validateFields();
    } catch {
      return toast.warning(FORM_INVALID);
    }
    setBusy(true);
    try {
      await appealApi(kind).create(v, company);
      toast.success(kind === 'owner' ? '诉求已登记' : '诉求已提交');
      form.resetFields();
      onDone();
    } catch {
      // the request layer has shown the server's message
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal title={kind === 'owner' ? '登记业主诉求' : '提交平台诉求'} open={open} onCancel={onClose} onOk={submit} confirmLoading={busy}
      okText="提交" cancelText="取消" width={560} destroyOnHidden>
      <Form form={form} layout="vertical" preserve={false}>
        {kind === 'owner' && (
          <Form.Item name="roomId" label="房间" rules={[{ required: true, message: '请选择房间' }]} extra="业主端开放前，由工作人员代业主登记；联系人默认取该房间的在住业主">
            <RoomSelect />
          </Form.Item>
        )}
        <Form.Item name="typeId" label="诉求类型" rules={[{ required: true, message: '请选择诉求类型' }]}
          extra={types.length ? '处理期限按类型的处理时限计算' : '还没有在用的诉求类型，请先在“类型设置”中添加'}>
          <Select aria-label="诉求类型" options={types} placeholder="请选择诉求类型" />
        </Form.Item>
        <Form.Item name="title" label="标题" rules={[{ required: true, whitespace: true, message: '请填写诉求标题' }, { max: 100, message: '标题不能超过 100 个字' }]}>
          <Input placeholder="例如：卫生间漏水" maxLength={100} />
        </Form.Item>
        <Form.Item name="content" label="内容" rules={[{ required: true, whitespace: true, message: '请填写诉求内容' }]}>
          <Input.TextArea rows={4} maxLength={2000} showCount placeholder="请描述具体情况" />
        </Form.Item>
        <Form.Item name="contactName" label="联系人"><Input maxLength={64} placeholder={kind === 'owner' ? '不填则为在住业主' : '不填则为本人'} /></Form.Item>
        <Form.Item name="contactPhone" label="联系电话" rules={[{ pattern: /^[0-9+\-() ]*$/, message: '联系电话只能包含数字、空格和 +-()' }]}>
          <Input maxLength={20} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

export function AppealList({ kind }: { kind: AppealKind }) {
  const api = appealApi(kind);
  const session = useSession();
  const platform = session?.access === 0;
  const canCreate = useCan('appeal.create') && (kind === 'owner' || (kind === 'system' && !platform));
  const types = useTypeOptions();
  const ref = useRef<ActionType | undefined>(undefined);
  const [viewing, setViewing] = useState<number>();
  const [creating, setCreating] = useState(false);
  const owner = kind === 'owner';
  const device = kind === 'device';
  const companySide = kind !== 'system';

  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      { title: '标题', dataIndex: 'title', ellipsis: true, width: 200, render: (_d, r) => <Typography.Link onClick={() => setViewing(r.id)}>{r.title}</Typography.Link> },
      { title: '关键字', dataIndex: 'q', hideInTable: true, search: true, fieldProps: { placeholder: companySide ? '标题、内容、联系人、房间' : '标题、内容、联系人' } },
      ...(platform ? [{ title: '单位', dataIndex: 'companyName', width: 160, ellipsis: true } as ResourceColumn<Row>] : []),
      ...(device
        ? [{ title: '设备异常', dataIndex: 'exceptionText', width: 140, render: (_d, r) => <Tag color="red">{r.exceptionText}</Tag> } as ResourceColumn<Row>]
        : [{ title: '诉求类型', dataIndex: 'typeId', width: 110, search: true, valueType: 'select', fieldProps: { options: types }, render: (_d, r) => r.typeName } as ResourceColumn<Row>]),
      ...(companySide
        ? [
            { title: '区域', dataIndex: 'searchArea', hideInTable: true, search: true, renderFormItem: () => <RoomAreaPicker /> } as ResourceColumn<Row>,
            // 区域 / 房间, contact over phone, handler over deadline each in one cell: the list fits 1440×900
            { title: '区域 / 房间', dataIndex: 'roomName', render: (_d, r) => <Place area={r.areaName} room={r.roomName} width={160} /> } as ResourceColumn<Row>,
          ]
        : []),
      ...(device ? [] : [
        {
          title: '联系人', dataIndex: 'contactName', ...fitContent,
          render: (_d, r) => <Stacked top={r.contactName || '-'} below={r.contactPhone || '-'} />,
        } as ResourceColumn<Row>,
      ]),
      {
        title: '状态', dataIndex: 'status', width: 150, search: true, valueType: 'select', valueEnum: statusEnum,
        render: (_d, r) => <StatusTag status={r.status} text={r.statusText} overdue={r.overdue} />,
      },
      { title: '是否超时', dataIndex: 'overdue', hideInTable: true, search: true, valueType: 'select', valueEnum: { true: { text: '已超时' }, false: { text: '未超时' } } },
      {
        title: '处理人 / 期限', dataIndex: 'deadlineAt', ...fitContent,
        render: (_d, r) => <Stacked top={r.assigneeName || '未指派'} below={fmt(r.deadlineAt)} danger={r.overdue} />,
      },
      { title: '登记时间', dataIndex: 'createdAt', width: 150, render: (_d, r) => fmt(r.createdAt) },
      timeRangeColumn<Row>('登记时间'),
      { title: '操作', valueType: 'option', width: 90, fixed: 'right', render: (_d, r) => [<a key="v" onClick={() => setViewing(r.id)}>查看处理</a>] },
    ],
    [companySide, device, platform, types],
  );

  return (
    <>
      <ResourceTable<Row>
        entityName={KIND_TITLES[kind]}
        headerTitle={device ? '设备工单（设备异常自动生成，异常消除后自动办结）' : KIND_TITLES[kind]}
        columns={columns}
        actionRef={ref}
        areaFilter={false}
        list={(q) => api.list(q)}
        toolBar={() => (canCreate ? [
          <Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>{owner ? '登记诉求' : '提交诉求'}</Button>,
        ] : [])}
      />
      <CreateModal kind={kind} open={creating} onClose={() => setCreating(false)} onDone={() => { setCreating(false); ref.current?.reload(); }} />
      <AppealDrawer kind={kind} id={viewing} onClose={() => setViewing(undefined)} onChanged={() => ref.current?.reload()} />
    </>
  );
}
