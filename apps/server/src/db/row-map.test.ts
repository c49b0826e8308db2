import { describe, expect, it } from 'vitest';
import { rowMapper } from './row-map.ts';

describe('rowMapper', () => {
  it('reads each declared field from its snake_case column, converted to its kind', () => {
    const of = rowMapper({ id: 'number', outTradeNo: 'string', amountFen: 'number', createdAt: 'date' });
    const row = of({ id: '7', out_trade_no: 'T1', amount_fen: '1250', created_at: '2026-01-02T03:04:05.000Z', other: 'x' });
    expect(row).toEqual({ id: 7, outTradeNo: 'T1', amountFen: 1250, createdAt: new Date('2026-01-02T03:04:05.000Z') });
    expect(Object.keys(row)).toEqual(['id', 'outTradeNo', 'amountFen', 'createdAt']);
  });
  it('converts as Number/String would (a missing column is NaN or "undefined")', () => {
    expect(rowMapper({ bankSerial: 'string', status: 'number' })({})).toEqual({ bankSerial: 'undefined', status: NaN });
  });
});
