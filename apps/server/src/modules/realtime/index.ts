// Public face of the realtime module: other modules and the layers above import from here only (eslint boundaries).
export { default as realtimeRoutes, onSocketError, type OwnerSocketAuth } from './routes.ts';
export { EventBus, type DeviceEvent } from './bus.ts';
