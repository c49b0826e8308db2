// 远程阀控 (/longRange): switch meters on (合闸/开阀) or off (拉闸/关阀), one or many, beside the area
// tree. Switching off follows SPEC §4 exactly: a meter whose phaseId is not 1 gets the order directly
// (with the memo); phaseId 1 asks the valve-control password first (useValvePassword), and a cancel
// sends nothing; the typed password goes with the close request. A bulk close is never sent on the
// first click: BulkCloseConfirm names the count and kind of meters (and asks the password in the same
// dialog when any has phaseId 1); the confirmed selection goes to the server in one request
// (device/order/close/bulk) as a task, whose progress (done/total) the page follows — as /task shows it.
// A close refused because the meter is protected (保电/保水) or inside the alarm
// scheme's no-disconnect hours can be forced with a reason, which the server records on the command.
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Card, Form, Input, List, Modal, Progress, Space, Typography } from 'antd';
import { PoweroffOutlined, ThunderboltOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import { ApiError } from '../../api/request.ts';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { controlApi, type Command, type Company } from './api.ts';
import type { BulkCloseResultData, ReadTask } from '@meter/contracts';
import { CommandTag, ControlMeterTable, isFinal, useCommandWatch, useCompany, useMeterSelection, type MeterRow } from './shared.tsx';
import { ValveCancelled, switchOff, useValvePassword } from './valvePassword.tsx';
import { BulkCloseConfirm } from './BulkCloseConfirm.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';

/** Refusals a person may override with a reason (the server allows it for closes). */
export const OVERRIDABLE = ['METER_PROTECTED', 'NO_CLOSE_PERIOD'];

export const valveWord = (kind: number, open: boolean) => (open ? (kind === 2 ? '开阀' : '合闸') : kind === 2 ? '关阀' : '拉闸');

export type ValveOutcome =
  | { ok: true; command: Command; message: string }
  | { ok: false; code: string; message: string; overridable: boolean };

/** Sends one valve order; a refusal becomes an outcome (not a toast) so bulk runs can collect them. */
export async function sendValve(meter: MeterRow, open: boolean, memo: string, company: Company, overrideReason = '', password = ''): Promise<ValveOutcome> {
  try {
    const c = await controlApi.valve({ id: meter.id, open, memo, ...(overrideReason ? { overrideReason } : {}), ...(password ? { password } : {}) }, company, true);
    return { ok: true, command: { ...c, meterName: c.meterName || meter.name, meterId: c.meterId ?? meter.id }, message: c.message ?? '' };
  } catch (e) {
    if (e instanceof ApiError) {
      const message = e.status >= 400 ? e.serverMessage : e.message;
      return { ok: false, code: e.code, message, overridable: !open && OVERRIDABLE.includes(e.code) };
    }
    return { ok: false, code: 'UNKNOWN', message: '请求失败', overridable: false };
  }
}

interface BulkItem {
  meter: MeterRow;
  outcome?: ValveOutcome;
}

interface Bulk {
  open: boolean;
  /** the valve password typed at the confirmation (re-sent with a forced retry) */
  password: string;
  items: BulkItem[];
  done: number;
  running: boolean;
}

const CONCURRENCY = 4;

export default function LongRange() {
  const company = useCompany();
  const canValve = useCan('device.valve');
  const tableRef = useRef<ActionType | undefined>(undefined);
  const [memo, setMemo] = useState('');
  const selection = useMeterSelection();
  const { keys, rows } = selection;
  const [bulk, setBulk] = useState<Bulk | null>(null);
  /** the bulk close running as a task on the server (its answer, then the task as /task lists it) */
  const [closeTask, setCloseTask] = useState<{ result: BulkCloseResultData; meters: MeterRow[]; password: string; task?: ReadTask } | null>(null);
  const [confirmClose, setConfirmClose] = useState<MeterRow[] | null>(null);
  /** a refusal that may be overridden with a reason; a single close keeps the password it was sent with */
  const [override, setOverride] = useState<{ meters: MeterRow[]; message: string; password?: string; bulkClose?: boolean } | null>(null);
  const [reasonForm] = Form.useForm<{ reason: string }>();
  const { ask, dialog } = useValvePassword(company);
  const { commands, watch, busyMeters } = useCommandWatch(company, () => void tableRef.current?.reload());

  const report = (o: ValveOutcome, meter: MeterRow, open: boolean, password?: string) => {
    if (o.ok) {
      watch([o.command]);
      if (o.command.status === 'succeeded') toast.success(o.message || `${valveWord(meter.kind, open)}成功`);
      else if (isFinal(o.command.status)) toast.warning(o.message || o.command.error || o.command.statusText);
      else toast.info(o.message || `${valveWord(meter.kind, open)}指令已下发，正在等待设备响应`);
      tableRef.current?.reload();
    } else if (o.overridable) {
      setOverride({ meters: [meter], message: o.message, password });
    } else {
      toast.warning(o.message);
    }
  };

  const single = async (meter: MeterRow, open: boolean) => {
    const m = memo.trim();
    try {
      let typed: string | undefined;
      const o = open
        ? await sendValve(meter, true, m, company)
        : await switchOff([meter], ask, (password) => {
            typed = password;
            return sendValve(meter, false, m || `远程${valveWord(meter.kind, false)}`, company, '', password);
          });
      report(o, meter, open, typed);
    } catch (e) {
      if (e instanceof ValveCancelled) toast.info('已取消，未下发指令');
    }
  };

  const runBulk = async (meters: MeterRow[], open: boolean, overrideReason = '', password = '') => {
    const m = memo.trim() || `批量远程${open ? '合闸/开阀' : '拉闸/关阀'}`;
    const items: BulkItem[] = meters.map((meter) => ({ meter }));
    setBulk({ open, password, items, done: 0, running: true });
    let next = 0;
    let done = 0;
    const worker = async () => {
      while (next < items.length) {
        const it = items[next++];
        it.outcome = await sendValve(it.meter, open, m, company, overrideReason, password);
        if (it.outcome.ok) watch([it.outcome.command]);
        done++;
        setBulk({ open, password, items: [...items], done, running: done < items.length });
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, worker));
    tableRef.current?.reload();
  };

  const closeTaskId = closeTask?.result.taskId ?? null;
  const closeTaskDone = !closeTask || closeTaskId === null || closeTask.task?.status === 'done';
  useEffect(() => {
    if (closeTaskId === null || closeTaskDone) return;
    let live = true;
    const poll = async () => {
      const task = await controlApi.task(closeTaskId, company).catch(() => undefined);
      if (!live || !task) return;
      setCloseTask((c) => (c && c.result.taskId === closeTaskId ? { ...c, task } : c));
      if (task.status === 'done') tableRef.current?.reload();
    };
    void poll();
    const t = setInterval(() => void poll(), 1000);
    return () => {
      live = false;
      clearInterval(t);
    };
  }, [closeTaskId, closeTaskDone, company]);

  /** the confirmed selection as one request: queued as a task, refusals answered per meter */
  const runBulkClose = async (meters: MeterRow[], overrideReason = '', password = '') => {
    const m = memo.trim() || '批量远程拉闸/关阀';
    try {
      const result = await controlApi.closeBulk(
        { ids: meters.map((x) => x.id), memo: m, ...(overrideReason ? { overrideReason } : {}), ...(password ? { password } : {}) },
        company,
      );
      setCloseTask({ result, meters, password });
      if (result.queued) toast.info(`已提交批量拉闸/关阀任务：${result.queued} 块表具排队执行`);
      else if (!result.refused.length) toast.info('所选表具已有相同指令正在执行，未重复下发');
    } catch {
      /* the request layer showed the refusal (wrong password, …) */
    }
  };

  const bulkAction = async (open: boolean) => {
    if (!rows.length) {
      toast.warning('请选择表具');
      return;
    }
    const meters = rows.filter((r) => keys.includes(r.id));
    if (open) await runBulk(meters, true);
    else setConfirmClose(meters);
  };

  const confirmOverride = async () => {
    if (!override) return;
    let reason: string;
    try {
      reason = (await reasonForm.validateFields()).reason.trim();
    } catch {
      return;
    }
    const meters = override.meters;
    setOverride(null);
    reasonForm.resetFields();
    if (override.bulkClose) {
      // refused by a bulk close: forced as a bulk close again (a task), with the password of the first
      await runBulkClose(meters, reason, override.password ?? '');
    } else if (meters.length === 1 && !bulk) {
      // the forced close goes with the password the first try was sent with (the server asks it again)
      const o = await sendValve(meters[0], false, memo.trim() || `强制${valveWord(meters[0].kind, false)}`, company, reason, override.password);
      report(o, meters[0], false, override.password);
    } else {
      await runBulk(meters, false, reason, bulk?.password ?? '');
    }
  };

  const refused = bulk?.items.filter((i) => i.outcome && !i.outcome.ok && i.outcome.overridable).map((i) => i.meter) ?? [];
  const okCount = bulk?.items.filter((i) => i.outcome?.ok).length ?? 0;
  const failCount = bulk ? bulk.done - okCount : 0;

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <Card size="small">
        <Space wrap>
          <span>操作备注：</span>
          <Input
            value={memo}
            onChange={(e) => setMemo(e.target.value)}
            maxLength={200}
            allowClear
            style={{ width: 360 }}
            placeholder="选填，随指令记录在阀控记录中"
            aria-label="操作备注"
          />
          <Typography.Text type="secondary">单相表（相位为单相）拉闸/关阀前需输入阀控密码</Typography.Text>
        </Space>
      </Card>
      <ControlMeterTable
        headerTitle="远程阀控"
        actionRef={tableRef}
        busy={busyMeters}
        selection={selection}
        rowActions={(r) =>
          canValve && r.status === 1
            ? [
                <a key="open" onClick={() => void single(r, true)}>{valveWord(r.kind, true)}</a>,
                <a key="close" style={{ color: '#cf1322' }} onClick={() => void single(r, false)}>{valveWord(r.kind, false)}</a>,
              ]
            : []
        }
        toolBar={() =>
          canValve
            ? [
                <Button key="open" icon={<ThunderboltOutlined />} onClick={() => void bulkAction(true)}>
                  批量合闸/开阀{keys.length ? `（${keys.length}）` : ''}
                </Button>,
                <Button key="close" danger icon={<PoweroffOutlined />} onClick={() => void bulkAction(false)}>
                  批量拉闸/关阀{keys.length ? `（${keys.length}）` : ''}
                </Button>,
              ]
            : []
        }
      />
      {commands.length > 0 && (
        <Card size="small" title="本次阀控指令">
          <List
            size="small"
            dataSource={commands.slice(0, 20)}
            renderItem={(c) => (
              <List.Item key={c.id} data-testid={`valve-result-${c.meterId}`}>
                <Space wrap>
                  <Typography.Text strong>{c.meterName || c.address}</Typography.Text>
                  <span>{c.kindText}</span>
                  <CommandTag status={c.status} text={c.statusText} />
                  <Typography.Text type={c.status === 'succeeded' ? undefined : 'secondary'}>
                    {c.status === 'succeeded' ? String(c.reply?.text ?? '') : c.error}
                  </Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        </Card>
      )}
      {closeTask && (
        <BulkCloseProgress
          state={closeTask}
          onForce={(refused) => setOverride({ meters: refused, message: `${refused.length} 块表具处于保电/保水或不断电时段，未执行`, password: closeTask.password, bulkClose: true })}
          onClose={() => setCloseTask(null)}
        />
      )}
      {dialog}
      {confirmClose && (
        <BulkCloseConfirm
          meters={confirmClose}
          company={company}
          onCancel={() => {
            setConfirmClose(null);
            toast.info('已取消，未下发指令');
          }}
          onConfirm={(password) => {
            const meters = confirmClose;
            setConfirmClose(null);
            void runBulkClose(meters, '', password ?? '');
          }}
        />
      )}
      <FormDialog
        open={!!override}
        title="强制操作"
        okText="强制执行"
        okButtonProps={{ danger: true }}
        onOk={() => void confirmOverride()}
        onCancel={() => {
          setOverride(null);
          reasonForm.resetFields();
        }}
      >
        <Alert type="warning" showIcon message={override?.message} style={{ marginBottom: 12 }} />
        {override && override.meters.length > 1 && <p>共 {override.meters.length} 块表具将被强制执行拉闸/关阀。</p>}
        <Form form={reasonForm} layout="vertical" name="valve-override">
          <Form.Item label="强制操作原因" name="reason" rules={[{ required: true, whitespace: true, message: '请填写强制操作原因' }]}>
            <Input.TextArea rows={3} maxLength={200} showCount placeholder="例如：业主申请停电检修" />
          </Form.Item>
        </Form>
      </FormDialog>
      <Modal
        open={!!bulk}
        title={bulk ? `批量${bulk.open ? '合闸/开阀' : '拉闸/关阀'}` : ''}
        onCancel={() => !bulk?.running && setBulk(null)}
        closable={!bulk?.running}
        maskClosable={false}
        width={640}
        footer={[
          refused.length > 0 && !bulk?.running && (
            <Button key="force" danger onClick={() => setOverride({ meters: refused, message: `${refused.length} 块表具处于保电/保水或不断电时段，未执行` })}>
              强制执行被拒绝的 {refused.length} 块
            </Button>
          ),
          <Button key="close" type="primary" disabled={bulk?.running} onClick={() => setBulk(null)}>
            {bulk?.running ? '执行中…' : '关闭'}
          </Button>,
        ].filter(Boolean)}
      >
        {bulk && (
          <>
            <Progress percent={Math.round((bulk.done / Math.max(1, bulk.items.length)) * 100)} status={bulk.running ? 'active' : failCount ? 'exception' : 'success'} />
            <p>
              共 {bulk.items.length} 块，已处理 {bulk.done} 块：成功或已下发 {okCount} 块，未执行 {failCount} 块
            </p>
            <List
              size="small"
              style={{ maxHeight: 320, overflow: 'auto' }}
              dataSource={bulk.items}
              renderItem={(i) => (
                <List.Item key={i.meter.id}>
                  <Space wrap>
                    <Typography.Text strong>{i.meter.name || i.meter.address}</Typography.Text>
                    {!i.outcome ? (
                      <Typography.Text type="secondary">等待中</Typography.Text>
                    ) : i.outcome.ok ? (
                      <CommandTag status={i.outcome.command.status} text={i.outcome.command.statusText} />
                    ) : (
                      <Typography.Text type="danger">{i.outcome.message}</Typography.Text>
                    )}
                  </Space>
                </List.Item>
              )}
            />
          </>
        )}
      </Modal>
    </Space>
  );
}

/** A bulk close's task on the page: done/total from the task (as /task shows it), and what was not queued */
function BulkCloseProgress({ state, onForce, onClose }: {
  state: { result: BulkCloseResultData; meters: MeterRow[]; task?: ReadTask };
  onForce(refused: MeterRow[]): void;
  onClose(): void;
}) {
  const { result, task } = state;
  const total = task?.total ?? result.queued;
  const done = task ? task.succeeded + task.failed : 0;
  const running = result.taskId !== null && task?.status !== 'done';
  const refused = result.refused.filter((r) => r.overridable);
  const refusedMeters = state.meters.filter((m) => refused.some((r) => r.meterId === m.id));
  return (
    <Card
      size="small"
      data-testid="bulk-close-task"
      title={result.taskId !== null ? `批量拉闸/关阀任务（任务编号 ${result.taskId}）` : '批量拉闸/关阀'}
      extra={
        <Space>
          {refusedMeters.length > 0 && !running && (
            <Button size="small" danger onClick={() => onForce(refusedMeters)}>强制执行被拒绝的 {refusedMeters.length} 块</Button>
          )}
          <Button size="small" onClick={onClose}>{running ? '隐藏（任务继续执行）' : '关闭'}</Button>
        </Space>
      }
    >
      {result.taskId !== null && (
        <>
          <Progress
            percent={total ? Math.floor((done / total) * 100) : 100}
            success={{ percent: total && task ? Math.floor((task.succeeded / total) * 100) : 0 }}
            status={running ? 'active' : task?.failed ? 'exception' : 'success'}
          />
          <p data-testid="bulk-close-progress">
            已完成 {done}/{total} 块（回读确认成功 {task?.succeeded ?? 0} 块，失败 {task?.failed ?? 0} 块）{running ? '，执行中…' : '，已结束'}。进度也可在「任务列表」查看。
          </p>
        </>
      )}
      {result.joined > 0 && <p>{result.joined} 块表具已有相同指令正在执行，未重复下发。</p>}
      {result.refused.length > 0 && (
        <>
          <Typography.Text type="warning">未执行 {result.refused.length} 块：</Typography.Text>
          <List
            size="small"
            style={{ maxHeight: 200, overflow: 'auto' }}
            dataSource={result.refused.slice(0, 100)}
            renderItem={(r) => (
              <List.Item key={r.meterId}>
                <Typography.Text type="danger">{r.message}</Typography.Text>
              </List.Item>
            )}
          />
        </>
      )}
    </Card>
  );
}
