// Public face of the bank module: other modules and the layers above import from here only (eslint boundaries).
export { default as bankRoutes } from './routes.ts';
export { bankFromConfig, type BankSetup } from './setup.ts';
export { bankClient, type BankClient } from './client.ts';
export { startBankEmulator, SANDBOX_SUB_MER, type BankEmulator } from './emulator.ts';
export { seedBankDemo } from './seed.ts';
export { pollWithdrawals, NEVER_ARRIVES_MS } from './poll.ts';
