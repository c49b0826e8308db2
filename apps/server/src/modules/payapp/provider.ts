import { signText, verifyText } from '../payment/index.ts';

// The payment provider behind the pay-application accounts (汇付 AdaPay). The default provider is
// simulated: nothing leaves the machine, and its answers are deterministic, so tests and the demo
// can rely on them. A real provider (AdaPay's 商户进件 / 取现 API) implements the same interface and
// is chosen at start (main.ts → the worker's billing jobs, jobs/billing.ts); it must treat `orderNo` as its idempotency key, since a
// worker that dies between submitting and recording may submit the same withdrawal again.
//
// The simulated provider:
// - accepts every application and opens it at the next poll (status opened, id `SIMAPP<id>`);
// - accepts every withdrawal (number `SIMWD<id>`) and reports it processing until `delayMs` after it
//   was asked, then succeeded — or failed with a reason when the card number ends in 4444 (the
//   simulated bank bounces it: 银行退票), which is how a test or a demo shows a failed withdrawal.

export interface ApplicationInfo {
  id: number;
  companyId: number;
  name: string;
  kind: number;
  idNo: string;
  bankAccountNo: string;
}

export interface WithdrawalInfo {
  id: number;
  companyId: number;
  providerAppId: string;
  amountFen: number;
  bankAccountNo: string;
  createdAt: Date;
  providerNo: string;
}

export type ApplicationState = { status: 'pending' } | { status: 'opened'; providerAppId: string } | { status: 'rejected'; reason: string };
export type WithdrawalState = { status: 'processing' } | { status: 'succeeded' } | { status: 'failed'; reason: string };

export interface PayAppProvider {
  name: string;
  /** where the application stands at the provider (submits it if the provider has not seen it) */
  application(a: ApplicationInfo): Promise<ApplicationState>;
  /** asks for the withdrawal; idempotent by `orderNo`; answers the provider's number */
  submitWithdrawal(w: WithdrawalInfo, orderNo: string): Promise<{ providerNo: string }>;
  /** where a submitted withdrawal stands */
  withdrawal(w: WithdrawalInfo): Promise<WithdrawalState>;
}

export const FAILING_CARD_SUFFIX = '4444';

// ---- the provider's withdrawal notification (callback) ----------------------------------------------
//
// A provider that calls back (AdaPay's 异步通知) posts the outcome to /pay/api/AdaPayApplication/Notify,
// signed with HMAC-SHA256 over `order_no|provider_no|status` with PAY_NOTIFY_SECRET, as the payment
// notifications are (payment/provider.ts). A real provider replaces sign/verify with its own
// signature scheme.

export interface WithdrawalNotice {
  /** our order number: WD<company>-<withdrawal id> */
  order_no: string;
  provider_no: string;
  status: 'succeeded' | 'failed';
  reason?: string;
  sign: string;
}

const payload = (n: Omit<WithdrawalNotice, 'sign' | 'reason'>) => `${n.order_no}|${n.provider_no}|${n.status}`;

export const signNotice = (n: Omit<WithdrawalNotice, 'sign' | 'reason'>): string => signText(payload(n));

export const verifyNotice = (n: WithdrawalNotice): boolean => verifyText(payload(n), n.sign);

/** Our order number of a withdrawal, sent to the provider as its idempotency key. */
export const orderNo = (companyId: number, id: number) => `WD${companyId}-${id}`;
export function parseOrderNo(s: string): { companyId: number; id: number } | null {
  const m = /^WD(\d{1,18})-(\d{1,18})$/.exec(s);
  return m ? { companyId: Number(m[1]), id: Number(m[2]) } : null;
}

export function simulatedProvider(o: { delayMs?: number; now?: () => number } = {}): PayAppProvider {
  const delayMs = o.delayMs ?? 3000;
  const now = o.now ?? Date.now;
  return {
    name: 'simulated',
    async application(a) {
      return { status: 'opened', providerAppId: `SIMAPP${a.id}` };
    },
    async submitWithdrawal(w) {
      return { providerNo: `SIMWD${w.id}` };
    },
    async withdrawal(w) {
      if (now() < w.createdAt.getTime() + delayMs) return { status: 'processing' };
      if (w.bankAccountNo.endsWith(FAILING_CARD_SUFFIX)) return { status: 'failed', reason: '银行退票：收款账户信息有误，请核对结算银行卡' };
      return { status: 'succeeded' };
    },
  };
}
