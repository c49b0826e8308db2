// The notice popup of SPEC §4: step 1 shows loading text; step 2 shows the result, which closes itself
// after a 3-second countdown unless auto-close is off (/headSet).
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Modal, Result, Spin } from 'antd';
import { useSettings } from '../app/settings.ts';

export const NOTICE_AUTO_CLOSE_SECONDS = 3;

export interface NoticeState {
  open: boolean;
  step: 1 | 2;
  loadingText: string;
  ok?: boolean;
  text?: string;
}

export const CLOSED_NOTICE: NoticeState = { open: false, step: 1, loadingText: '' };

export interface NoticePopupProps {
  state: NoticeState;
  autoClose: boolean;
  seconds?: number;
  title?: string;
  onClose(): void;
}

export function NoticePopup({ state, autoClose, seconds = NOTICE_AUTO_CLOSE_SECONDS, title = '提示', onClose }: NoticePopupProps) {
  const [left, setLeft] = useState(seconds);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;
  const counting = state.open && state.step === 2 && autoClose;

  useEffect(() => {
    if (!counting) return;
    setLeft(seconds);
    let remaining = seconds;
    const timer = setInterval(() => {
      remaining -= 1;
      setLeft(remaining);
      if (remaining <= 0) {
        clearInterval(timer);
        onCloseRef.current();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [counting, seconds, state.text]);

  let body: ReactNode;
  if (state.step === 1) {
    body = (
      <div className="notice-loading" role="status">
        <Spin />
        <div style={{ marginTop: 12 }}>{state.loadingText}</div>
      </div>
    );
  } else {
    body = (
      <Result
        status={state.ok ? 'success' : 'error'}
        title={state.text}
        subTitle={autoClose ? <span data-testid="notice-countdown">{left} 秒后自动关闭</span> : undefined}
        style={{ padding: '16px 0' }}
      />
    );
  }
  return (
    <Modal
      open={state.open}
      title={title}
      closable={state.step === 2}
      maskClosable={false}
      onCancel={onClose}
      destroyOnHidden
      footer={state.step === 2 ? <Button type="primary" onClick={onClose}>关闭</Button> : null}
    >
      {body}
    </Modal>
  );
}

/**
 * useNotice(): `run(loadingText, task)` opens the popup at step 1, awaits the task, then shows its
 * result (the string it resolves with, or the error's message) at step 2. Render `holder` once.
 */
export function useNotice() {
  const { noticeAutoClose } = useSettings();
  const [state, setState] = useState<NoticeState>(CLOSED_NOTICE);
  const close = useCallback(() => setState((s) => ({ ...s, open: false })), []);
  const run = useCallback(async <T,>(loadingText: string, task: () => Promise<T>, successText?: (r: T) => string): Promise<T> => {
    setState({ open: true, step: 1, loadingText });
    try {
      const r = await task();
      setState({ open: true, step: 2, loadingText, ok: true, text: successText ? successText(r) : typeof r === 'string' ? r : '操作成功' });
      return r;
    } catch (e) {
      setState({ open: true, step: 2, loadingText, ok: false, text: (e as Error)?.message || '操作失败' });
      throw e;
    }
  }, []);
  const holder = <NoticePopup state={state} autoClose={noticeAutoClose} onClose={close} />;
  return { run, close, holder, state };
}
