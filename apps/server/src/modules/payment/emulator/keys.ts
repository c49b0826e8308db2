import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

// The key material of the local payment emulators (LOCAL EMULATOR, not a provider): made at first
// start under DATA_DIR/pay-emulator/keys.json (mode 0600, never committed), the same on every start
// after. Both sides' keys live here because both sides run on this machine: the merchant's (the
// server signs its requests with them) and the providers' (the emulator signs answers and
// notifications with them; the server verifies with their public halves).

export interface EmulatorKeys {
  wechat: { mchid: string; appid: string; serialNo: string; merchantKey: KeyObject; platformSerial: string; platformKey: KeyObject; apiV3Key: string };
  alipay: { appId: string; sellerId: string; appKey: KeyObject; alipayKey: KeyObject };
}

export interface StoredKeys {
  wechat: { mchid: string; appid: string; serialNo: string; merchantKey: string; platformSerial: string; platformKey: string; apiV3Key: string };
  alipay: { appId: string; sellerId: string; appKey: string; alipayKey: string };
}

const pem = () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const hex = (n: number) => randomBytes(n).toString('hex').toUpperCase();

/** Key material around four RSA private keys (PEM): WeChat's merchant and platform, Alipay's app and Alipay's. */
export function storedKeys([merchantKey, platformKey, appKey, alipayKey]: readonly string[]): StoredKeys {
  return {
    wechat: {
      mchid: '1900009191', appid: 'wxd678efh567hg6787', serialNo: hex(20), merchantKey,
      platformSerial: `PUB_KEY_ID_01${hex(12)}`, platformKey, apiV3Key: randomBytes(24).toString('base64url').slice(0, 32),
    },
    alipay: { appId: '2021000000000001', sellerId: '2088000000000001', appKey, alipayKey },
  };
}

export const generateStored = (): StoredKeys => storedKeys([pem(), pem(), pem(), pem()]);

/** The key objects of stored key material. */
export function loadKeys(s: StoredKeys): EmulatorKeys {
  return {
    wechat: { ...s.wechat, merchantKey: createPrivateKey(s.wechat.merchantKey), platformKey: createPrivateKey(s.wechat.platformKey) },
    alipay: { ...s.alipay, appKey: createPrivateKey(s.alipay.appKey), alipayKey: createPrivateKey(s.alipay.alipayKey) },
  };
}

/** The emulators' keys under dir (made on first use). */
export function emulatorKeys(dir: string): EmulatorKeys {
  const file = path.join(dir, 'pay-emulator', 'keys.json');
  if (!fs.existsSync(file)) {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(generateStored()), { mode: 0o600 });
    try {
      fs.linkSync(tmp, file); // the first process to start wins; the others read its keys
    } catch { /* another process made them */ }
    fs.unlinkSync(tmp);
  }
  return loadKeys(JSON.parse(fs.readFileSync(file, 'utf8')) as StoredKeys);
}

/** Fresh keys in memory (tests). */
export const freshKeys = (): EmulatorKeys => loadKeys(generateStored());

export const publicOf = (k: KeyObject) => createPublicKey(k);
