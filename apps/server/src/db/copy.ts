import type pg from 'pg';
import type { Tx } from './client.ts';

// COPY … FROM STDIN on a node-postgres client, without a stream library: a "submittable" query that
// answers the server's CopyInResponse with the whole payload. The statement text is sent with the
// simple query protocol, so it may be several statements (e.g. SAVEPOINT; SET LOCAL ROLE; COPY; …);
// the first error ends the query (the client sends nothing else before the server is ready again).

const CHUNK = 1 << 16;

interface PgConnection {
  query(text: string): void;
  sendCopyFromChunk(chunk: Buffer): void;
  endCopyFrom(): void;
}

class CopyIn {
  callback?: (err: Error | null, res?: unknown) => void;
  private error: Error | null = null;
  private done = false;
  constructor(
    readonly text: string,
    private readonly data: Buffer,
  ) {}
  submit(connection: PgConnection) {
    connection.query(this.text);
  }
  handleCopyInResponse(connection: PgConnection) {
    for (let i = 0; i < this.data.length; i += CHUNK) connection.sendCopyFromChunk(this.data.subarray(i, i + CHUNK));
    connection.endCopyFrom();
  }
  handleRowDescription() {}
  handleDataRow() {}
  handleCommandComplete() {}
  handleEmptyQuery() {}
  handleError(err: Error) {
    // node-postgres drops the active query on an error: ReadyForQuery will not reach this one
    this.error ??= err;
    this.finish();
  }
  handleReadyForQuery() {
    this.finish();
  }
  private finish() {
    if (this.done) return;
    this.done = true;
    this.callback?.(this.error);
  }
}

/** Runs `text` (ending in COPY … FROM STDIN) on a client, streaming `data` as the COPY payload. */
export function copyIn(client: pg.ClientBase, text: string, data: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const q = new CopyIn(text, data);
    q.callback = (err) => (err ? reject(err) : resolve());
    (client as unknown as { query(q: CopyIn): void }).query(q);
  });
}

/** The node-postgres client under a drizzle transaction. */
export function clientOf(tx: Tx): pg.ClientBase {
  const client = (tx as unknown as { session?: { client?: pg.ClientBase } }).session?.client;
  if (!client || typeof (client as { query?: unknown }).query !== 'function') throw new Error('transaction has no pg client');
  return client;
}
