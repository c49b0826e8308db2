// 业主档案 (/recordsOwner): owners beside the area tree, searched by name, phone, room and status;
// create (optionally straight into a vacant room) / edit / delete, move in, change room (换房), move
// out and reset the owner-portal password (shown once) with owner.basic; export to 业主档案.xlsx with
// owner.export, using the filters of the list on screen.
import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Form, Modal, Popconfirm, Tag, Typography } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { GENDERS, ownerResource, type OwnerListInput } from '@meter/contracts';
import type { ListQuery } from '../../components/ResourceTable.tsx';
import type { TableAction } from '../../components/LightTable.tsx';
import type { CrudPageProps } from '../../components/CrudPage.tsx';
import { ImportButton } from '../../components/ImportDialog.tsx';
import { ownerApi, type OwnerRow } from '../../api/archive.ts';
import { E } from '../../api/endpoints.gen.ts';
import { useCan } from '../../app/session.ts';
import { getModal, toast } from '../../app/feedback.tsx';
import { ArchivePage } from './ArchivePage.tsx';
import { useCompany } from './deviceFields.tsx';
import { VacantRoomSelect, useUnitLabel } from './roomFields.tsx';
import { MemoItem } from '../../components/formItems.tsx';
import { useFormSave } from '../../components/submit.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { textEnum } from '../../components/resourceColumns.tsx';

type Row = OwnerRow & Record<string, unknown>;

const ORDER = ['name', 'phone', 'roomName', 'areaName', 'status', 'movedInAt', 'idNumber', 'gender', 'email', 'roomId', 'memo', 'createdAt'];
const STATUS_COLORS: Record<number, string> = { 1: 'success', 0: 'default', 2: 'error' };
const STATUS_TEXT: Record<number, string> = { 1: '在住', 0: '未入住', 2: '已销户' };

const text = (v: unknown) => String(v ?? '').trim();

export function ownerBody(v: Record<string, unknown>, withRoom: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: text(v.name),
    phone: text(v.phone),
    idNumber: text(v.idNumber).toUpperCase(),
    gender: v.gender ?? 0,
    email: text(v.email),
    memo: text(v.memo),
  };
  if (withRoom && v.roomId != null) body.roomId = v.roomId;
  return body;
}

/** The list's filters without paging: what the export takes. */
export function exportFilters(q: ListQuery | null): Partial<OwnerListInput> {
  if (!q) return {};
  const { index: _i, size: _s, ...rest } = q;
  void _i;
  void _s;
  return rest;
}

type Moving = { owner: Row; mode: 'in' | 'out' } | null;

function MoveModal({ moving, onClose, onDone }: { moving: Moving; onClose(): void; onDone(): void }) {
  const company = useCompany();
  const [form] = Form.useForm<{ roomId?: number; memo?: string }>();
  const { saving: busy, save } = useFormSave();
  if (!moving) return null;
  const { owner, mode } = moving;
  const change = mode === 'in' && owner.status === 1;
  const title = mode === 'out' ? '办理迁出' : change ? '办理换房' : '办理入住';
  // a refusal (e.g. 房间已有在住业主) is the request wrapper's toast
  const submit = () =>
    save(form, async (v) => {
      if (mode === 'out') await ownerApi.moveOut(owner.id, text(v.memo), company);
      else await ownerApi.moveIn(owner.id, v.roomId!, text(v.memo), company);
      toast.success(`${title}成功`);
      onDone();
    });
  return (
    <FormDialog
      open
      title={`${title}：${owner.name}`}
      okText="确定"
      confirmLoading={busy}
      onOk={() => void submit()}
      onCancel={onClose}
    >
      <Form form={form} layout="vertical" preserve={false}>
        {mode === 'out' || change ? (
          <Form.Item label="当前房间">
            <Typography.Text>{owner.areaName ? `${owner.areaName}/${owner.roomName}` : owner.roomName}</Typography.Text>
          </Form.Item>
        ) : null}
        {mode === 'in' && (
          <Form.Item name="roomId" label={change ? '换到房间' : '入住房间'} rules={[{ required: true, message: '请选择房间' }]}>
            <VacantRoomSelect />
          </Form.Item>
        )}
        <MemoItem placeholder={mode === 'out' ? '如：合同到期退房' : '选填'} />
      </Form>
    </FormDialog>
  );
}

