// 定时阀控 (/timeChangeControl): open or close meters at a time (once) or every day at HH:mm (China
// time). The worker carries them out through the control module; a timed close respects 保电/保水 and
// no-disconnect hours, and a run missed while the service was down is not made up. Creating or
// changing a timed close of a single-phase meter (phaseId 1) asks the valve-control password in the
// form, and switching such a stopped task back on asks it in the password dialog, as a close from
// /longRange does; the typed password goes with the request and the server compares it (issue 12 §3).
// Needs the operation device.timedValve.
import { useMemo, useRef, useState } from 'react';
import { Button, DatePicker, Form, Input, Popconfirm, Radio, Select, Switch, Tag, TimePicker, Tooltip, Typography } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import dayjs, { type Dayjs } from 'dayjs';
import type { Paged } from '../../api/request.ts';
import { toast } from '../../app/feedback.tsx';
import { useAreaFilter } from '../../app/page.tsx';
import { useCan } from '../../app/session.ts';
import { fitContent, ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { Clipped, Place, Stacked } from '../../components/cells.tsx';
import { controlApi, timedApi, type ControlMeter, type TimedControl } from './api.ts';
import { CommandTag, timeText, useCompany } from './shared.tsx';
import { ValveCancelled, ValvePasswordField, needsPassword, useValvePassword, verifyValvePassword } from './valvePassword.tsx';
import { useFormSave } from '../../components/submit.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';

type Row = TimedControl & Record<string, unknown>;

interface FormValues {
  meterIds: number[];
  action: 'open' | 'close';
  repeat: 'once' | 'daily';
  runAt?: Dayjs;
  timeOfDay?: Dayjs;
  memo?: string;
  /** asked when the task closes a phaseId-1 meter */
  password?: string;
}

/** Form values → request body. */
export function timedBody(v: FormValues) {
  return {
    action: v.action,
    repeat: v.repeat,
    runAt: v.repeat === 'once' && v.runAt ? v.runAt.format('YYYY-MM-DD HH:mm:ss') : undefined,
    timeOfDay: v.repeat === 'daily' && v.timeOfDay ? v.timeOfDay.format('HH:mm') : '',
    memo: (v.memo ?? '').trim(),
  };
}

/** Meters picked by typing (表号 / 名称 / 房间), within the area picked in the tree. */
function MeterSelect({ value, onChange, disabled, onMeters }: { value?: number[]; onChange?: (v: number[]) => void; disabled?: boolean; onMeters(m: ControlMeter[]): void }) {
  const company = useCompany();
  const area = useAreaFilter();
  const [options, setOptions] = useState<ControlMeter[]>([]);
  const [loading, setLoading] = useState(false);
  const known = useRef(new Map<number, ControlMeter>());
  const search = async (keyword: string) => {
    setLoading(true);
    try {
      const r = await controlApi.meters({ index: 1, size: 50, keyword, ...area, searchCompanyID: company });
      for (const m of r.data) known.current.set(m.id, m);
      setOptions(r.data);
    } catch {
      setOptions([]);
    } finally {
      setLoading(false);
    }
  };
  return (
    <Select
      mode="multiple"
      value={value}
      disabled={disabled}
      onChange={(v: number[]) => {
        onChange?.(v);
        onMeters(v.map((id) => known.current.get(id)).filter((m): m is ControlMeter => !!m));
      }}
      onFocus={() => options.length || void search('')}
      onSearch={(s) => void search(s.trim())}
      filterOption={false}
      showSearch
      loading={loading}
      placeholder="输入表号、名称或房间搜索"
      options={options.map((m) => ({ value: m.id, label: `${m.name || m.address}（${m.address}${m.roomName ? `，${m.roomName}` : ''}）` }))}
      maxTagCount={6}
    />
  );
}

export default function TimeChangeControl() {
  const company = useCompany();
  const can = useCan('device.timedValve');
  const ref = useRef<ActionType | undefined>(undefined);
  const [editing, setEditing] = useState<{ row?: Row } | null>(null);
  const [picked, setPicked] = useState<{ phaseId: number | null }[]>([]);
  const { saving, save: saveForm } = useFormSave();
  const [form] = Form.useForm<FormValues>();
  const repeat = Form.useWatch('repeat', form);
  const action = Form.useWatch('action', form);
  /** a timed close of a single-phase meter asks the valve-control password (SPEC §4) */
  const asksPassword = action === 'close' && picked.some(needsPassword);
  const { ask, dialog } = useValvePassword(company);

  const openCreate = () => {
    form.resetFields();
    form.setFieldsValue({ action: 'close', repeat: 'once', runAt: dayjs().add(1, 'hour').startOf('minute') });
    setPicked([]);
    setEditing({});
  };
  const openEdit = (r: Row) => {
    form.resetFields();
    form.setFieldsValue({
      meterIds: [r.meterId], action: r.action, repeat: r.repeat, memo: r.memo,
      runAt: r.runAt ? dayjs(r.runAt) : undefined, timeOfDay: r.timeOfDay ? dayjs(r.timeOfDay, 'HH:mm') : undefined,
    });
    setPicked([{ phaseId: r.phaseId }]);
    setEditing({ row: r });
  };

  const save = () =>
    saveForm(form, async (v) => {
      // a timed close switches meters off like /longRange does: the password typed is checked as
      // the dialog checks it (密码输入不正确 stops here) and sent with the request
      const password = asksPassword ? await verifyValvePassword(v.password ?? '', company) : undefined;
      if (password === null) return;
      if (editing?.row) {
        await timedApi.update({ id: editing.row.id, ...timedBody(v), password }, company);
        toast.success('保存成功');
      } else {
        const r = await timedApi.create({ meterIds: v.meterIds, ...timedBody(v), password }, company);
        toast.success(r.message);
      }
      setEditing(null);
      ref.current?.reload();
    });

  const toggle = async (r: Row, enabled: boolean) => {
    try {
      // switching a stopped close of a single-phase meter back on authorises its closes again
      const password = enabled && r.action === 'close' && needsPassword(r) ? await ask() : undefined;
      const res = await timedApi.enable([r.id], enabled, company, password);
      toast.success(res.message);
      ref.current?.reload();
    } catch (e) {
      if (e instanceof ValveCancelled) toast.info('已取消，未启用');
      // anything else was shown by the request wrapper
    }
  };

  const columns = useMemo<ResourceColumn<Row>[]>(
    () => [
      { title: '关键字', dataIndex: 'kw', hideInTable: true, search: true, fieldProps: { placeholder: '表号 / 名称 / 房间 / 备注' } },
      // the meter's name over its 区域 / 房间, 动作 over 执行方式, 下次 over 上次执行, 备注 over 创建人: beside the
      // area tree at 1440×900 the whole table fits, no column under the fixed 操作
      { title: '表号', dataIndex: 'address', copyable: true, ...fitContent },
      {
        title: '表具', dataIndex: 'meterName',
        render: (_d, r) => <Stacked top={<Clipped text={r.meterName || '-'} width={150} />} below={<Place area={r.areaName} room={r.roomName} width={150} />} />,
      },
      { title: '动作', dataIndex: 'action', hideInTable: true, search: true, valueEnum: { open: { text: '合闸/开阀' }, close: { text: '拉闸/关阀' } } },
      { title: '执行方式', dataIndex: 'repeat', hideInTable: true, search: true, valueEnum: { once: { text: '单次' }, daily: { text: '每天' } } },
      {
        title: '动作 / 执行方式', dataIndex: 'action', key: 'plan', ...fitContent,
        render: (_d, r) => (
          <div>
            <Tag color={r.action === 'open' ? 'green' : 'red'}>{r.actionText}</Tag>
            <div>{r.scheduleText}</div>
          </div>
        ),
      },
      {
        title: '执行时间', dataIndex: 'nextRunAt', ...fitContent,
        render: (_d, r) => (
          <div>
            <div>下次 {timeText(r.nextRunAt) || '-'}</div>
            {r.lastCommand ? (
              <Tooltip title={r.lastCommand.error || undefined}>
                <span>
                  <Typography.Text type="secondary">上次 </Typography.Text>
                  <CommandTag status={r.lastCommand.status} text={r.lastCommand.statusText} />
                  <Typography.Text type="secondary">{timeText(r.lastCommand.createdAt)}</Typography.Text>
                </span>
              </Tooltip>
            ) : <Typography.Text type="secondary">上次 -</Typography.Text>}
          </div>
        ),
      },
      {
        title: '启用', dataIndex: 'enabled', ...fitContent, search: true, valueEnum: { true: { text: '启用' }, false: { text: '停用' } },
        render: (_d, r) => <Switch size="small" checked={r.enabled} disabled={!can} onChange={(on) => void toggle(r, on)} aria-label="启用" />,
      },
      {
        title: '备注 / 创建人', dataIndex: 'memo',
        render: (_d, r) => <Stacked top={<Clipped text={r.memo || '-'} width={110} />} below={r.createdByName || '-'} />,
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [can, company],
  );

  return (
    <>
      <ResourceTable<Row>
        headerTitle="定时阀控"
        columns={columns}
        actionRef={ref}
        list={(q) => timedApi.list(q) as Promise<Paged<Row>>}
        rowActions={(r) =>
          can
            ? [
                <a key="edit" onClick={() => openEdit(r)}>编辑</a>,
                <Popconfirm
                  key="del"
                  title="确定删除该定时任务吗？"
                  okText="确定"
                  cancelText="取消"
                  onConfirm={async () => {
                    await timedApi.remove([r.id], company);
                    toast.success('删除成功');
                    ref.current?.reload();
                  }}
                >
                  <a style={{ color: '#ff4d4f' }}>删除</a>
                </Popconfirm>,
              ]
            : []
        }
        toolBar={() => (can ? [<Button key="new" type="primary" icon={<PlusOutlined />} onClick={openCreate}>新增定时任务</Button>] : [])}
      />
      <FormDialog
        open={!!editing}
        title={editing?.row ? '编辑定时任务' : '新增定时任务'}
        confirmLoading={saving}
        onOk={() => void save()}
        onCancel={() => setEditing(null)}
        width={600}
      >
        <Form form={form} layout="vertical" name="timed-control">
          <Form.Item label="表具" name="meterIds" rules={[{ required: true, message: '请选择表具' }]}>
            <MeterSelect disabled={!!editing?.row} onMeters={setPicked} />
          </Form.Item>
          <Form.Item label="动作" name="action" rules={[{ required: true, message: '请选择动作' }]}>
            <Radio.Group options={[{ label: '合闸/开阀', value: 'open' }, { label: '拉闸/关阀', value: 'close' }]} />
          </Form.Item>
          <Form.Item label="执行方式" name="repeat" rules={[{ required: true, message: '请选择执行方式' }]}>
            <Radio.Group options={[{ label: '单次', value: 'once' }, { label: '每天', value: 'daily' }]} />
          </Form.Item>
          {repeat === 'daily' ? (
            <Form.Item label="每天执行时刻" name="timeOfDay" rules={[{ required: true, message: '请选择执行时刻' }]}>
              <TimePicker format="HH:mm" style={{ width: '100%' }} />
            </Form.Item>
          ) : (
            <Form.Item
              label="执行时间"
              name="runAt"
              rules={[
                { required: true, message: '请选择执行时间' },
                { validator: (_r, v?: Dayjs) => (!v || v.isAfter(dayjs()) ? Promise.resolve() : Promise.reject(new Error('执行时间应晚于当前时间'))) },
              ]}
            >
              <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
            </Form.Item>
          )}
          {asksPassword && <ValvePasswordField autoFocus={false} extra="所选表具中有单相表，定时拉闸须输入阀控密码" />}
          <Form.Item label="备注" name="memo">
            <Input maxLength={200} placeholder="选填，如：夜间停电检修" />
          </Form.Item>
          <Typography.Text type="secondary">
            定时拉闸/关阀不会对保电/保水中的表具执行，也不会在报警方案的不断电时段执行；服务停机错过的执行时间不会补发。
          </Typography.Text>
        </Form>
      </FormDialog>
      {dialog}
    </>
  );
}
