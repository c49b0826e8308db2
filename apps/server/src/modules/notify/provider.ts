// Where notifications go. The default provider writes each message to the log (an offline build has
// no SMS gateway); 阿里云短信 and 腾讯云短信 (sms/aliyun.ts, sms/tencent.ts) implement the same
// interface and are chosen per company in /sms/config (sms/config.ts).

export interface OutgoingMessage {
  id: number;
  companyId: number;
  /** sms 短信, phone 电话 */
  channel: string;
  phone: string;
  content: string;
  /**
   * the same for every try of this message: the provider accepts a key once (阿里云 OutId, 腾讯云
   * SessionContext, …), so a message tried again after a crash is not delivered twice
   */
  idempotencyKey: string;
  /** this try (1 = first) */
  attempt?: number;
  /** when the message was queued (a provider's record is looked up from that day on) */
  createdAt?: Date;
}

/** What the provider answered when it took a message. */
export interface Accepted {
  /** its id of the message (阿里云 BizId, 腾讯云 SerialNo) */
  ref: string;
  /** its answer, as it came */
  answer: string;
}

/** A refusal or a failed call: `retryable` when trying later may succeed (network, 限流, 系统繁忙). */
export class SendError extends Error {
  constructor(message: string, readonly answer: string, readonly retryable: boolean) {
    super(message);
  }
}

/** A message the provider accepted and whose delivery receipt is still awaited. */
export interface AwaitingReceipt {
  id: number;
  phone: string;
  ref: string;
  idempotencyKey: string;
  sentAt: Date;
}

export interface Receipt {
  id: number;
  delivered: boolean;
  /** the provider's words (阿里云 ErrCode, 腾讯云 Description) */
  text: string;
  at: Date;
}

export interface NotifyProvider {
  /** stored on the notification row */
  name: string;
  /** resolves when the provider accepted the message; throws (a SendError with a Chinese reason) otherwise */
  send(m: OutgoingMessage): Promise<Accepted | void>;
  /**
   * the provider's own record of a message sent under this key, if any: asked before a message is
   * tried again, so one a crashed sender had already handed over is recorded, not sent twice
   */
  find?(m: OutgoingMessage): Promise<Accepted | null>;
  /** the delivery receipts now known for these messages (those still unknown are left out) */
  receipts?(awaiting: AwaitingReceipt[]): Promise<Receipt[]>;
}

/** Logs every message (provider 'log'). */
export function logProvider(log: (line: string) => void): NotifyProvider {
  return {
    name: 'log',
    async send(m) {
      log(`[通知] ${m.channel === 'phone' ? '电话' : '短信'} → ${m.phone}: ${m.content}`);
    },
  };
}

/** A provider's answer as text for the record (at most 2000 characters). */
export const answerText = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v) ?? '').slice(0, 2000);
