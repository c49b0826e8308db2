export * from './company.ts';
export * from './admin.ts';
export * from './area.ts';
export * from './device.ts';
export * from './billing.ts';
export * from './control.ts';
export * from './room.ts';
export * from './ledger.ts';
