// Public face of the scheme module: other modules and the layers above import from here only (eslint boundaries).
export { default as schemeRoutes } from './routes.ts';
export { seedSchemes } from './seed.ts';
