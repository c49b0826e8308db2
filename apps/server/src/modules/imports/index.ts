// Public face of the import module: other modules and the layers above import from here only (eslint boundaries).
export { default as importRoutes } from './routes.ts';
