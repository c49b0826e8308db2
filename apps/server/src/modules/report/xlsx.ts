import { EventEmitter, once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { Row, Style } from 'exceljs';
import { PlainRows } from './xlsx-rows.ts';

// Spreadsheet exports streamed straight into the HTTP answer (DESIGN §4) with ExcelJS's streaming
// WorkbookWriter: each row is committed as it is written, rows arrive in batches from the database
// (keyset pages), and the next batch is fetched while the current one is being written — neither the
// rows nor the workbook are ever held whole in memory.

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The WorkbookWriter's options (styles for the bold header; inline strings, no shared-string table). */
export const XLSX_WRITER_OPTIONS = { useStyles: true, useSharedStrings: false } as const;

export interface Column {
  header: string;
  width: number;
}

/** Only the columns at `keep` (the export configuration's), and each row's cells at the same places. */
export function pickColumns<C>(columns: readonly C[], keep: readonly number[] | undefined) {
  if (!keep) return { columns: [...columns], row: (r: unknown[]) => r };
  return { columns: keep.map((i) => columns[i]), row: (r: unknown[]) => keep.map((i) => r[i]) };
}

/** attachment; filename="export.xlsx"; filename*=UTF-8''<the Chinese name> (RFC 6266 / 5987). */
export function contentDisposition(filename: string) {
  return `attachment; filename="export.xlsx"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/** Sheet XML waiting for the zip's deflate above which the writer waits (see sheetBacklog). */
const SHEET_BACKLOG_LIMIT = 4 << 20;

/**
 * The sheet's XML not yet taken by the zip, and the stream holding it. ExcelJS writes each committed
 * row into a stream that archiver reads through a PassThrough, without heeding its backpressure: when
 * rows come faster than deflate takes them (a busy machine, a slow client), that PassThrough grows
 * without bound (~100 MB more at 1,000,000 rows). Internal to ExcelJS 4 / archiver: when the shape is
 * not found, no wait happens (the export still works, as before).
 */
function sheetBacklog(ws: object): { bytes: number; stream: NodeJS.EventEmitter } | null {
  const sheet: unknown = Reflect.get(ws, 'stream');
  const pipes: unknown = sheet && typeof sheet === 'object' ? Reflect.get(sheet, 'pipes') : null;
  const sink: unknown = Array.isArray(pipes) ? pipes[0] : null;
  if (!(sink instanceof EventEmitter)) return null;
  const state: unknown = Reflect.get(sink, '_writableState');
  const bytes: unknown = state && typeof state === 'object' ? Reflect.get(state, 'length') : null;
  return typeof bytes === 'number' ? { bytes, stream: sink } : null;
}

/** Until `stream` drains or `out` closes; both listeners removed after (no build-up over batches). */
async function drainOrClose(stream: NodeJS.EventEmitter, out: Writable) {
  const ac = new AbortController();
  try {
    await Promise.race([once(stream, 'drain', { signal: ac.signal }), once(out, 'close', { signal: ac.signal })]);
  } finally {
    ac.abort();
  }
}

/** One empty style object per cell type, shared by the cells that have no style of their own. */
const PLAIN_STYLES = new Map<number, Partial<Style>>();

/**
 * Gives each unstyled cell of `row` the shared empty style of its type. ExcelJS keeps a style's id per
 * style object (a WeakMap) but gives every new cell a `{}` of its own, so without this it renders the
 * style's XML again for every cell to look the id up: half of the CPU of writing a sheet (200,000 rows
 * of 16 cells: 10.9–14.2 s → 5.4–6.4 s). The workbook's bytes are the same (keyed by type, as ExcelJS
 * picks a cell's number format by its type).
 */
function sharePlainStyles(row: Row): Row {
  row.eachCell((cell) => {
    for (const _ in cell.style) return; // styled (a row or column style): its own
    let plain = PLAIN_STYLES.get(cell.type);
    if (!plain) PLAIN_STYLES.set(cell.type, (plain = Object.freeze({})));
    cell.style = plain;
  });
  return row;
}

/**
 * Writes one sheet to `out`: a bold header, then every row the batches yield (arrays in column
 * order). Waits for the stream to drain between batches, and fetches the next batch meanwhile. Rows of
 * plain cells are written as ExcelJS's own XML without its row and cell objects (xlsx-rows.ts: the same
 * bytes, half the CPU or less, little garbage), other rows by ExcelJS.
 */
export async function writeXlsx(
  out: Writable,
  o: { sheet: string; columns: readonly Column[]; batches: AsyncIterator<unknown[][]>; gone?: () => boolean; keep?: readonly number[] },
): Promise<number> {
  const pick = pickColumns(o.columns, o.keep);
  // exceljs is loaded on first use: about 0.6 s of CPU that a process (and each integration test file) pays only when it reads or writes a sheet
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, ...XLSX_WRITER_OPTIONS });
  const ws = wb.addWorksheet(o.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = pick.columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width }));
  ws.getRow(1).font = { bold: true };
  ws.getRow(1).commit();
  const plain = PlainRows.of(ws);
  let rows = 0;
  let pending = o.batches.next();
  for (;;) {
    const batch = await pending;
    if (batch.done) break;
    pending = o.batches.next(); // the database works on the next batch while this one is written
    for (const row of batch.value) {
      const cells = pick.row(row);
      if (plain?.add(cells)) continue;
      plain?.flush(); // the rows before it, then ExcelJS's own
      sharePlainStyles(ws.addRow(cells)).commit();
    }
    plain?.flush();
    rows += batch.value.length;
    const backlog = sheetBacklog(ws);
    if (backlog && backlog.bytes > SHEET_BACKLOG_LIMIT) await drainOrClose(backlog.stream, out);
    if (out.writableNeedDrain) await drainOrClose(out, out);
    if (o.gone?.()) {
      await o.batches.return?.();
      return rows;
    }
  }
  ws.commit();
  await wb.commit();
  return rows;
}

/**
 * Answers with `filename`. The first batch is read before the answer starts, so an error there is
 * still an ordinary error answer; a failure later cuts the download off (logged). A client that goes
 * away stops the export.
 */
export async function streamXlsx(
  reply: FastifyReply,
  o: { filename: string; sheet: string; columns: readonly Column[]; batches: AsyncIterator<unknown[][]>; keep?: readonly number[] },
) {
  let first: IteratorResult<unknown[][]> | null = await o.batches.next();
  const replay: AsyncIterator<unknown[][]> = {
    next: () => {
      if (!first) return o.batches.next();
      const r = first;
      first = null; // not held for the rest of the export
      return Promise.resolve(r);
    },
    return: (v?: unknown) => o.batches.return?.(v) ?? Promise.resolve({ done: true, value: undefined }),
  };
  const out = new PassThrough({ highWaterMark: 1 << 20 });
  let gone = false;
  reply.raw.once('close', () => {
    gone = !reply.raw.writableFinished;
    if (gone) out.destroy();
  });
  reply.header('Content-Type', XLSX_TYPE).header('Content-Disposition', contentDisposition(o.filename)).header('Cache-Control', 'no-store');
  reply.send(out);
  try {
    await writeXlsx(out, { sheet: o.sheet, columns: o.columns, batches: replay, gone: () => gone, keep: o.keep });
  } catch (err) {
    if (!gone) reply.log.error({ err }, 'xlsx export failed midway');
    out.destroy(err as Error);
  }
  return reply;
}

/** Keyset batches: `fetch(after)` returns the next rows; `key(lastRow)` is where the following batch starts. */
export async function* keyset<R, K>(fetch: (after: K | null) => Promise<R[]>, key: (row: R) => K, map: (row: R) => unknown[]): AsyncGenerator<unknown[][]> {
  let after: K | null = null;
  for (;;) {
    const rows = await fetch(after);
    if (!rows.length) return;
    after = key(rows[rows.length - 1]); // before mapping: map may reuse the row
    yield rows.map(map);
  }
}
