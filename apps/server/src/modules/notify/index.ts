// Public face of the notify module: other modules and the layers above import from here only (eslint boundaries).
export { default as notifyRoutes } from './routes.ts';
export { queue as queueNotification, sendQueued, collectReceipts, LOGIN_CODE_LEVEL, type NewNotification, type ProviderFor } from './service.ts';
export { logProvider, type NotifyProvider } from './provider.ts';
export { smsFromConfig, providersFrom, startSmsEmulators, emulatorSetup, type SmsSetup, type SmsEmulators } from './sms/setup.ts';
export { noticeRules, ruleFor, channelsOf, ruleText, NOTICE_EVENT, type NoticeRules } from './rules-service.ts';
export { queueNoticeSms } from './bulk-service.ts';
