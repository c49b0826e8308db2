// 随机抄表 (/casualCopy): pick meters beside the area tree and read them now. Up to 20 are read at
// once and watched until each command ends (the new reading appears in its row); a larger selection
// becomes a read task (/task). Reading needs the operation device.readEnergy.
import { useRef, useState } from 'react';
import { Button, Card, Empty, List, Space, Typography } from 'antd';
import { SyncOutlined } from '@ant-design/icons';
import type { ActionType } from '@ant-design/pro-components';
import { useNavigate } from 'react-router';
import { toast } from '../../app/feedback.tsx';
import { useCan } from '../../app/session.ts';
import { controlApi, type Command } from './api.ts';
import { CommandTag, ControlMeterTable, isFinal, timeText, useCommandWatch, useCompany, useMeterSelection } from './shared.tsx';

/** The reading a finished read command brought back, as text. */
export function readingText(c: Command): string {
  const reply = c.reply ?? {};
  const total = reply.total ?? (reply.facts as { total?: unknown } | undefined)?.total;
  if (c.status === 'succeeded') return total != null ? `读数 ${String(total)}` : '抄表成功';
  if (isFinal(c.status)) return c.error || c.statusText;
  return c.statusText;
}

export default function CasualCopy() {
  const company = useCompany();
  const canRead = useCan('device.readEnergy');
  const navigate = useNavigate();
  const tableRef = useRef<ActionType | undefined>(undefined);
  const selection = useMeterSelection();
  const { keys, rows } = selection;
  const [sending, setSending] = useState(false);
  const { commands, watch, clear, busyMeters } = useCommandWatch(company, () => void tableRef.current?.reload());

  const read = async (ids: number[]) => {
    if (!ids.length) {
      toast.warning('请选择要抄读的表具');
      return;
    }
    setSending(true);
    try {
      const r = await controlApi.read(ids, company);
      if (r.taskId) {
        toast.success(`已创建抄表任务（${r.queued} 块表具），可在任务列表查看进度`);
        return;
      }
      watch(r.commands);
      const done = r.commands.filter((c) => c.status === 'succeeded').length;
      const pending = r.commands.filter((c) => !isFinal(c.status)).length;
      if (pending) toast.info(`已下发 ${r.commands.length} 块表具的抄表指令，${pending} 块等待设备响应`);
      else if (done === r.commands.length) toast.success(`抄表成功 ${done} 块`);
      else toast.warning(`抄表完成：成功 ${done} 块，失败 ${r.commands.length - done} 块`);
      tableRef.current?.reload();
    } catch {
      // the request wrapper showed why
    } finally {
      setSending(false);
    }
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} size={12}>
      <ControlMeterTable
        headerTitle="随机抄表"
        actionRef={tableRef}
        busy={busyMeters}
        selection={selection}
        rowActions={(r) =>
          canRead
            ? [
                <a key="read" onClick={() => void read([r.id])} aria-disabled={busyMeters.has(r.id)}>
                  {busyMeters.has(r.id) ? '抄读中…' : '抄表'}
                </a>,
              ]
            : []
        }
        toolBar={() =>
          canRead
            ? [
                <Button key="read" type="primary" icon={<SyncOutlined />} loading={sending} onClick={() => void read(keys)}>
                  抄读选中表具{keys.length ? `（${keys.length}）` : ''}
                </Button>,
                <Button key="task" onClick={() => navigate('/task')}>抄表任务</Button>,
              ]
            : []
        }
      />
      <Card
        size="small"
        title="本次抄表结果"
        extra={commands.length ? <a onClick={clear}>清除已完成</a> : null}
      >
        {commands.length ? (
          <List
            size="small"
            dataSource={commands}
            renderItem={(c) => (
              <List.Item key={c.id} data-testid={`read-result-${c.meterId}`}>
                <Space wrap>
                  <Typography.Text strong>{c.meterName || c.address}</Typography.Text>
                  <Typography.Text type="secondary">{c.address}</Typography.Text>
                  <CommandTag status={c.status} text={c.statusText} />
                  <span>{readingText(c)}</span>
                  <Typography.Text type="secondary">{timeText(c.finishedAt ?? c.createdAt)}</Typography.Text>
                </Space>
              </List.Item>
            )}
          />
        ) : (
          <Empty description={rows.length ? '点击「抄读选中表具」开始抄表' : '请在上方勾选表具后抄读，或点击行内「抄表」'} />
        )}
      </Card>
    </Space>
  );
}
