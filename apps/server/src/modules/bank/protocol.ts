import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

// The bank's sub-merchant protocol (农业银行 子商户 / 二级商户 interface shape, one for every bankType):
// JSON over HTTPS POST, each request and each answer signed. Headers:
//   X-Bank-MerId      the platform's merchant number at the bank
//   X-Bank-Timestamp  seconds since the epoch (refused when more than 5 minutes off)
//   X-Bank-Nonce      random, once
//   X-Bank-Signature  base64 HMAC-SHA256 over `merId\ntimestamp\nnonce\nbody` with the shared key
// An answer is `{ ok: true, data }` or `{ ok: false, errCode, errMsg }`, signed the same way by the bank.
// The local emulator (emulator.ts) and the client (client.ts) both use this file, so the demo runs the
// real signing and verifying code.

export const BANK_SIGN_WINDOW_S = 300;

export interface SignedHeaders {
  'x-bank-merid': string;
  'x-bank-timestamp': string;
  'x-bank-nonce': string;
  'x-bank-signature': string;
}

const mac = (key: Buffer, merId: string, ts: string, nonce: string, body: string) =>
  createHmac('sha256', key).update(`${merId}\n${ts}\n${nonce}\n${body}`).digest('base64');

export function signBank(key: Buffer, merId: string, body: string, nowMs = Date.now()): SignedHeaders {
  const ts = String(Math.floor(nowMs / 1000));
  const nonce = randomBytes(12).toString('hex');
  return { 'x-bank-merid': merId, 'x-bank-timestamp': ts, 'x-bank-nonce': nonce, 'x-bank-signature': mac(key, merId, ts, nonce, body) };
}

/** Why the signed message is not acceptable, or null. */
export function verifyBank(key: Buffer, h: Record<string, string | string[] | undefined>, body: string, nowMs = Date.now()): string | null {
  const one = (k: string) => (typeof h[k] === 'string' ? (h[k] as string) : '');
  const merId = one('x-bank-merid');
  const ts = one('x-bank-timestamp');
  const nonce = one('x-bank-nonce');
  const sig = one('x-bank-signature');
  if (!merId || !/^\d{1,12}$/.test(ts) || !nonce || !sig) return '缺少签名信息';
  if (Math.abs(nowMs / 1000 - Number(ts)) > BANK_SIGN_WINDOW_S) return '签名已过期';
  const want = Buffer.from(mac(key, merId, ts, nonce, body));
  const got = Buffer.from(sig);
  if (want.length !== got.length || !timingSafeEqual(want, got)) return '签名校验失败';
  return null;
}

export type BankAnswer<T> = { ok: true; data: T } | { ok: false; errCode: string; errMsg: string };

// ---- the calls --------------------------------------------------------------------------------------

export interface RegSubMerRequest {
  /** our id of the application (the bank answers the same sub-merchant for the same id) */
  outMerNo: string;
  name: string;
  shortName: string;
  licenseNo: string;
  legalPerson: string;
  legalIdNo: string;
  contactName: string;
  phone: string;
  address: string;
  accountName: string;
  accountNo: string;
  accountBank: string;
}

export interface BankPaths {
  register: { req: RegSubMerRequest; res: { subMerId: string; status: string } };
  sendCode: { req: { subMerId: string }; res: { phone: string; status: string } };
  verify: { req: { subMerId: string; code: string; amountFen: number }; res: { status: string; attemptsLeft: number } };
  status: { req: { subMerId: string; status: 'active' | 'disabled' }; res: { status: string } };
  query: { req: { subMerId: string }; res: { balanceFen: number; availableFen: number } };
  withdraw: { req: { subMerId: string; orderNo: string; amountFen: number }; res: { serialNo: string; status: 'processing' | 'succeeded' | 'failed'; reason: string } };
  withdrawQuery: { req: { subMerId: string; orderNo: string }; res: { serialNo: string; status: 'processing' | 'succeeded' | 'failed'; reason: string } };
}

export const BANK_PATHS: Record<keyof BankPaths, string> = {
  register: '/ebus/submer/register',
  sendCode: '/ebus/submer/sendMessage',
  verify: '/ebus/submer/verify',
  status: '/ebus/submer/status',
  query: '/ebus/subacc/query',
  withdraw: '/ebus/subacc/withdraw',
  withdrawQuery: '/ebus/subacc/withdrawQuery',
};
