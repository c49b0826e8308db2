// Columns of journal rows (every money movement): 缴费记录, 财务对账, 交易统计, 扣费明细.
import { Tag, Tooltip } from 'antd';
import type { ResourceColumn } from '../../components/ResourceTable.tsx';
import { KIND_TEXT, PAY_METHOD_TEXT, WALLET_TEXT, type JournalRow } from './billingApi.ts';
import { moneyColumn, rangeColumn, timeColumn } from './common.tsx';
import { fmtTime } from './money.ts';

export type JournalTableRow = JournalRow & Record<string, unknown>;

const KIND_COLORS: Record<string, string> = {
  prepay: 'green', refund: 'orange', subsidy: 'cyan', deduction: 'red', fee: 'magenta', reversal: 'purple', withdrawal: 'gold', opening: 'geekblue',
};

const enumOf = (m: Record<string, string>, keys?: string[]) =>
  Object.fromEntries((keys ?? Object.keys(m)).map((k) => [k, { text: m[k] }]));

export interface JournalColumnOptions {
  /** the kinds offered in the 类型 search (absent: no kind search) */
  kinds?: string[];
  /** show the audit columns and the 审核状态 search */
  audit?: boolean;
  /** deductions: the meter and its reading */
  reading?: boolean;
  /** wallets offered in the 账户 search */
  wallets?: string[];
}

export function journalColumns(o: JournalColumnOptions = {}): ResourceColumn<JournalTableRow>[] {
  const cols: ResourceColumn<JournalTableRow>[] = [
    timeColumn<JournalTableRow>('时间', 'createdAt'),
    { title: '房间', key: 'roomName', dataIndex: 'roomName', search: true, render: (_d, r) => r.roomName ?? '-' },
    { title: '业主', key: 'ownerName', dataIndex: 'ownerName', search: true, render: (_d, r) => r.ownerName ?? '-' },
    {
      title: '账户',
      key: 'wallet',
      dataIndex: 'wallet',
      search: true,
      valueType: 'select',
      valueEnum: enumOf(WALLET_TEXT, o.wallets),
      render: (_d, r) => r.walletText,
    },
    {
      title: '类型',
      key: 'kind',
      dataIndex: 'kind',
      search: o.kinds?.length ? true : false,
      valueType: 'select',
      valueEnum: o.kinds?.length ? enumOf(KIND_TEXT, o.kinds) : undefined,
      render: (_d, r) => <Tag color={KIND_COLORS[r.kind]}>{r.kindText}</Tag>,
    },
    moneyColumn<JournalTableRow>('金额', 'amount'),
    moneyColumn<JournalTableRow>('变动后余额', 'balanceAfter'),
  ];
  if (o.reading) {
    cols.push(
      { title: '表具', key: 'meterName', dataIndex: 'meterName', render: (_d, r) => r.meterName || r.address || '-' },
      { title: '读数', key: 'reading', dataIndex: 'reading', render: (_d, r) => (r.total != null ? `${r.prevTotal ?? '-'} → ${r.total}` : '-') },
      { title: '用量', key: 'quantity', dataIndex: 'quantity', render: (_d, r) => r.quantity ?? '-' },
      { title: '抄表时间', key: 'readAt', dataIndex: 'readAt', render: (_d, r) => fmtTime(r.readAt) || '-' },
      { title: '表具类型', key: 'meterKind', dataIndex: 'meterKind', hideInTable: true, search: true, valueType: 'select', valueEnum: { 1: { text: '电表' }, 2: { text: '水表' } } },
    );
  } else {
    cols.push({
      title: '支付方式',
      key: 'payMethod',
      dataIndex: 'payMethod',
      search: true,
      valueType: 'select',
      valueEnum: enumOf(PAY_METHOD_TEXT),
      render: (_d, r) => r.payMethodText,
    });
  }
  cols.push(
    { title: '操作人', key: 'operatorName', dataIndex: 'operatorName', render: (_d, r) => r.operatorName || '系统' },
    { title: '票据号', key: 'receiptNo', dataIndex: 'receiptNo', render: (_d, r) => r.receiptNo ?? '-' },
    { title: '备注', key: 'memo', dataIndex: 'memo', ellipsis: true },
  );
  if (o.audit) {
    cols.push({
      title: '审核状态',
      key: 'audited',
      dataIndex: 'audited',
      search: true,
      valueType: 'select',
      valueEnum: { 0: { text: '未审核' }, 1: { text: '已审核' } },
      render: (_d, r) =>
        r.audited ? (
          <Tooltip title={`${r.auditedBy ?? ''} ${fmtTime(r.auditedAt)}${r.auditMemo ? `：${r.auditMemo}` : ''}`}>
            <Tag color="success">已审核</Tag>
          </Tooltip>
        ) : (
          <Tag>未审核</Tag>
        ),
    });
  }
  cols.push(rangeColumn<JournalTableRow>());
  return cols;
}
