import { beforeEach, describe, expect, it } from 'vitest';
import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { resetInflight } from '../../api/request.ts';
import { mockServer, ok, renderPage, signIn, type Call } from '../../test/harness.tsx';
import AlermSmsConfigTemplate from './AlermSmsConfigTemplate.tsx';

// 短信模板 (/alermSmsConfigTemplate): the platform admin sees each template with its event, and a new
// one is sent with its event as a number and its content with {variables}.

configure({ asyncUtilTimeout: 8000 });


const TEMPLATE = { id: 3, name: '缴费到账通知', event: 4, content: '{owner}缴费¥{amount}', status: 1, memo: '', createdAt: '2026-11-26 10:00:00' };

function mockTemplates(calls: Call[]) {
  mockServer((c) => {
    if (c.path.endsWith('/alermSmsConfigTemplate/List')) return ok([TEMPLATE], 1);
    if (c.path.endsWith('/alermSmsConfigTemplate/Detail')) return ok({ id: 9 });
    return undefined;
  }, [], calls);
}

const session = () => signIn(['alermSmsConfigTemplate'], [], { access: 0 });

beforeEach(() => resetInflight());

describe('短信模板', { timeout: 120_000 }, () => {
  it('lists templates with their event and creates one', async () => {
    session();
    const calls: Call[] = [];
    mockTemplates(calls);
    renderPage('alermSmsConfigTemplate', <AlermSmsConfigTemplate />);
    expect(await screen.findByText('缴费到账通知')).toBeTruthy();
    expect(screen.getAllByText('缴费到账').length).toBeGreaterThan(0);
    expect(screen.getByText(/可用变量：\{company\} 单位名称/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /新增短信模板/ }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(dialog.querySelector('input[id$="_name"]')!, { target: { value: '恢复供电' } });
    fireEvent.mouseDown(dialog.querySelector('input[id$="_event"]')!);
    fireEvent.click(await screen.findByTitle('恢复供应'));
    fireEvent.change(dialog.querySelector('textarea[id$="_content"]')!, { target: { value: '{room}已恢复供电' } });
    fireEvent.click(screen.getByRole('button', { name: /保\s*存/ }));
    const posts = () => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/alermSmsConfigTemplate/Detail'));
    await waitFor(() => expect(posts()).toHaveLength(1));
    expect(posts()[0].body).toMatchObject({ name: '恢复供电', event: 3, content: '{room}已恢复供电', status: 1 });
  });
});
