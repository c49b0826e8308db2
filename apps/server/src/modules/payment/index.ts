// Public face of the payment module: other modules and the layers above import from here only (eslint boundaries).
export { default as paymentRoutes } from './routes.ts';
export { signText, verifyText } from './provider.ts';
