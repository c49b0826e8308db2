// 保电管理 (/keepElectric) and 保水管理 (/keepWater): a protected meter is not switched off
// automatically (arrears, timed closes). Start protection for picked meters or for every meter of the
// area picked in the tree, with a reason and an optional end; end it; see what is protected now.
// Electric DL/T 645 meters also get the meter's own 保电 command. Needs the operation device.protect.
import { useMemo, useRef, useState } from 'react';
import { Button, DatePicker, Form, Input, Popconfirm, Tabs, Tag } from 'antd';
import { SafetyOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import dayjs, { type Dayjs } from 'dayjs';
import type { Paged } from '../../api/request.ts';
import { toast } from '../../app/feedback.tsx';
import { useAreaFilter } from '../../app/page.tsx';
import { useCan } from '../../app/session.ts';
import { fitContent, ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { Clipped, Place, Stacked } from '../../components/cells.tsx';
import { protectApi, type Protection } from './api.ts';
import { ControlMeterTable, keywordColumn, meterColumns, rangeColumn, timeText, useCompany, useMeterSelection } from './shared.tsx';
import { useFormSave } from '../../components/submit.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';

type ProtRow = Protection & Record<string, unknown>;

type Target = { meterIds: number[] } | { areaId: number; areaName: string };

export function protectionColumns(history: boolean): ResourceColumn<ProtRow>[] {
  return [
    keywordColumn('表号 / 名称 / 房间 / 原因'),
    ...meterColumns<ProtRow>('meterName'),
    // 区域 / 房间, start and end, and (in the history) who set and who ended it each in one cell: beside the
    // area tree at 1440×900 the whole table fits, no column under the fixed 操作
    { title: '区域 / 房间', dataIndex: 'roomName', render: (_d, r) => <Place area={r.areaName} room={r.roomName} width={150} /> },
    { title: '原因', dataIndex: 'reason', render: (_d, r) => <Clipped text={r.reason || '-'} width={130} /> },
    {
      title: history ? '开始 / 结束时间' : '开始 / 到期时间', dataIndex: 'startAt', ...fitContent,
      render: (_d, r) => <Stacked top={timeText(r.startAt)} below={`至 ${timeText(r.endAt) || (history ? '-' : '长期')}`} />,
    },
    {
      title: '状态', dataIndex: 'active', ...fitContent,
      ...(history ? { search: true, valueEnum: { true: { text: '保护中' }, false: { text: '已结束' } } } : {}),
      render: (_d, r) => <Tag color={r.active ? 'gold' : 'default'}>{r.statusText}</Tag>,
    },
    history
      ? {
          title: '操作人 / 解除人', dataIndex: 'createdByName', ...fitContent,
          render: (_d, r) => <Stacked top={r.createdByName || '-'} below={r.endedByName || '-'} />,
        }
      : { title: '操作人', dataIndex: 'createdByName', ...fitContent },
    ...(history ? [rangeColumn<ProtRow>('开始时间')] : []),
  ];
}

export default function Keep({ kind }: { kind: 1 | 2 }) {
  const word = kind === 2 ? '保水' : '保电';
  const meterWord = kind === 2 ? '水表' : '电表';
  const company = useCompany();
  const area = useAreaFilter();
  const can = useCan('device.protect');
  const meterRef = useRef<ActionType | undefined>(undefined);
  const activeRef = useRef<ActionType | undefined>(undefined);
  const selection = useMeterSelection();
  const { keys } = selection;
  const [target, setTarget] = useState<Target | null>(null);
  const { saving, save } = useFormSave();
  const [form] = Form.useForm<{ reason: string; endAt?: Dayjs }>();

  const reload = () => {
    meterRef.current?.reload();
    activeRef.current?.reload();
  };

  const start = () =>
    save(form, async (v) => {
      if (!target) return;
      const body = { kind, reason: v.reason.trim(), endAt: v.endAt ? v.endAt.format('YYYY-MM-DD HH:mm:ss') : undefined, ...('meterIds' in target ? { meterIds: target.meterIds } : { areaId: target.areaId }) };
      const r = await protectApi.start(body, company);
      toast.success(r.message);
      setTarget(null);
      selection.onChange([], []);
      reload();
    });

  const end = async (meterIds: number[]) => {
    try {
      const r = await protectApi.end({ kind, meterIds }, company);
      toast.success(r.message);
      selection.onChange([], []);
      reload();
    } catch {
      // shown by the request wrapper
    }
  };

  const openStart = (t: Target) => {
    form.resetFields();
    setTarget(t);
  };

  const activeCols = useMemo(() => protectionColumns(false), []);
  const activeParams = useMemo(() => ({ kind, active: true }), [kind]);

  return (
    <>
      <Tabs
        items={[
          {
            key: 'meters',
            label: `${meterWord}列表`,
            children: (
              <ControlMeterTable
                headerTitle={`${word}管理`}
                kind={kind}
                actionRef={meterRef}
                selection={selection}
                rowActions={(r) =>
                  !can ? [] : r.protection
                    ? [
                        <Popconfirm key="end" title={`确定解除该${meterWord}的${word}吗？`} okText="确定" cancelText="取消" onConfirm={() => end([r.id])}>
                          <a>解除{word}</a>
                        </Popconfirm>,
                      ]
                    : [<a key="start" onClick={() => openStart({ meterIds: [r.id] })}>{word}</a>]
                }
                toolBar={() =>
                  can
                    ? [
                        <Button key="start" type="primary" icon={<SafetyOutlined />} disabled={!keys.length} onClick={() => openStart({ meterIds: keys })}>
                          {word}选中{keys.length ? `（${keys.length}）` : ''}
                        </Button>,
                        <Popconfirm key="end" title={`确定解除选中${meterWord}的${word}吗？`} okText="确定" cancelText="取消" disabled={!keys.length} onConfirm={() => end(keys)}>
                          <Button disabled={!keys.length}>解除{word}</Button>
                        </Popconfirm>,
                        area.searchArea ? (
                          <Button key="area" onClick={() => openStart({ areaId: Number(area.searchArea), areaName: area.areaName })}>
                            {`「${area.areaName || '当前区域'}」全部${meterWord}${word}`}
                          </Button>
                        ) : null,
                      ].filter(Boolean)
                    : []
                }
              />
            ),
          },
          {
            key: 'active',
            label: `${word}中`,
            children: (
              <ResourceTable<ProtRow>
                entityName={word}
                headerTitle={`${word}中的${meterWord}`}
                columns={activeCols}
                actionRef={activeRef}
                params={activeParams}
                list={(q) => protectApi.list(q) as Promise<Paged<ProtRow>>}
                rowActions={(r) =>
                  can
                    ? [
                        <Popconfirm key="end" title={`确定解除${word}吗？`} okText="确定" cancelText="取消" onConfirm={() => end([r.meterId])}>
                          <a>解除{word}</a>
                        </Popconfirm>,
                      ]
                    : []
                }
              />
            ),
          },
        ]}
      />
      <FormDialog
        open={!!target}
        title={`开启${word}`}
        okText="确定"
        confirmLoading={saving}
        onOk={() => void start()}
        onCancel={() => setTarget(null)}
      >
        <p>
          {target && ('meterIds' in target ? `对选中的 ${target.meterIds.length} 块${meterWord}开启${word}` : `对「${target.areaName || '当前区域'}」及其下级区域的全部${meterWord}开启${word}`)}
          ；{word}期间欠费不会自动{kind === 2 ? '关阀' : '断电'}。
        </p>
        <Form form={form} layout="vertical" name="protect-start">
          <Form.Item label={`${word}原因`} name="reason" rules={[{ required: true, whitespace: true, min: 2, message: `请填写${word}原因（至少 2 个字）` }]}>
            <Input.TextArea rows={2} maxLength={200} showCount placeholder="例如：业主住院，暂缓停电" />
          </Form.Item>
          <Form.Item label="结束时间" name="endAt" extra="不填为长期有效，直至手动解除">
            <DatePicker showTime style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} />
          </Form.Item>
        </Form>
      </FormDialog>
    </>
  );
}

export function KeepElectric() {
  return <Keep kind={1} />;
}

export function KeepWater() {
  return <Keep kind={2} />;
}

