import type { FastifyReply } from 'fastify';
import { EXPORT_LAYOUTS, fenToYuan } from '@meter/contracts';
import type { Ctx } from '../../http/context.ts';
import { keyset, shownColumns, streamXlsx } from '../report/index.ts';
import * as repo from './repo/index.ts';
import { NOTE_TEXT, settlementFilter, type SettlementQueryInput } from './views.ts';

// CopySettlement/Export: the settlements of the filter as .xlsx, streamed (report/xlsx.ts). Each
// batch is one short transaction (keyset on read_at, id), so a long export holds no snapshot open.

const BATCH = 5000;

export const SETTLEMENT_COLUMNS = EXPORT_LAYOUTS.settlement.columns;

/**
 * Yuan as a number: for whole fen within 2^53, fen / 100 is the double nearest the exact quotient —
 * the same number as Number(fenToYuan(fen)), without a decimal object per row.
 */
function yuanNumber(amountFen: unknown): number {
  const fen = Number(amountFen);
  return Number.isSafeInteger(fen) ? fen / 100 : Number(fenToYuan(String(amountFen)));
}

export function settlementRow(x: Record<string, unknown>): unknown[] {
  const water = Number(x.meterKind) === 2;
  return [
    x.meterName, x.address, water ? '水表' : '电表', x.roomName ?? '', x.ownerName ?? '', x.prevReadAt ?? '', x.readAt,
    Number(x.prevTotal), Number(x.total), Number(x.multiplier), Number(x.quantity), water ? 'm³' : 'kWh',
    yuanNumber(x.amountFen), x.periodKey, NOTE_TEXT[String(x.note)] ?? x.note, x.settledAt,
  ];
}

export async function exportSettlements(ctx: Ctx, q: SettlementQueryInput, reply: FastifyReply) {
  const f = settlementFilter(ctx, q);
  ctx.audit.target = '抄表结算导出';
  return streamXlsx(reply, {
    filename: '抄表结算.xlsx',
    sheet: '抄表结算',
    columns: SETTLEMENT_COLUMNS,
    keep: await shownColumns(ctx, 'settlement'),
    batches: keyset(
      (after: { at: string; id: number } | null) => ctx.tx((tx) => repo.settlementsBefore(tx, f, after, BATCH)),
      (row) => ({ at: String(row.readAtIso), id: Number(row.id) }),
      settlementRow,
    ),
  });
}
