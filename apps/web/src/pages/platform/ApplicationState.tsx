// An application's state (二级商户申请, 汇付用户申请): a tag in the state's colour and, when it was
// rejected, the reason beside it.
import type { ReactNode } from 'react';
import { Tag, Typography } from 'antd';

export function ApplicationState({ row, color, text, testId }: {
  row: { status: string; reason?: string | null };
  color: string | undefined;
  text: ReactNode;
  testId?: string;
}) {
  return (
    <span>
      <Tag color={color ?? 'default'} data-testid={testId}>{text}</Tag>
      {row.status === 'rejected' && row.reason ? <Typography.Text type="danger">{row.reason}</Typography.Text> : null}
    </span>
  );
}
