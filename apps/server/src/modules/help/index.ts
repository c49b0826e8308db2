// Public face of the help module (教学视频): other modules and the layers above import from here only (eslint boundaries).
export { default as helpRoutes } from './routes.ts';
