// 销户销表 (/accountCancel): closing a room's account when the owner leaves, in one server
// transaction (AccountCancel/Cancel, room.closeAccount): the final readings typed at the counter →
// everything pending is settled → the positive balances are refunded (with receipts) → the room's
// meters are switched off → the accounts close and the owner moves out (已销户). The dialog walks
// through it: final readings, then a confirmation showing the refund, then the result.
import { useMemo, useState } from 'react';
import { Alert, Button, Descriptions, Input, Modal, Popconfirm, Radio, Result, Space, Spin, Steps, Table, Tag, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { formatMoney, yuanToFen } from '@meter/contracts';
import { ResourceTable, type ResourceColumn } from '../../components/ResourceTable.tsx';
import { useCan } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { COUNTER_PAY_METHODS, PAY_METHOD_TEXT, billingApi, type CancelResult, type EnergyRoomRow, type Paged, type PayMethod, type RoomDetail } from '../fee/billingApi.ts';
import { Money, useCompanyPick } from '../fee/common.tsx';
import { energyColumns } from '../fee/Energy.tsx';
import { fmtTime, money } from '../fee/money.ts';
import { ValveCancelled, needsPassword, useValvePassword } from './valvePassword.tsx';
import { RefusalAlert, useRefusal } from '../../components/submit.tsx';
import { useListReload, withoutReloadKey } from '../../components/useListReload.ts';

type Row = EnergyRoomRow & Record<string, unknown>;

const READING_RE = /^\d{1,12}(\.\d{1,2})?$/;

/** Why a final reading cannot be used ('' = none typed, fine), or null. Compared exactly as decimals. */
export function readingError(text: string, last: string | null): string | null {
  const t = text.trim();
  if (t === '') return null;
  if (!READING_RE.test(t)) return '读数须为不小于 0 的数字，最多 2 位小数';
  if (last != null && READING_RE.test(last) && compareDecimal(t, last) < 0) return `不能小于上次读数 ${last}`;
  return null;
}

/** Compare two plain non-negative decimals (≤ 2 decimals) exactly. */
function compareDecimal(a: string, b: string): number {
  const fen = (s: string) => yuanToFen(s);
  const x = fen(a);
  const y = fen(b);
  return x === y ? 0 : x > y ? 1 : -1;
}

/** What closing would refund now: the positive balances, in 分, and any arrears that block it. */
export function refundPreview(accounts: RoomDetail['accounts']): { refundFen: number; lines: { text: string; fen: number }[]; arrears: { text: string; fen: number }[] } {
  const lines: { text: string; fen: number }[] = [];
  const arrears: { text: string; fen: number }[] = [];
  for (const a of accounts) {
    const fen = yuanToFen(a.balance);
    if (fen > 0) lines.push({ text: a.walletText, fen });
    if (fen < 0) arrears.push({ text: a.walletText, fen: -fen });
  }
  return { refundFen: lines.reduce((s, l) => s + l.fen, 0), lines, arrears };
}

function CancelDialog({ room, company, onClose, onDone }: { room: EnergyRoomRow; company?: string; onClose(): void; onDone(): void }) {
  const navigate = useNavigate();
  const { data, isFetching } = useQuery({ queryKey: ['energyRoomDetail', room.roomId, company, 'cancel'], queryFn: () => billingApi.roomDetail(room.roomId, company) });
  const [step, setStep] = useState(0);
  const [readings, setReadings] = useState<Record<number, string>>({});
  const [payMethod, setPayMethod] = useState<PayMethod>('cash');
  const [memo, setMemo] = useState('');
  const { busy, refusal, run } = useRefusal();
  const [result, setResult] = useState<CancelResult | null>(null);
  const meters = (data?.meters ?? []).filter((m) => m.status !== 2);
  const errors = Object.fromEntries(meters.map((m) => [m.id, readingError(readings[m.id] ?? '', m.lastTotal)]));
  const readingsOk = Object.values(errors).every((e) => e == null);
  const preview = useMemo(() => refundPreview(data?.accounts ?? []), [data]);

  const valve = useValvePassword(company);

  const submit = async () => {
    // 销户 switches the meters off: a phaseId-1 meter among them asks the valve password first
    let valvePassword: string | undefined;
    if (meters.some((m) => m.status === 1 && needsPassword(m))) {
      try {
        valvePassword = await valve.ask();
      } catch (e) {
        if (e instanceof ValveCancelled) return;
        throw e;
      }
    }
    await run(async () => {
      const body = {
        roomId: room.roomId,
        readings: meters.filter((m) => (readings[m.id] ?? '').trim() !== '').map((m) => ({ meterId: m.id, total: readings[m.id].trim() })),
        payMethod,
        memo: memo.trim(),
        ...(valvePassword ? { valvePassword } : {}),
      };
      const r = await billingApi.cancelAccount(body, company);
      setResult(r);
      setStep(2);
      toast.success('销户成功');
      onDone();
    });
  };

  const footer =
    step === 0 ? [
      <Button key="cancel" onClick={onClose}>取消</Button>,
      <Button key="next" type="primary" disabled={!data || !readingsOk} onClick={() => setStep(1)}>下一步</Button>,
    ] : step === 1 ? [
      <Button key="back" onClick={() => setStep(0)}>上一步</Button>,
      <Popconfirm
        key="ok"
        title={`确定为「${room.ownerName}」销户，并退还 ${formatMoney(preview.refundFen)} 吗？`}
        description="销户后表具将拉闸/关阀，业主迁出，操作不可撤销。"
        okText="确定销户"
        cancelText="取消"
        onConfirm={() => void submit()}
        disabled={preview.arrears.length > 0}
      >
        <Button type="primary" danger loading={busy} disabled={preview.arrears.length > 0}>确认销户</Button>
      </Popconfirm>,
    ] : [<Button key="done" type="primary" onClick={onClose}>完成</Button>];

  return (
    <Modal open width={760} title={`销户：${room.roomName}（${room.ownerName ?? ''}）`} onCancel={onClose} maskClosable={false} destroyOnHidden footer={footer}>
      <Steps size="small" current={step} style={{ marginBottom: 16 }} items={[{ title: '最终读数' }, { title: '确认退费' }, { title: '完成' }]} />
      <Spin spinning={isFetching && !data}>
        {step === 0 && (
          <>
            <Typography.Paragraph type="secondary">
              填写各表具的最终读数（可不填，按最新读数结算）。销户时先结算全部未结算读数，再退还账户余额。
            </Typography.Paragraph>
            <Table
              size="small"
              rowKey="id"
              pagination={false}
              dataSource={meters}
              locale={{ emptyText: '该房间没有在用表具' }}
              columns={[
                { title: '表具', dataIndex: 'name', render: (v, m) => v || m.address },
                { title: '类型', dataIndex: 'kind', render: (v: number) => (v === 2 ? '水表' : '电表') },
                { title: '上次读数', dataIndex: 'lastTotal', render: (v, m) => (v == null ? '-' : `${v} ${m.unit}`) },
                { title: '抄表时间', dataIndex: 'lastReadAt', render: (v) => fmtTime(v) || '-' },
                {
                  title: '最终读数',
                  width: 200,
                  render: (_v, m) => (
                    <>
                      <Input
                        size="small"
                        inputMode="decimal"
                        aria-label={`${m.name || m.address}最终读数`}
                        placeholder="选填"
                        suffix={m.unit}
                        value={readings[m.id] ?? ''}
                        status={errors[m.id] ? 'error' : undefined}
                        onChange={(e) => setReadings((r) => ({ ...r, [m.id]: e.target.value }))}
                      />
                      {errors[m.id] && <Typography.Text type="danger" style={{ fontSize: 12 }}>{errors[m.id]}</Typography.Text>}
                    </>
                  ),
                },
              ]}
            />
          </>
        )}
        {step === 1 && data && (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Descriptions bordered size="small" column={1}>
              <Descriptions.Item label="房间">{data.room.path}</Descriptions.Item>
              <Descriptions.Item label="业主">{data.owner ? `${data.owner.name}（${data.owner.phone}）` : '-'}</Descriptions.Item>
              {data.accounts.map((a) => (
                <Descriptions.Item key={a.id} label={`${a.walletText}余额`}><Money value={a.balance} /></Descriptions.Item>
              ))}
              <Descriptions.Item label="应退金额">
                <Typography.Text strong style={{ fontSize: 18 }} data-testid="cancel-refund">{formatMoney(preview.refundFen)}</Typography.Text>
                {preview.lines.length > 1 && (
                  <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
                    （{preview.lines.map((l) => `${l.text} ${formatMoney(l.fen)}`).join(' + ')}）
                  </Typography.Text>
                )}
              </Descriptions.Item>
              <Descriptions.Item label="销户后">
                拉闸/关阀 {meters.length} 块表具，业主迁出（已销户）
              </Descriptions.Item>
            </Descriptions>
            {preview.arrears.length > 0 && (
              <Alert type="warning" showIcon message={`账户欠费：${preview.arrears.map((a) => `${a.text} ${formatMoney(a.fen)}`).join('，')}，请先缴清欠费再销户`} />
            )}
            {Object.values(readings).some((v) => v.trim() !== '') && (
              <Alert type="info" showIcon message="填写的最终读数会先结算扣费，实际退还金额以结算后的余额为准。" />
            )}
            <Space>
              <span>退款方式：</span>
              <Radio.Group optionType="button" value={payMethod} onChange={(e) => setPayMethod(e.target.value as PayMethod)} options={COUNTER_PAY_METHODS.map((m) => ({ value: m, label: PAY_METHOD_TEXT[m] }))} />
            </Space>
            <Input.TextArea rows={2} maxLength={200} value={memo} onChange={(e) => setMemo(e.target.value)} placeholder="备注（选填），如：合同到期退房" />
            <RefusalAlert title="销户未成功" refusal={refusal} testId="cancel-refusal" />
          </Space>
        )}
        {step === 2 && result && (
          <Result
            status="success"
            title="销户成功"
            subTitle={`结算读数 ${result.settledReadings} 条；退还 ${result.refunds.length ? result.refunds.map((r) => `${r.wallet === 'water' ? '水费' : r.wallet === 'electric' ? '电费' : '其他'} ${money(r.amount)}`).join('，') : '¥0.00'}`}
            extra={
              <Space direction="vertical" style={{ textAlign: 'left' }}>
                {result.refunds.map((r) => (
                  <Typography.Text key={r.receiptNo}>退费票据：{r.receiptNo}</Typography.Text>
                ))}
                {result.valves.map((v) => (
                  <Typography.Text key={v.meterId}>
                    {v.name || `表具 ${v.meterId}`}：{v.skipped ? <Tag>{v.skipped}</Tag> : <Tag color="processing">已下发关断指令</Tag>}
                  </Typography.Text>
                ))}
                {result.refunds.length > 0 && <Button onClick={() => { onClose(); navigate('/billprint'); }}>去打印票据</Button>}
              </Space>
            }
          />
        )}
      </Spin>
      {valve.dialog}
    </Modal>
  );
}

export default function AccountCancel() {
  const company = useCompanyPick();
  const canClose = useCan('room.closeAccount');
  const [closing, setClosing] = useState<Row | null>(null);
  const reloading = useListReload();
  const columns = useMemo<ResourceColumn<Row>[]>(() => energyColumns(), []);
  return (
    <>
      <ResourceTable<Row>
        headerTitle="销户销表"
        rowKey="roomId"
        columns={columns}
        params={reloading.params}
        list={(q) => billingApi.energyRooms(withoutReloadKey(q)) as Promise<Paged<Row>>}
        rowActions={canClose ? (r) => [r.ownerId && <a key="close" style={{ color: '#ff4d4f' }} data-testid={`cancel-${r.roomId}`} onClick={() => setClosing(r)}>销户</a>] : undefined}
      />
      {closing && (
        <CancelDialog room={closing} company={company} onClose={() => setClosing(null)} onDone={reloading.reload} />
      )}
    </>
  );
}
