// One appeal: what was asked, its state and deadline, the history of changes and replies, and the
// next steps the signed-in user may take (受理 → 回复 → 办结 / 驳回; 指派 for company staff).
import { useState } from 'react';
import { Button, Descriptions, Drawer, Empty, Input, Modal, Select, Space, Spin, Tag, Timeline, Typography } from 'antd';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { APPEAL_FROM } from '@meter/contracts';
import { appealApi, type AppealDetailData, type AppealKind } from '../../api/appeal.ts';
import { useCan, useSession } from '../../app/session.ts';
import { toast } from '../../app/feedback.tsx';
import { AppealPhotos } from './AppealPhotos.tsx';

export const KIND_TITLES: Record<AppealKind, string> = { owner: '业主诉求', system: '平台诉求', device: '设备工单' };
export const STATUS_COLORS: Record<number, string> = { 0: 'orange', 1: 'processing', 2: 'success', 3: 'default' };
export const fmt = (t: string | null | undefined) => (t ? dayjs(t).format('YYYY-MM-DD HH:mm') : '—');

export function StatusTag({ status, text, overdue }: { status: number; text: string; overdue?: boolean }) {
  return (
    <Space size={4}>
      <Tag color={STATUS_COLORS[status]}>{text}</Tag>
      {overdue && <Tag color="error">已超时</Tag>}
    </Space>
  );
}

type Step = 'accept' | 'assign' | 'reply' | 'complete' | 'reject';
const STEP_TITLES: Record<Step, string> = { accept: '受理', assign: '指派处理人', reply: '回复', complete: '办结', reject: '驳回' };
const STEP_LABELS: Record<Step, string> = { accept: '受理说明（选填）', assign: '处理人', reply: '回复内容', complete: '处理说明', reject: '驳回原因' };

/** Which steps the user may take on this appeal now (the server checks the same). */
export function stepsFor(kind: AppealKind, status: number, o: { platform: boolean; canHandle: boolean }): Step[] {
  const all: Step[] = ['accept', 'assign', 'reply', 'complete', 'reject'];
  return all.filter((s) => {
    if (!APPEAL_FROM[s].includes(status)) return false;
    if (kind !== 'system') return o.canHandle;
    if (s === 'assign') return false;
    return s === 'reply' || o.platform;
  });
}

