import Fastify, { type FastifyInstance } from 'fastify';

// What the two SMS emulators (emulator-aliyun.ts, emulator-tencent.ts) share: a Fastify server that
// hands each handler the raw body (the signatures cover its bytes), and the state the tests steer —
// the messages delivered, SendSms calls counted, refusals queued with failNext, undeliverable phones.

/** The test handles every emulator offers. */
export type EmulatorHandles<M> = Pick<EmulatorState<M>, 'messages' | 'calls' | 'undeliverable' | 'failNext'> & {
  app: FastifyInstance;
  close(): Promise<void>;
};

/**
 * What an emulator keeps once per idempotency key (阿里云 OutId, 腾讯云 SessionContext): a repeat gets
 * the first one back; an empty key is never a repeat.
 */
export class OncePerKey<T> {
  private readonly byKey = new Map<string, T>();

  /** `all`: every item kept, in order */
  constructor(readonly all: T[] = []) {}

  /** The item kept for `key`, else `make()`'s, now kept. */
  once(key: string, make: () => T): T {
    const seen = key ? this.byKey.get(key) : undefined;
    if (seen) return seen;
    const item = make();
    this.all.push(item);
    if (key) this.byKey.set(key, item);
    return item;
  }
}

/** The state and test handles of an emulator, whatever the provider. */
export class EmulatorState<M> {
  /** every message delivered (one per idempotency key) */
  readonly messages: M[] = [];
  /** SendSms calls answered, repeats and refusals included */
  calls = 0;
  private failing = 0;
  private failCode: string;

  constructor(
    /** phones whose messages are accepted and then not delivered (may be added to while running) */
    readonly undeliverable: Set<string>,
    private readonly defaultFailCode: string,
  ) {
    this.failCode = defaultFailCode;
  }

  /** the next n SendSms calls are refused with this code (default: the provider's system error) */
  readonly failNext = (n: number, code = this.defaultFailCode): void => {
    this.failing = n;
    this.failCode = code;
  };

  /** Counts a SendSms call; the code to refuse it with while failNext's refusals last, else null. */
  sendRefusal(): string | null {
    this.calls++;
    if (this.failing === 0) return null;
    this.failing--;
    return this.failCode;
  }
}

/** A Fastify server whose handlers get the raw body as a Buffer. */
export function rawBodyServer(): FastifyInstance {
  const app = Fastify({ logger: false });
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  return app;
}

/**
 * What each emulator starts from: its raw-body server, its state (refusing with `failCode` by default),
 * the messages it delivers and the voice calls it places, each once per idempotency key.
 */
export function emulatorBase<M, C>(undeliverable: Set<string> | undefined, failCode: string) {
  const state = new EmulatorState<M>(undeliverable ?? new Set<string>(), failCode);
  return { app: rawBodyServer(), state, sent: new OncePerKey(state.messages), called: new OncePerKey<C>() };
}

/** Listens on host:port (0: any free port) and answers the port taken. */
export async function listenOn(app: FastifyInstance, host: string, port: number): Promise<number> {
  await app.listen({ host, port });
  const addr = app.server.address();
  return typeof addr === 'object' && addr ? addr.port : 0;
}
