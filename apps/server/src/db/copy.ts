import type pg from 'pg';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';

// COPY … FROM STDIN on a node-postgres client through pg-copy-streams. The statement text is sent with
// the simple query protocol, so it may be several statements (e.g. SAVEPOINT; SET LOCAL ROLE; COPY; …):
// the stream waits for the server's CopyInResponse, and the first error (before, during or after the
// COPY) rejects. The payload goes out in 64 KiB CopyData messages.

const CHUNK = 1 << 16;

function* chunks(data: Buffer) {
  for (let i = 0; i < data.length; i += CHUNK) yield data.subarray(i, i + CHUNK);
}

/** Runs `text` (ending in COPY … FROM STDIN) on a client, streaming `data` as the COPY payload. */
export async function copyIn(client: pg.ClientBase, text: string, data: Buffer): Promise<void> {
  await pipeline(Readable.from(chunks(data), { objectMode: false }), client.query(copyFrom(text)));
}
