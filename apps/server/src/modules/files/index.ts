// Public face of the files module (uploads): other modules and the layers above import from here only (eslint boundaries).
export { default as fileRoutes } from './routes.ts';
export { assertFiles, assertRoomPhotos, ownerToken, serve as serveFile, storeSpooled } from './service.ts';
export { filesFromConfig, localFiles, type FileSetup } from './setup.ts';
export { mayRead, type Viewer } from './access.ts';
