// Public face of the company module: other modules and the layers above import from here only (eslint boundaries).
export { default as companyRoutes } from './routes.ts';
export { seedCompanyArchive } from './seed.ts';
export * as valvePassword from './valve-password.ts';
export { configOf } from './config.ts';
