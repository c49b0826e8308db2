import type { FastifyReply } from 'fastify';
import { EXPORT_LAYOUTS, fenToYuan } from '@meter/contracts';
import type { Ctx } from '../../http/context.ts';
import { readArrays } from '../../db/client.ts';
import { keyset, shownColumns, streamXlsx } from '../report/index.ts';
import * as repo from './repo/index.ts';
import { NOTE_TEXT, settlementFilter, type SettlementQueryInput } from './views.ts';

// CopySettlement/Export: the settlements of the filter as .xlsx, streamed (report/xlsx.ts). Each
// batch is one statement (keyset on read_at, id), so a long export holds no snapshot open.

/**
 * Rows a statement. A batch's rows live from their parsing until they are written: at 2,000 rows that
 * spanned young-generation collections, so most batches were promoted to the old generation and freed
 * only by a full collection (1,000,000 rows: +250 MB at the peak); at 500 they die young (+27 MB), for
 * no more CPU (bench/README.md, Export).
 */
const BATCH = 500;

export const SETTLEMENT_COLUMNS = EXPORT_LAYOUTS.settlement.columns;

/**
 * Yuan as a number: for whole fen within 2^53, fen / 100 is the double nearest the exact quotient —
 * the same number as Number(fenToYuan(fen)), without a decimal object per row.
 */
function yuanNumber(amountFen: unknown): number {
  const fen = Number(amountFen);
  return Number.isSafeInteger(fen) ? fen / 100 : Number(fenToYuan(String(amountFen)));
}

/** The export's cells of a settlement row as the list reads it (an object with the list's names). */
export function settlementRow(x: Record<string, unknown>): unknown[] {
  return settlementCells([
    x.meterName, x.address, x.meterKind, x.roomName, x.ownerName, x.prevReadAt, x.readAt, x.prevTotal, x.total, x.multiplier,
    x.quantity, null, x.amountFen, x.periodKey, x.note, x.settledAt,
  ]);
}

/**
 * A batch row of settlementBatchSql (its 16 cells, then the keyset's id and read_at) made the sheet's row
 * in place: kind → type and unit, numbers, yuan, the note's text; the keyset's two values cut off.
 */
export function settlementCells(r: unknown[]): unknown[] {
  const water = Number(r[2]) === 2;
  r[2] = water ? '水表' : '电表';
  r[3] ??= '';
  r[4] ??= '';
  r[5] ??= '';
  r[7] = Number(r[7]);
  r[8] = Number(r[8]);
  r[9] = Number(r[9]);
  r[10] = Number(r[10]);
  r[11] = water ? 'm³' : 'kWh';
  r[12] = yuanNumber(r[12]);
  r[14] = NOTE_TEXT[String(r[14])] ?? r[14];
  r.length = 16;
  return r;
}

export async function exportSettlements(ctx: Ctx, q: SettlementQueryInput, reply: FastifyReply) {
  const f = settlementFilter(ctx, q);
  ctx.audit.target = '抄表结算导出';
  return streamXlsx(reply, {
    filename: '抄表结算.xlsx',
    sheet: '抄表结算',
    columns: SETTLEMENT_COLUMNS,
    keep: await shownColumns(ctx, 'settlement'),
    // each batch one statement in one round trip (its own implicit transaction: no snapshot held
    // across the export), rows as value arrays
    batches: keyset(
      (after: { at: string; id: number } | null) => readArrays(ctx.db, ctx.scope, repo.settlementBatchSql(f, after, BATCH)),
      (row) => ({ at: String(row[17]), id: Number(row[16]) }),
      settlementCells,
    ),
  });
}
