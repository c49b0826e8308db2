import { describe, expect, it } from 'vitest';
import { fenToYuan } from '@meter/contracts';
import { settlementRow } from './export.ts';

const AMOUNT = 12; // the amount's cell in a settlement row

describe('settlementRow', () => {
  it('writes the amount as the same number as the yuan text, for every fen', () => {
    const fens = [0, 1, 5, 85, 525, -1, -85, 99, 100, 101, 123456789, -123456789, 2 ** 53 - 1, -(2 ** 53 - 1)];
    for (let f = -10_000; f <= 10_000; f += 7) fens.push(f);
    for (const fen of fens) {
      const row = settlementRow({ meterKind: 1, amountFen: String(fen), prevTotal: '1', total: '2', multiplier: '1', quantity: '1', note: '' });
      expect(row[AMOUNT]).toBe(Number(fenToYuan(fen)));
    }
  });

  it('keeps amounts beyond whole safe fen exact to the yuan text', () => {
    const row = settlementRow({ meterKind: 2, amountFen: '90071992547409931', note: '' });
    expect(row[AMOUNT]).toBe(Number(fenToYuan('90071992547409931')));
    expect(row[11]).toBe('m³');
  });
});
