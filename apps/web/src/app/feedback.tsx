// Bridges antd's context-aware message/modal/notification (App.useApp) to code outside React
// (the request wrapper). Falls back to the static API before the bridge mounts.
import { App, message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import type { Toast } from '../api/request.ts';

let messageApi: MessageInstance | null = null;
let modalApi: ModalHookAPI | null = null;

const current = (): Pick<MessageInstance, 'success' | 'warning' | 'error' | 'info' | 'destroy'> => messageApi ?? staticMessage;

// One toast per text: the same message shown again (a double click, two refusals of one cause)
// replaces the one on screen instead of stacking a copy under it.
const show = (type: 'success' | 'warning' | 'error' | 'info') => (text: string) => void current()[type]({ content: text, key: `${type}:${text}` });

export const toast: Toast & { info(text: string): void } = {
  success: show('success'),
  warning: show('warning'),
  error: show('error'),
  info: show('info'),
};

/** Close the toasts on screen (e.g. a refusal of the login form once the login succeeded). */
export function clearToasts(): void {
  current().destroy();
}

export function getModal(): ModalHookAPI | null {
  return modalApi;
}

export function FeedbackBridge() {
  const app = App.useApp();
  messageApi = app.message;
  modalApi = app.modal;
  return null;
}
