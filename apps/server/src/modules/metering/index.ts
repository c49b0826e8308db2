// Public face of the metering module: other modules and the layers above import from here only (eslint boundaries).
export { default as meteringRoutes } from './routes.ts';
export { addTimedControls } from './timed.ts';
