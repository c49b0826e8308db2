import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { FastifyReply } from 'fastify';

// Streams a spreadsheet straight to the HTTP answer (DESIGN §4): rows arrive in batches and each row
// is committed as it is written, so neither the rows nor the workbook are held in memory.

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export interface XlsxColumn {
  header: string;
  key: string;
  width: number;
}

/** attachment; filename="export.xlsx"; filename*=UTF-8''<the Chinese name> (RFC 6266 / 5987). */
export function attachment(filename: string) {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '').replace(/["\\]/g, '') || 'export.xlsx';
  return `attachment; filename="${/\.xlsx$/i.test(ascii) && ascii !== '.xlsx' ? ascii : 'export.xlsx'}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

/**
 * Sends `filename` with one sheet. The first batch is read before the answer starts, so a failure
 * there is still an ordinary error answer; a failure later cuts the download off (logged).
 */
export async function streamXlsx(
  reply: FastifyReply,
  o: { filename: string; sheet: string; columns: XlsxColumn[]; batches: AsyncIterator<Record<string, unknown>[]> },
) {
  let next = await o.batches.next();
  const out = new PassThrough();
  reply.header('Content-Type', XLSX_TYPE).header('Content-Disposition', attachment(o.filename)).header('Cache-Control', 'no-store');
  // a client that goes away stops the export (no more rows are read)
  let gone = false;
  const goneSignal = new Promise<void>((resolve) =>
    reply.raw.once('close', () => {
      gone = !reply.raw.writableFinished;
      resolve();
    }),
  );
  reply.send(out);
  try {
    const { default: ExcelJS } = await import('exceljs'); // on first use (report/xlsx.ts)
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, useStyles: true, useSharedStrings: false });
    const ws = wb.addWorksheet(o.sheet, { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = o.columns;
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    while (!next.done) {
      for (const row of next.value) ws.addRow(row).commit();
      // let the client catch up before reading more rows
      if (out.writableNeedDrain) await Promise.race([once(out, 'drain'), goneSignal]);
      if (gone) {
        out.destroy();
        await o.batches.return?.();
        return;
      }
      next = await o.batches.next();
    }
    ws.commit();
    await wb.commit();
  } catch (err) {
    reply.log.error({ err }, 'xlsx export failed midway');
    out.destroy(err as Error);
  }
}
