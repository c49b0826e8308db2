import { beforeEach, describe, expect, it, vi } from 'vitest';
import { configure, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { QueryClient } from '@tanstack/react-query';
import { Providers } from '../app/Root.tsx';
import { configureRequest, resetInflight } from '../api/request.ts';
import ImportDialog from './ImportDialog.tsx';

configure({ asyncUtilTimeout: 8000 });

type Call = { method: string; url: string; body: any };

const BAD = {
  kind: 'owner', fileName: '业主.xlsx', fileHash: 'h', columns: ['业主姓名', '手机号码'], total: 2, okCount: 1, errorCount: 1,
  errors: [{ row: 4, column: '手机号码', message: '手机号码须为 11 位手机号码' }],
  rows: [{ row: 3, values: { 业主姓名: '张三', 手机号码: '13800138000' }, ok: true }, { row: 4, values: { 业主姓名: '李四', 手机号码: '123' }, ok: false }],
  alreadyImported: null,
};
const GOOD = { ...BAD, okCount: 2, errorCount: 0, errors: [], rows: BAD.rows.map((r) => ({ ...r, ok: true })) };

function mockServer(calls: Call[], preview: unknown) {
  const ok = (data: unknown) => new Response(JSON.stringify({ code: 'SUCCESS', message: '', data }), { status: 200 });
  configureRequest({
    toast: { success: () => {}, error: () => {}, warning: () => {} },
    fetch: vi.fn<(input: string, init: RequestInit) => Promise<Response>>(async (input, init) => {
      const p = new URL(input, 'http://x').pathname;
      calls.push({ method: init.method ?? 'GET', url: input, body: init.body ? JSON.parse(String(init.body)) : undefined });
      if (p.endsWith('/import/log')) {
        const data = [{ id: 9, kind: 'owner', kindName: '业主', fileName: '上次的业主.xlsx', fileHash: 'x', rows: 12, operatorName: '演示管理员', createdAt: '2026-01-02T03:04:05.000Z' }];
        return new Response(JSON.stringify({ code: 'SUCCESS', message: '', data, count: 1 }), { status: 200 });
      }
      if (p.endsWith('/owner/preview')) return ok(preview);
      if (p.endsWith('/owner/commit')) return ok({ batchId: 1, imported: 2, duplicate: false, message: '已导入业主 2 行' });
      return ok(null);
    }),
  });
}

beforeEach(() => resetInflight());

function open(onDone = vi.fn()) {
  render(
    <Providers client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <ImportDialog kind="owner" open onClose={() => {}} onDone={onDone} />
      </MemoryRouter>
    </Providers>,
  );
  return onDone;
}

async function upload() {
  const dialog = await screen.findByRole('dialog');
  const input = dialog.querySelector('input[type=file]') as HTMLInputElement;
  const file = new File([new Uint8Array([80, 75, 3, 4])], '业主.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
  fireEvent.change(input, { target: { files: [file] } });
  return dialog;
}

describe('ImportDialog', { timeout: 60_000 }, () => {
  it('uploads the file base64-encoded and lists every row error; 确认导入 stays disabled', async () => {
    const calls: Call[] = [];
    mockServer(calls, BAD);
    open();
    const first = await screen.findByRole('dialog');
    // the kind's last imports are listed before a file is chosen
    await within(first).findByText('上次的业主.xlsx');
    expect(calls.find((c) => c.url.includes('/import/log'))!.url).toMatch(/kind=owner/);
    const dialog = await upload();
    expect(within(dialog).getByText('导入业主')).toBeTruthy();
    await within(dialog).findByText('手机号码须为 11 位手机号码');
    const sent = calls.find((c) => c.url.includes('/owner/preview'))!;
    expect(sent.method).toBe('POST');
    expect(sent.body).toEqual({ fileName: '业主.xlsx', content: 'UEsDBA==' });
    expect(within(dialog).getAllByText('第 4 行').length).toBeGreaterThan(0);
    expect(within(dialog).getByText(/有 1 处错误/)).toBeTruthy();
    const commit = within(dialog).getByRole('button', { name: '确认导入' });
    expect((commit as HTMLButtonElement).disabled).toBe(true);
  });

  it('a clean preview imports on 确认导入 and shows the result', async () => {
    const calls: Call[] = [];
    mockServer(calls, GOOD);
    const onDone = open();
    const dialog = await upload();
    await within(dialog).findByText('全部校验通过，点击「确认导入」写入');
    fireEvent.click(within(dialog).getByRole('button', { name: '确认导入' }));
    await within(dialog).findByText('导入成功：2 行');
    const sent = calls.find((c) => c.url.includes('/owner/commit'))!;
    expect(sent.body.content).toBe('UEsDBA==');
    await waitFor(() => expect(onDone).toHaveBeenCalled());
  });
});
