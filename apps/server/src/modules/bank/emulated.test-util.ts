import { randomBytes } from 'node:crypto';
import { afterAll } from 'vitest';
import { testApp, type TestApp } from '../../../test/helpers.ts';
import { bankClient, type BankClient } from './client.ts';
import { startBankEmulator, type BankEmulator } from './emulator.ts';

// A test file's app whose bank client talks to the local bank emulator (merchant `merId`, a key of its
// own), both closed after the file's last test.

export async function fileBankApp(merId: string): Promise<{ t: TestApp; bank: BankEmulator; client: BankClient }> {
  const key = randomBytes(32);
  const bank = await startBankEmulator({ key, merId });
  const client = bankClient({ url: bank.url, merId, key });
  const t = await testApp(undefined, { bank: client });
  afterAll(async () => {
    await t.close();
    await bank.close();
  });
  return { t, bank, client };
}
