// Public face of the finance module (日结/交班, 作废/冲正): other modules and the layers above import from here only (eslint boundaries).
export { default as financeRoutes } from './routes.ts';
