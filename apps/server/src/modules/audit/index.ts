// Public face of the audit module: other modules and the layers above import from here only (eslint boundaries).
export { default as auditRoutes } from './routes.ts';
