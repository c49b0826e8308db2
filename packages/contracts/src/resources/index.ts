// Every declared CRUD resource (one file per domain).
export * from './company.ts';
export * from './area.ts';
export * from './device.ts';
export * from './scheme.ts';
export * from './room.ts';
export * from './owner.ts';
export * from './payapp.ts';
export * from './content.ts';
export * from './sms.ts';
export * from './bank.ts';
export * from './help.ts';
