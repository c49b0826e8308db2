import { BANK_PATHS, signBank, verifyBank, type BankAnswer, type BankPaths } from './protocol.ts';

// The bank's sub-merchant interface as this server calls it (protocol.ts): each request signed, each
// answer's signature checked before it is believed. A call that got no (or no believable) answer is
// `{ ok: false, lost: true }`: it may or may not have happened at the bank, so the caller must only
// retry what the bank treats as idempotent (register by outMerNo, withdraw by orderNo) or ask again.

export type BankResult<T> = BankAnswer<T> & { lost?: boolean };

export interface BankClient {
  merId: string;
  /** the local emulator's page of sent SMS and paid amounts (demo only) */
  demoInboxUrl?: string;
  call<K extends keyof BankPaths>(path: K, req: BankPaths[K]['req']): Promise<BankResult<BankPaths[K]['res']>>;
}

export interface BankSettings {
  url: string;
  demoInboxUrl?: string;
  merId: string;
  key: Buffer;
  timeoutMs?: number;
}

export function bankClient(s: BankSettings): BankClient {
  return {
    merId: s.merId,
    demoInboxUrl: s.demoInboxUrl,
    async call(path, req) {
      const body = JSON.stringify(req);
      try {
        const res = await fetch(s.url + BANK_PATHS[path], {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...signBank(s.key, s.merId, body) },
          body,
          signal: AbortSignal.timeout(s.timeoutMs ?? 10_000),
        });
        const text = await res.text();
        const headers = Object.fromEntries(res.headers.entries());
        const bad = verifyBank(s.key, headers, text);
        if (bad) return { ok: false, lost: true, errCode: 'ANSWER_SIGN_ERROR', errMsg: `银行应答验签失败（${bad}）` };
        return JSON.parse(text) as BankResult<BankPaths[typeof path]['res']>;
      } catch {
        return { ok: false, lost: true, errCode: 'BANK_UNAVAILABLE', errMsg: '银行接口暂时无法连接，请稍后重试' };
      }
    },
  };
}
