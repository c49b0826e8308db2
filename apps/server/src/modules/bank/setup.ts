import { randomBytes } from 'node:crypto';
import type { Config } from '../../config.ts';
import { bankClient, type BankClient } from './client.ts';
import { startBankEmulator, type BankEmulator } from './emulator.ts';

// The bank of this process (BANK_MODE): the local bank emulator (default; started here, with a signing
// key of this process), or the real bank interface at BANK_URL with the platform's merchant number and
// key. Only the API role calls the bank.

export type BankSettings = Pick<Config, 'BANK_MODE' | 'BANK_EMULATOR_PORT' | 'BANK_URL' | 'BANK_MER_ID' | 'BANK_SIGN_KEY'>;

export interface BankSetup {
  client: BankClient;
  emulator?: BankEmulator;
}

export const EMULATOR_MER_ID = '103881000000001';

export async function bankFromConfig(c: BankSettings, o: { emulator: boolean }): Promise<BankSetup> {
  if (c.BANK_MODE === 'live') {
    return { client: bankClient({ url: c.BANK_URL ?? '', merId: c.BANK_MER_ID ?? '', key: Buffer.from(c.BANK_SIGN_KEY ?? '', 'utf8') }) };
  }
  const key = randomBytes(32);
  const emulator = o.emulator ? await startBankEmulator({ key, merId: EMULATOR_MER_ID, port: c.BANK_EMULATOR_PORT }) : undefined;
  const url = emulator?.url ?? `http://127.0.0.1:${c.BANK_EMULATOR_PORT}`;
  return { client: bankClient({ url, merId: EMULATOR_MER_ID, key, demoInboxUrl: `${url}/inbox` }), emulator };
}
