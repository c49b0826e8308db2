import { createPrivateKey, generateKeyPair, type KeyObject } from 'node:crypto';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { loadKeys, storedKeys, type EmulatorKeys, type StoredKeys } from '../src/modules/payment/emulator/keys.ts';

// The RSA keys of the integration tests (the payment emulators' and a few spare ones), made once per run
// by global-setup.ts and handed to the test files in memory (vitest's provide/inject: never on disk). Made
// per file they cost each file ~0.2 s of CPU a key, 4 to 7 keys a file, taken from the files beside it.
// Each file still has its own emulator and database: the files never see each other's use of them.

export interface TestKeyMaterial {
  /** the payment emulators' key material (wechat merchant and platform, alipay app and alipay) */
  emulator: StoredKeys;
  /** private keys (PEM, PKCS#8) that are none of the emulator's: a company's own merchant, a forger's */
  spare: string[];
}

declare module 'vitest' {
  export interface ProvidedContext {
    testKeys: TestKeyMaterial;
  }
}

const SPARE = 2;
const rsaPem = async () =>
  (await promisify(generateKeyPair)('rsa', { modulusLength: 2048 })).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** Fresh key material for one run (generated on libuv's thread pool, beside the template's migration). */
export async function makeTestKeys(): Promise<TestKeyMaterial> {
  const pems = await Promise.all(Array.from({ length: 4 + SPARE }, rsaPem));
  return { emulator: storedKeys(pems.slice(0, 4)), spare: pems.slice(4) };
}

/** The run's emulator keys (in place of freshKeys()). */
export const testKeys = (): EmulatorKeys => loadKeys(inject('testKeys').emulator);

/** Spare private key i (0 or 1) as PEM: none of the emulator's keys, and not the other spare. */
export function sparePem(i: number): string {
  const pem = inject('testKeys').spare[i];
  if (!pem) throw new Error(`no spare test key ${i} (${SPARE} are made)`);
  return pem;
}

/** Spare private key i as a key object. */
export const spareKey = (i: number): KeyObject => createPrivateKey(sparePem(i));
