import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { NoticePopup, useNotice, type NoticeState } from './NoticePopup.tsx';
import { updateSettings } from '../app/settings.ts';

const result: NoticeState = { open: true, step: 2, loadingText: '正在抄表，请稍候…', ok: true, text: '抄表成功' };

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  updateSettings({ noticeAutoClose: true });
});

describe('notice popup', () => {
  it('step 1 shows the loading text and no countdown', () => {
    const onClose = vi.fn();
    render(<NoticePopup state={{ open: true, step: 1, loadingText: '正在抄表，请稍候…' }} autoClose onClose={onClose} />);
    expect(screen.getByText('正在抄表，请稍候…')).toBeTruthy();
    expect(screen.queryByTestId('notice-countdown')).toBeNull();
    act(() => void vi.advanceTimersByTime(10_000));
    expect(onClose).not.toHaveBeenCalled();
  });

  it('step 2 counts down 3 s and closes itself', () => {
    const onClose = vi.fn();
    render(<NoticePopup state={result} autoClose onClose={onClose} />);
    expect(screen.getByText('抄表成功')).toBeTruthy();
    expect(screen.getByTestId('notice-countdown').textContent).toBe('3 秒后自动关闭');
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('notice-countdown').textContent).toBe('2 秒后自动关闭');
    act(() => void vi.advanceTimersByTime(1000));
    expect(screen.getByTestId('notice-countdown').textContent).toBe('1 秒后自动关闭');
    expect(onClose).not.toHaveBeenCalled();
    act(() => void vi.advanceTimersByTime(1000));
    expect(onClose).toHaveBeenCalledTimes(1);
    act(() => void vi.advanceTimersByTime(5000));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('with auto-close off the result stays until closed by hand', () => {
    const onClose = vi.fn();
    render(<NoticePopup state={result} autoClose={false} onClose={onClose} />);
    expect(screen.queryByTestId('notice-countdown')).toBeNull();
    act(() => void vi.advanceTimersByTime(10_000));
    expect(onClose).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: /关\s*闭/ }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('useNotice runs a task: loading text, then the result, then auto-close', async () => {
    let finish!: (v: string) => void;
    function Harness() {
      const notice = useNotice();
      return (
        <>
          <button onClick={() => void notice.run('正在下发，请稍候…', () => new Promise<string>((r) => (finish = r)))}>go</button>
          <span data-testid="open">{String(notice.state.open)}</span>
          {notice.holder}
        </>
      );
    }
    render(<Harness />);
    fireEvent.click(screen.getByText('go'));
    expect(screen.getByText('正在下发，请稍候…')).toBeTruthy();
    await act(async () => finish('下发成功'));
    expect(screen.getByText('下发成功')).toBeTruthy();
    expect(screen.getByTestId('notice-countdown').textContent).toBe('3 秒后自动关闭');
    act(() => void vi.advanceTimersByTime(3000));
    expect(screen.getByTestId('open').textContent).toBe('false');
  });

  it('useNotice follows the auto-close setting', async () => {
    updateSettings({ noticeAutoClose: false });
    function Harness() {
      const notice = useNotice();
      return (
        <>
          <button onClick={() => void notice.run('处理中', async () => { throw new Error('设备离线'); }).catch(() => {})}>go</button>
          <span data-testid="open">{String(notice.state.open)}</span>
          {notice.holder}
        </>
      );
    }
    render(<Harness />);
    await act(async () => fireEvent.click(screen.getByText('go')));
    expect(screen.getByText('设备离线')).toBeTruthy();
    act(() => void vi.advanceTimersByTime(10_000));
    expect(screen.getByTestId('open').textContent).toBe('true');
  });
});
