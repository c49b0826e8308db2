// Public face of the admin module: other modules and the layers above import from here only (eslint boundaries).
export { default as adminRoutes } from './routes.ts';
export { ensurePlatformAdmin } from './service.ts';
