// Public face of the device module: other modules and the layers above import from here only (eslint boundaries).
export { default as deviceRoutes } from './routes.ts';
export { FLEETS, seedDevices } from './seed.ts';
export { collectorPlanRefusal, meterPlanInvalid, meterPlanRefusal } from './plans.ts';
export { companyPlans } from './repo.ts';
