// Public face of the screen module (大屏可视化): import from here only.
export { default as screenRoutes } from './routes.ts';
