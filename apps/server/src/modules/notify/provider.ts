// Where notifications go. The default provider writes each message to the log (an offline build has
// no SMS gateway); a real provider (阿里云短信, 腾讯云短信, a voice-call service) implements the same
// interface and is chosen at start (jobs/billing.ts).

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
}

export interface NotifyProvider {
  /** stored on the notification row */
  name: string;
  /** resolves when the provider accepted the message; throws with a Chinese reason otherwise */
  send(m: OutgoingMessage): Promise<void>;
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
