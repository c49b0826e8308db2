// Public face of the control module: other modules and the layers above import from here only (eslint boundaries).
export { default as controlRoutes } from './routes.ts';
export { recordUnrunCommand, requestCommands, requestSystemCommand, type ControlApi } from './service.ts';
export { afterFailure, COMMAND_KINDS, COMMAND_STATUS, ORIGIN, noCloseReason, protocolOf, routeOf, type CommandStatus, type NoCloseRule, type Route } from './rules.ts';
export { centsText, HeldReading, hundredths, ingestReadings, raiseWarnings, SOURCE, type IngestItem } from './ingest.ts';
export { execute, type ControlSettings, type Outcome } from './executor.ts';
export { clearWarnings, clearOfflineWarnings } from './work-orders.ts';
export { READ_FAIL_WARN_AFTER, readsEnded } from './read-fails.ts';
// The commands/readings store, for the device side (gateway, worker) and metering.
export * as controlRepo from './repo/index.ts';
