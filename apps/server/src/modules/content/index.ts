// Public face of the content module (增值服务: type dictionaries and appeals): import from here only.
export { default as contentRoutes } from './routes.ts';
export { seedContent } from './seed.ts';
