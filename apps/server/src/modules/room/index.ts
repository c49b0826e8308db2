// Public face of the room module: other modules and the layers above import from here only (eslint boundaries).
export { default as roomRoutes } from './routes.ts';
export { areaPathOf, isoTime, lockRoom } from './repo.ts';
export { DEMO_PARK, seedOtherCompanies, seedPark } from './seed.ts';
