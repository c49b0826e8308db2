// Public face of the area module: other modules and the layers above import from here only (eslint boundaries).
export { default as areaRoutes } from './routes.ts';
