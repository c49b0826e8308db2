// 已销户 (/accountOff): owners whose account was closed — the room they left, when, by whom and what
// was refunded (AccountOff/List) — and 恢复账户 (AccountOff/Reopen, room.closeAccount): the owner
// moves back into the room they left (or another vacant room) and the accounts open again with a
// zero balance; the meters stay off until a top-up.
import { useMemo, useRef, useState } from 'react';
import { Form, Input, Modal, Typography } from 'antd';
import type { ActionType } from '@ant-design/pro-components';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { useCan, useSession } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { billingApi, type ClosedRow, type Paged } from '../fee/billingApi.ts';
import { moneyColumn, timeColumn, useCompanyPick } from '../fee/common.tsx';
import { VacantRoomSelect } from '../records/roomFields.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';

type Row = ClosedRow & Record<string, unknown>;

function ReopenModal({ row, company, onClose, onDone }: { row: Row; company?: string; onClose(): void; onDone(): void }) {
  const session = useSession();
  // vacant rooms come from the room archive: offered only to users who may read it
  const canPickRoom = !!session?.routes.some((r) => r === 'recordsRoom' || r === 'recordsOwner');
  const [roomId, setRoomId] = useState<number | undefined>(undefined);
  const [memo, setMemo] = useState('');
  const { busy, refusal, run } = useRefusal();
  const submit = async () => {
    await run(async () => {
      await billingApi.reopenAccount({ ownerId: row.ownerId, ...(roomId ? { roomId } : {}), memo: memo.trim() }, company);
      toast.success('账户已恢复');
      onDone();
    });
  };
  return (
    <Modal open title={`恢复账户：${row.ownerName}`} okText="确定恢复" cancelText="取消" confirmLoading={busy} onOk={() => void submit()} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph>
        恢复后业主重新入住，电费、水费账户重新启用（余额为 0）；表具保持断开，充值后自动恢复供电/供水。
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label="入住房间" extra={`不选则回到原房间：${row.roomName ?? '-'}`}>
          {canPickRoom ? <VacantRoomSelect value={roomId} onChange={(v) => setRoomId(v ?? undefined)} placeholder="原房间（可选其他空置房间）" /> : <Typography.Text>{row.roomName ?? '-'}</Typography.Text>}
        </Form.Item>
        <Form.Item label="备注">
          <Input.TextArea rows={2} maxLength={200} value={memo} onChange={(e) => setMemo(e.target.value)} placeholder="选填" />
        </Form.Item>
      </Form>
      <RefusalAlert title="恢复未成功" refusal={refusal} />
    </Modal>
  );
}

export default function AccountOff() {
  const company = useCompanyPick();
  const canReopen = useCan('room.closeAccount');
  const [reopening, setReopening] = useState<Row | null>(null);
  const actionRef = useRef<ActionType | undefined>(undefined);
  const columns = useMemo<ResourceColumn<Row>[]>(() => [
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true },
    { title: '手机号码', key: 'ownerPhone', dataIndex: 'ownerPhone' },
    { title: '原房间', key: 'roomName', dataIndex: 'roomName', search: true, render: (_d, r) => r.roomName ?? '-' },
    timeColumn<Row>('销户时间', 'closedAt'),
    moneyColumn<Row>('退还金额', 'refund'),
    { title: '经办人', key: 'operatorName', dataIndex: 'operatorName', render: (_d, r) => r.operatorName ?? '-' },
    { title: '备注', key: 'memo', dataIndex: 'memo', ellipsis: true, render: (_d, r) => r.memo || '-' },
  ], []);
  return (
    <>
      <ResourceTable<Row>
        headerTitle="已销户账户"
        rowKey="ownerId"
        columns={columns}
        actionRef={actionRef}
        list={(q) => billingApi.closedAccounts(q) as Promise<Paged<Row>>}
        rowActions={canReopen ? (r) => [<a key="reopen" onClick={() => setReopening(r)}>恢复账户</a>] : undefined}
      />
      {reopening && (
        <ReopenModal
          row={reopening}
          company={company}
          onClose={() => setReopening(null)}
          onDone={() => {
            setReopening(null);
            void actionRef.current?.reload();
          }}
        />
      )}
    </>
  );
}
