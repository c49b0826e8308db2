// Public face of the report module: other modules and the layers above import from here only (eslint boundaries).
export { default as reportRoutes } from './routes.ts';
export { keyset, pickColumns, streamXlsx } from './xlsx.ts';
export { shownColumns } from './export-config.ts';
