// Public face of the reconcile module (支付平台对账): other modules and the layers above import from here only (eslint boundaries).
export { default as reconcileRoutes } from './routes.ts';
export { reconcileYesterday } from './service.ts';
