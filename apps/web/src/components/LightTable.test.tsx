import { describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useRef } from 'react';
import type { ProColumns } from '@ant-design/pro-components';
import { Providers } from '../app/Root.tsx';
import { LightTable, lightColumns, type TableAction, type TableRequest } from './LightTable.tsx';

configure({ asyncUtilTimeout: 8000 });

type Row = { id: number; name: string; kind: number; createdAt: string; total: number; secret: string } & Record<string, unknown>;

const columns: ProColumns<Row>[] = [
  { title: '名称', dataIndex: 'name', search: { transform: (v: unknown) => ({ keywordName: String(v).trim() }) }, copyable: true },
  { title: '类型', dataIndex: 'kind', valueType: 'select', valueEnum: { 1: { text: '电表', status: 'Success' }, 2: '水表' }, search: true, initialValue: '1' },
  { title: '创建时间', dataIndex: 'createdAt', valueType: 'dateTime' },
  { title: '读数', dataIndex: 'total', valueType: 'digit', fieldProps: { precision: 2 }, tooltip: '最新一次抄表' },
  { title: '备注', dataIndex: 'note' },
  { title: '隐藏', dataIndex: 'secret', hideInTable: true },
];

const rows: Row[] = [{ id: 1, name: '1号表', kind: 1, createdAt: '2026-11-20T02:03:04Z', total: 1234.5, secret: 'x' }];

function Harness({ request }: { request: TableRequest }) {
  const ref = useRef<TableAction | undefined>(undefined);
  return (
    <Providers>
      <LightTable<Row> rowKey="id" headerTitle="表具列表" columns={columns} params={{ searchArea: '7' }} request={request} toolBar={[]} actionRef={ref} pageSize={10} searchForm="search" />
      <button onClick={() => void ref.current?.reload()}>外部刷新</button>
    </Providers>
  );
}

describe('lightColumns', () => {
  it('takes plain values, enums, dates and numbers; leaves remote options, custom search fields, filters and switches to ProTable', () => {
    expect(lightColumns(columns)).toBe(true);
    expect(lightColumns<Row>([{ title: '方案', dataIndex: 'plan', valueType: 'select', request: async () => [] }])).toBe(false);
    expect(lightColumns<Row>([{ title: '时间', dataIndex: 't', valueType: 'dateTimeRange', search: true }])).toBe(false);
    expect(lightColumns<Row>([{ title: '时间', dataIndex: 't', valueType: 'dateTime', search: true }])).toBe(false);
    expect(lightColumns<Row>([{ title: '名称', dataIndex: 'n', search: true, renderFormItem: () => null }])).toBe(false);
    expect(lightColumns<Row>([{ title: '类型', dataIndex: 'k', filters: true, valueEnum: { 1: 'a' } }])).toBe(false);
    expect(lightColumns<Row>([{ title: '金额', dataIndex: 'm', valueType: 'money' }])).toBe(false);
    expect(lightColumns<Row>([{ title: '启用', dataIndex: 's', valueType: 'switch' }])).toBe(false);
    expect(lightColumns<Row>([{ title: '类型', dataIndex: 'k', valueType: 'select', search: true }])).toBe(false);
  });
});

describe('LightTable', { timeout: 60_000 }, () => {
  it('renders cells as ProField does, asks with the params and the search form, and reloads on demand', async () => {
    const request = vi.fn<TableRequest>(async () => ({ data: rows, total: 11, success: true }));
    render(<Harness request={request} />);
    await screen.findByText('1号表');
    // the first request: params, the search form's initial value, page 1
    expect(request.mock.calls[0][0]).toEqual({ searchArea: '7', kind: '1', current: 1, pageSize: 10 });
    const row = document.querySelector('.ant-table-row') as HTMLElement;
    const cells = within(row);
    expect(cells.getByText('电表')).toBeTruthy();
    expect(row.querySelector('.ant-badge-status-success')).toBeTruthy();
    expect(cells.getByText(/^2026-11-20 \d\d:03:04$/)).toBeTruthy();
    expect(cells.getByText('1,234.50')).toBeTruthy();
    expect(cells.getByText('-')).toBeTruthy(); // an empty value
    expect(screen.queryByText('x')).toBeNull(); // hideInTable
    expect(screen.getByText('第 1-10 条/总共 11 条')).toBeTruthy();

    // search: the transform names the query field; empty fields stay out
    fireEvent.change(screen.getByLabelText('名称'), { target: { value: ' 2号 ' } });
    fireEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(2));
    expect(request.mock.calls[1][0]).toEqual({ searchArea: '7', keywordName: '2号', kind: '1', current: 1, pageSize: 10 });

    // reset: back to the initial values
    fireEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(3));
    expect(request.mock.calls[2][0]).toEqual({ searchArea: '7', kind: '1', current: 1, pageSize: 10 });

    // the page's actionRef and the toolbar's reload ask the same page again
    fireEvent.click(screen.getByText('外部刷新'));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(4));
    fireEvent.click(screen.getByLabelText('刷新'));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(5));
    expect(request.mock.calls[4][0]).toEqual(request.mock.calls[2][0]);

    // page 2
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(request).toHaveBeenCalledTimes(6));
    expect(request.mock.calls[5][0]).toMatchObject({ current: 2, pageSize: 10 });
  });

  it('the column setting hides and restores a column', async () => {
    const request = vi.fn<TableRequest>(async () => ({ data: rows, total: 1, success: true }));
    render(<Harness request={request} />);
    await screen.findByText('1号表');
    const headers = () => [...document.querySelectorAll('thead th')].map((th) => th.textContent);
    expect(headers()).toContain('创建时间');
    fireEvent.click(screen.getByLabelText('列设置'));
    const box = await waitFor(() => {
      const label = [...document.querySelectorAll('.ant-popover .ant-checkbox-wrapper')].find((l) => l.textContent === '创建时间');
      expect(label).toBeTruthy();
      return label!.querySelector('input')!;
    });
    fireEvent.click(box);
    await waitFor(() => expect(headers()).not.toContain('创建时间'));
    fireEvent.click(screen.getByText('重置'));
    await waitFor(() => expect(headers()).toContain('创建时间'));
  });
});