export function AppealDrawer({ kind, id, onClose, onChanged }: { kind: AppealKind; id?: number; onClose(): void; onChanged(): void }) {
  const api = appealApi(kind);
  const client = useQueryClient();
  const session = useSession();
  const canHandle = useCan('appeal.handle');
  const platform = session?.access === 0;
  const { data, isFetching } = useQuery({
    queryKey: ['appeal', kind, id],
    queryFn: () => api.detail(id!),
    enabled: id !== undefined,
  });
  const { data: staff } = useQuery({
    queryKey: ['appealAssignees'],
    queryFn: () => api.assignees(),
    enabled: id !== undefined && kind !== 'system' && canHandle && !platform,
  });
  const [step, setStep] = useState<Step>();
  const [text, setText] = useState('');
  const [assignee, setAssignee] = useState<number>();
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState('');
  const a = data as AppealDetailData | undefined;

  const open = (s: Step) => {
    setStep(s);
    setText('');
    setAssignee(undefined);
    setMissing('');
  };
  const submit = async () => {
    if (!a || !step) return;
    if (step === 'assign' && !assignee) return setMissing('请选择处理人');
    if ((step === 'reply' || step === 'complete' || step === 'reject') && !text.trim()) return setMissing(`请填写${STEP_LABELS[step]}`);
    setMissing('');
    setBusy(true);
    try {
      if (step === 'accept') await api.accept(a.id, assignee, text.trim());
      else if (step === 'assign') await api.assign(a.id, assignee!);
      else await api[step](a.id, text.trim());
      toast.success(`${STEP_TITLES[step]}成功`);
      setStep(undefined);
      await client.invalidateQueries({ queryKey: ['appeal', kind, id] });
      onChanged();
    } catch {
      // the request layer has shown the server's message
    } finally {
      setBusy(false);
    }
  };

  const steps = a ? stepsFor(kind, a.status, { platform, canHandle }) : [];
  return (
    <Drawer title={`${KIND_TITLES[kind]}详情`} width={720} open={id !== undefined} onClose={onClose} destroyOnHidden
      extra={<Space>{steps.map((s) => (
        <Button key={s} type={s === 'accept' || s === 'complete' ? 'primary' : 'default'} danger={s === 'reject'} onClick={() => open(s)}>{STEP_TITLES[s]}</Button>
      ))}</Space>}>
      {!a ? (isFetching ? <Spin /> : <Empty description="没有找到该诉求" />) : (
        <>
          <Descriptions column={2} size="small" bordered>
            <Descriptions.Item label="标题" span={2}>{a.title}</Descriptions.Item>
            <Descriptions.Item label="状态"><StatusTag status={a.status} text={a.statusText} overdue={a.overdue} /></Descriptions.Item>
            <Descriptions.Item label={kind === 'device' ? '工单类型' : '诉求类型'}>{a.typeName}</Descriptions.Item>
            {kind === 'device' && <Descriptions.Item label="设备异常" span={2}><Tag color="red">{a.exceptionText}</Tag></Descriptions.Item>}
            {kind !== 'system' ? (
              <>
                <Descriptions.Item label="区域">{a.areaName || '—'}</Descriptions.Item>
                <Descriptions.Item label="房间">{a.roomName || '—'}</Descriptions.Item>
              </>
            ) : (
              <Descriptions.Item label="单位" span={2}>{a.companyName}</Descriptions.Item>
            )}
            <Descriptions.Item label="联系人">{a.contactName || '—'}</Descriptions.Item>
            <Descriptions.Item label="联系电话">{a.contactPhone || '—'}</Descriptions.Item>
            <Descriptions.Item label="处理人">{a.assigneeName || '未指派'}</Descriptions.Item>
            <Descriptions.Item label="登记人">{a.createdByName}</Descriptions.Item>
            <Descriptions.Item label="登记时间">{fmt(a.createdAt)}</Descriptions.Item>
            <Descriptions.Item label="处理期限">{fmt(a.deadlineAt)}</Descriptions.Item>
            <Descriptions.Item label="内容" span={2}><Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{a.content}</Typography.Paragraph></Descriptions.Item>
            {a.photos.length > 0 && <Descriptions.Item label="照片" span={2}><AppealPhotos keys={a.photos} /></Descriptions.Item>}
          </Descriptions>
          <Typography.Title level={5} style={{ marginTop: 24 }}>处理记录</Typography.Title>
          <Timeline
            items={a.events.map((e) => ({
              key: e.id,
              color: e.action === 'reject' ? 'gray' : e.action === 'complete' ? 'green' : 'blue',
              children: (
                <div>
                  <Space size={8} wrap>
                    <Typography.Text strong>{e.actionText}</Typography.Text>
                    <Typography.Text type="secondary">{e.byName}{e.byAccess === 0 ? '（平台）' : ''}</Typography.Text>
                    <Typography.Text type="secondary">{fmt(e.createdAt)}</Typography.Text>
                  </Space>
                  {e.content && <div style={{ whiteSpace: 'pre-wrap' }}>{e.content}</div>}
                </div>
              ),
            }))}
          />
          <Typography.Text type="secondary">回复暂只支持文字（图片上传功能开放后可附图）。</Typography.Text>
        </>
      )}
      <Modal title={step ? STEP_TITLES[step] : ''} open={!!step} onCancel={() => setStep(undefined)} onOk={submit} confirmLoading={busy}
        okText="确定" cancelText="取消" destroyOnHidden>
        {(step === 'assign' || (step === 'accept' && kind !== 'system')) && (
          <Select aria-label="处理人" style={{ width: '100%', marginBottom: 12 }} placeholder={step === 'accept' ? '处理人（不选则为本人）' : '请选择处理人'}
            value={assignee} onChange={setAssignee} allowClear options={(staff ?? []).map((s) => ({ value: s.id, label: s.name }))} />
        )}
        {step !== 'assign' && (
          <Input.TextArea aria-label={step ? STEP_LABELS[step] : ''} placeholder={step ? `请填写${STEP_LABELS[step].replace('（选填）', '')}` : ''}
            rows={4} maxLength={2000} showCount value={text} status={missing ? 'error' : undefined} onChange={(e) => setText(e.target.value)} />
        )}
        {missing && <Typography.Text type="danger" role="alert">{missing}</Typography.Text>}
      </Modal>
    </Drawer>
  );
}
