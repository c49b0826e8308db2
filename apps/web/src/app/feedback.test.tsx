import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { act, render, waitFor } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import { clearToasts, toast } from './feedback.tsx';
import { Providers } from './Root.tsx';

// The same message twice (a double click) shows one toast, not a stack of copies; clearToasts()
// removes what is on screen.
const notices = (text: string) =>
  [...document.querySelectorAll('.ant-message-notice-wrapper')].filter((n) => !/-leave/.test(n.className) && n.textContent?.includes(text));

beforeEach(() => {
  render(<Providers client={new QueryClient()}><div /></Providers>);
});
afterEach(() => act(() => clearToasts()));

describe('toasts', () => {
  it('one toast per text', async () => {
    act(() => {
      toast.warning('表单验证失败!');
      toast.warning('表单验证失败!');
      toast.error('请勿重复操作');
    });
    await waitFor(() => expect(notices('请勿重复操作')).toHaveLength(1));
    expect(notices('表单验证失败!')).toHaveLength(1);
  });

  it('clearToasts removes them', async () => {
    act(() => toast.error('用户名或密码错误'));
    await waitFor(() => expect(notices('用户名或密码错误')).toHaveLength(1));
    act(() => clearToasts());
    await waitFor(() => expect(notices('用户名或密码错误')).toHaveLength(0));
  });
});
