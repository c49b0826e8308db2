export * from './api.ts';
export * from './routes.ts';
export * from './permissions.ts';
export * from './plans.ts';
export * from './money.ts';
export * from './resource.ts';
export * from './resources/index.ts';
export * from './rows.ts';
