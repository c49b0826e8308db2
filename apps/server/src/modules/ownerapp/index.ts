// Public face of the owner app module (业主端 H5): other modules and the layers above import from here only.
export { default as ownerAppRoutes, type OwnerAppSetup } from './routes.ts';
export { authenticateOwner, isUnauthorized } from './auth.ts';
export { liveScope } from './service.ts';
