// Public face of the payapp module: other modules and the layers above import from here only (eslint boundaries).
export { default as payAppRoutes } from './routes.ts';
export { runPayAppJobs } from './service.ts';
export { simulatedProvider, type PayAppProvider } from './provider.ts';
export { seedPayAppDemo } from './seed.ts';
