import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { files } from '../../db/schema/index.ts';

// The only SQL of the files module.

export type FileRow = typeof files.$inferSelect;

export async function insertFile(tx: Tx, row: typeof files.$inferInsert) {
  await tx.insert(files).values(row);
}

export async function findFile(tx: Tx, key: string): Promise<FileRow | null> {
  const [r] = await tx.select().from(files).where(eq(files.key, key)).limit(1);
  return r ?? null;
}

/** Of these keys, those stored as files of this kind and category (visible in the caller's scope). */
export async function knownKeys(tx: Tx, keys: string[], kind: string, category: string): Promise<string[]> {
  if (!keys.length) return [];
  const rows = await tx.select({ key: files.key }).from(files).where(and(inArray(files.key, keys), eq(files.kind, kind), eq(files.category, category)));
  return rows.map((r) => r.key);
}

/** Of these keys, the private images stored for this room (业主端 photos). */
export async function roomImages(tx: Tx, keys: string[], roomId: number): Promise<string[]> {
  if (!keys.length) return [];
  const rows = await tx.select({ key: files.key }).from(files)
    .where(and(inArray(files.key, keys), eq(files.kind, 'Private'), eq(files.category, 'image'), eq(files.roomId, roomId)));
  return rows.map((r) => r.key);
}
