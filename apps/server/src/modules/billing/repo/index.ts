// The billing module's SQL, by concern. Every function runs inside the caller's transaction.
export * from './ledger.ts';
export * from './settlement.ts';
export * from './accounts.ts';
export * from './views.ts';
export { compactJournalDeltas, compactRollups, compactUsageDeltas } from './rollups.ts';
export * from './subsidies.ts';
export * from './periodic.ts';
export * from './seed.ts';
export { arr, isoOf } from './sql.ts';