export default function RecordsOwner() {
  const company = useCompany();
  const unit = useUnitLabel();
  const canBasic = useCan('owner.basic');
  const canExport = useCan('owner.export');
  const lastQuery = useRef<ListQuery | null>(null);
  const [moving, setMoving] = useState<Moving>(null);
  const [exporting, setExporting] = useState(false);
  const actionRef = useRef<TableAction | undefined>(undefined);

  const overrides = useMemo<CrudPageProps<Row>['overrides']>(
    () => ({
      roomId: {
        valueType: 'select',
        request: undefined,
        fieldProps: undefined,
        renderFormItem: () => <VacantRoomSelect placeholder="选填：直接入住（输入房间名称搜索）" />,
      },
      roomName: { title: unit === '物业' ? '房间' : unit, render: (_d, r) => r.roomName ?? '-' },
      areaName: { render: (_d, r) => r.areaName ?? '-' },
      phone: { copyable: true },
      gender: { render: (_d, r) => GENDERS[r.gender] ?? '' },
      status: {
        valueEnum: textEnum(STATUS_TEXT),
        render: (_d, r) => <Tag color={STATUS_COLORS[r.status]}>{STATUS_TEXT[r.status] ?? r.status}</Tag>,
      },
      idNumber: { hideInTable: true },
      createdAt: { hideInTable: true },
    }),
    [unit],
  );

  const resetPassword = async (r: Row) => {
    try {
      const res = await ownerApi.resetPwd(r.id, company);
      (getModal() ?? Modal).success({
        title: '密码已重置',
        okText: '我已记下',
        content: (
          <>
            <p>业主「{r.name}」的新登录密码：</p>
            <Typography.Paragraph copyable={{ text: res.password }} style={{ fontSize: 18, fontFamily: 'monospace' }}>
              {res.password}
            </Typography.Paragraph>
            <Alert type="warning" showIcon message="新密码只显示这一次，请妥善告知业主。" />
          </>
        ),
      });
    } catch {
      // shown by the request wrapper
    }
  };

  const doExport = async () => {
    setExporting(true);
    try {
      await ownerApi.export(exportFilters(lastQuery.current));
    } catch {
      // 失败 was shown
    } finally {
      setExporting(false);
    }
  };

  return (
    <>
      <ArchivePage<Row>
        importKind="owner"
        resource={ownerResource}
        api={E.owner}
        overrides={overrides}
        order={ORDER}
        actionRef={actionRef}
        onList={(q) => (lastQuery.current = q)}
        loadDetail
        fromForm={(v, mode) => ownerBody(v, mode === 'create')}
        createDefaults={{ gender: '0' }}
        rowActions={(r) => {
          if (!canBasic) return [];
          return [
            r.status === 0 && <a key="in" onClick={() => setMoving({ owner: r, mode: 'in' })}>入住</a>,
            r.status === 1 && <a key="change" onClick={() => setMoving({ owner: r, mode: 'in' })}>换房</a>,
            r.status === 1 && <a key="out" onClick={() => setMoving({ owner: r, mode: 'out' })}>迁出</a>,
            <Popconfirm key="pwd" title="确定重置该业主的登录密码吗？" okText="确定" cancelText="取消" onConfirm={() => resetPassword(r)}>
              <a>重置密码</a>
            </Popconfirm>,
          ].filter(Boolean);
        }}
        toolBar={(h) => [
          <ImportButton key="opening" kind="opening" onDone={h.reload}>导入期初余额</ImportButton>,
          canExport && (
            <Button key="export" icon={<DownloadOutlined />} loading={exporting} onClick={() => void doExport()}>
              导出
            </Button>
          ),
        ].filter(Boolean)}
      />
      <MoveModal
        moving={moving}
        onClose={() => setMoving(null)}
        onDone={() => {
          setMoving(null);
          void actionRef.current?.reload();
        }}
      />
    </>
  );
}
