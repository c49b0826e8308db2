// Public face of the owner module: other modules and the layers above import from here only (eslint boundaries).
export { default as ownerRoutes } from './routes.ts';
export { insertHistory, endOwnerSessions, setOwnerPassword } from './repo.ts';
