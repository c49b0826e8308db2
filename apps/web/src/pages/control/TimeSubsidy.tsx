// 房间定时补贴 (/timeSubsidy): monthly subsidy plans of rooms beside the area tree — on a day of each
// month from a start month (to an end month, or for good) the room's electricity or water account is
// credited the amount (RoomInfo/RoomSubsidyList); 新增定时补贴 (AddRoomSubsidy) and 启用/停用
// (RoomSubsidyStatus), both with finance.roomTimedSubsidy.
import { useMemo, useRef, useState } from 'react';
import { Button, DatePicker, Form, Input, InputNumber, Modal, Radio, Switch, Tag } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import dayjs, { type Dayjs } from 'dayjs';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { useCan } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import { WALLET_TEXT, billingApi, type BillingBody, type Paged, type SubsidyPlanRow, type Wallet } from '../fee/billingApi.ts';
import { moneyColumn, timeColumn, useCompanyPick } from '../fee/common.tsx';
import { amountRule, normalizeAmount } from '../fee/money.ts';
import { OccupiedRoomSelect } from '../fee/RoomSelect.tsx';
import { MemoItem } from '../../components/formItems.tsx';

type Row = SubsidyPlanRow & Record<string, unknown>;

interface Values {
  roomId: number;
  wallet: Wallet;
  amount: string;
  dayOfMonth: number;
  startMonth: Dayjs;
  endMonth?: Dayjs | null;
  memo?: string;
}

/** The AddRoomSubsidy body from the form (months as YYYY-MM, the amount as a 2-decimal 元 string). */
export function subsidyBody(v: Values): BillingBody<'addRoomSubsidy'> {
  return {
    roomId: v.roomId,
    wallet: v.wallet,
    amount: normalizeAmount(v.amount),
    dayOfMonth: v.dayOfMonth,
    startMonth: v.startMonth.format('YYYY-MM'),
    endMonth: v.endMonth ? v.endMonth.format('YYYY-MM') : '',
    memo: (v.memo ?? '').trim(),
  };
}

function AddModal({ company, onClose, onDone }: { company?: string; onClose(): void; onDone(): void }) {
  const [form] = Form.useForm<Values>();
  const { busy, refusal, runForm } = useRefusal();
  const submit = () =>
    runForm(form, async (v) => {
      await billingApi.addRoomSubsidy(subsidyBody(v), company);
      toast.success('新增成功');
      onDone();
    });
  return (
    <Modal open title="新增定时补贴" okText="保存" cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={onClose} maskClosable={false} destroyOnHidden width={560}>
      <Form<Values>
        form={form}
        layout="vertical"
        name="time-subsidy"
        initialValues={{ wallet: 'electric', dayOfMonth: 1, startMonth: dayjs().startOf('month'), amount: '' }}
      >
        <Form.Item name="roomId" label="房间" rules={[{ required: true, message: '请选择房间' }]}>
          <OccupiedRoomSelect company={company} />
        </Form.Item>
        <Form.Item name="wallet" label="补贴账户" rules={[{ required: true, message: '请选择补贴账户' }]}>
          <Radio.Group optionType="button" options={(['electric', 'water'] as Wallet[]).map((w) => ({ value: w, label: WALLET_TEXT[w] }))} />
        </Form.Item>
        <Form.Item
          name="amount"
          label="每月补贴金额（元）"
          rules={[amountRule('补贴金额')]}
        >
          <Input prefix="¥" suffix="元" inputMode="decimal" autoComplete="off" maxLength={16} placeholder="如 20 或 20.50" />
        </Form.Item>
        <Form.Item name="dayOfMonth" label="每月发放日（日）" rules={[{ required: true, message: "请填写发放日" }]} extra="每月 1–28 日中的一天">
          <InputNumber min={1} max={28} precision={0} style={{ width: 200 }} />
        </Form.Item>
        <Form.Item name="startMonth" label="开始月份" rules={[{ required: true, message: '请选择开始月份' }]}>
          <DatePicker picker="month" format="YYYY-MM" style={{ width: 200 }} />
        </Form.Item>
        <Form.Item
          name="endMonth"
          label="结束月份"
          dependencies={['startMonth']}
          extra="不填表示长期有效"
          rules={[
            ({ getFieldValue }) => ({
              validator: (_r, v: Dayjs | null | undefined) => {
                const start = getFieldValue('startMonth') as Dayjs | undefined;
                return v && start && v.format('YYYY-MM') < start.format('YYYY-MM') ? Promise.reject(new Error('结束月份不能早于开始月份')) : Promise.resolve();
              },
            }),
          ]}
        >
          <DatePicker picker="month" format="YYYY-MM" style={{ width: 200 }} allowClear />
        </Form.Item>
        <MemoItem placeholder="选填，如：低保户用电补贴" />
      </Form>
      <RefusalAlert title="新增未成功" refusal={refusal} />
    </Modal>
  );
}

export default function TimeSubsidy() {
  const company = useCompanyPick();
  const canEdit = useCan('finance.roomTimedSubsidy');
  const [adding, setAdding] = useState(false);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const reload = () => void actionRef.current?.reload();

  const toggle = async (r: Row, enabled: boolean) => {
    try {
      await billingApi.setSubsidyStatus(r.id, enabled, company);
      toast.success(enabled ? '已启用' : '已停用');
      reload();
    } catch {
      // the request wrapper showed why
    }
  };

  const columns = useMemo<ResourceColumn<Row>[]>(() => [
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', render: (_d, r) => r.ownerName ?? <Tag>空置</Tag> },
    { title: '补贴账户', key: 'walletText', dataIndex: 'walletText' },
    moneyColumn<Row>('每月金额', 'amount'),
    { title: '发放日', key: 'dayOfMonth', dataIndex: 'dayOfMonth', render: (_d, r) => `每月 ${r.dayOfMonth} 日` },
    { title: '起止月份', key: 'months', dataIndex: 'startMonth', render: (_d, r) => `${r.startMonth} 至 ${r.endMonth || '长期'}` },
    { title: '已发放', key: 'creditedTimes', dataIndex: 'creditedTimes', render: (_d, r) => `${r.creditedTimes} 次` },
    {
      title: '状态',
      key: 'enabled',
      dataIndex: 'enabled',
      search: true,
      valueType: 'select',
      valueEnum: { 1: { text: '启用' }, 0: { text: '停用' } },
      render: (_d, r) =>
        canEdit ? (
          <Switch checked={r.enabled} checkedChildren="启用" unCheckedChildren="停用" onChange={(v) => void toggle(r, v)} />
        ) : r.enabled ? <Tag color="success">启用</Tag> : <Tag>停用</Tag>,
    },
    { title: '备注', key: 'memo', dataIndex: 'memo', ellipsis: true },
    timeColumn<Row>('创建时间', 'createdAt'),
    // eslint-disable-next-line react-hooks/exhaustive-deps
  ], [canEdit, company]);

  return (
    <>
      <ResourceTable<Row>
        headerTitle="房间定时补贴"
        columns={columns}
        actionRef={actionRef}
        list={(q) => billingApi.subsidyPlans(q) as Promise<Paged<Row>>}
        toolBar={() =>
          canEdit ? [<Button key="add" type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)}>新增定时补贴</Button>] : []
        }
      />
      {adding && <AddModal company={company} onClose={() => setAdding(false)} onDone={() => { setAdding(false); reload(); }} />}
    </>
  );
}
