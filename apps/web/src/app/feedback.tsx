// Bridges antd's context-aware message/modal/notification (App.useApp) to code outside React
// (the request wrapper). Falls back to the static API before the bridge mounts.
import { App, message as staticMessage } from 'antd';
import type { MessageInstance } from 'antd/es/message/interface';
import type { HookAPI as ModalHookAPI } from 'antd/es/modal/useModal';
import type { Toast } from '../api/request.ts';

let messageApi: MessageInstance | null = null;
let modalApi: ModalHookAPI | null = null;

const current = (): Pick<MessageInstance, 'success' | 'warning' | 'error' | 'info'> => messageApi ?? staticMessage;

export const toast: Toast & { info(text: string): void } = {
  success: (text) => void current().success(text),
  warning: (text) => void current().warning(text),
  error: (text) => void current().error(text),
  info: (text) => void current().info(text),
};

export function getModal(): ModalHookAPI | null {
  return modalApi;
}

export function FeedbackBridge() {
  const app = App.useApp();
  messageApi = app.message;
  modalApi = app.modal;
  return null;
}
