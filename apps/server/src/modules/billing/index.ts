// Public face of the billing module: other modules and the layers above import from here only (eslint boundaries).
export { default as billingRoutes } from './routes.ts';
export { rangeOf, dayKey, localToInstant, monthKey, monthRange } from './period.ts';
export { EnergyWallet, Money, TimeRange, id } from './schema.ts';
export { lockAccounts, type JournalEntry } from './repo/ledger.ts';
export { WALLET_LABELS, moveOf, post, type Posting, type Wallet } from './ledger.ts';
export { afterBalanceChange } from './alarms.ts';
export { occupiedRoom, receiptOf } from './counter.ts';
export { qrDataUrl } from './service.ts';
export { ownerAccounts, ownerJournal } from './views.ts';
export { compactRollups, creditSubsidies, postMinimumCharges, postMonthlyFees, retryCloses } from './periodic.ts';
export { sweep } from './settlement.ts';
export { seedBilling } from './seed.ts';
