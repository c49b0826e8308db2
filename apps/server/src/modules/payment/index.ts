// Public face of the payment module: other modules and the layers above import from here only (eslint boundaries).
export { default as paymentRoutes } from './routes.ts';
export { signText, verifyText } from './provider.ts';
export { recoverOrder, recoverPayments } from './recover.ts';
export { recoverRefunds } from './refund.ts';
export type { StatementRow } from './providers/bills.ts';
export { CHANNEL_TEXT, SIMULATED, createPayment, orderOf, payAsSimulated, type Payments } from './service.ts';
export { paymentsFromConfig, type PaySettings } from './setup.ts';
