import { createRequire } from 'node:module';
import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { PlainRows, plainRowXml, xmlText } from './xlsx-rows.ts';
import { XLSX_WRITER_OPTIONS } from './xlsx.ts';

// ExcelJS's own text encoder, to hold ours to it
const { xmlEncode } = createRequire(import.meta.url)('exceljs/lib/utils/utils.js') as { xmlEncode: (s: string) => string };

describe('xlsx-rows', () => {
  it('encodes text as ExcelJS does (entities, control characters XML 1.0 forbids dropped)', () => {
    const chars = Array.from({ length: 160 }, (_, i) => String.fromCharCode(i)).join('');
    for (const s of ['', 'plain 中文', chars, `x${chars}y${chars}`, '&amp;', '"\'<>&', '\u007f\u0000\t\n\r', '😀']) expect(xmlText(s)).toBe(xmlEncode(s));
  });

  it('writes numbers as String(n) and leaves rows of other cells to ExcelJS', () => {
    const numbers = [0, -0, 1.25, -3e-9, 1e21, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE, NaN, -Infinity];
    expect(plainRowXml(2, numbers)).toBe(
      `<row r="2" spans="1:${numbers.length}" x14ac:dyDescent="0.25">${numbers.map((n, i) => `<c r="${String.fromCharCode(65 + i)}2"><v>${String(n)}</v></c>`).join('')}</row>`,
    );
    expect(plainRowXml(3, [null, undefined])).toBe('');
    for (const other of [true, new Date(), { richText: [] }, Object('boxed'), 1n]) expect(plainRowXml(4, ['a', other])).toBeNull();
    expect(plainRowXml(5, Array.from({ length: 16385 }, () => 1))).toBeNull(); // past Excel's last column
    const holey: unknown[] = [];
    holey[1] = 'b';
    expect(plainRowXml(6, holey)).toBeNull(); // ExcelJS reads a hole at 0 as starting at column 0
  });

  it("finds ExcelJS's sheet writer's shape (else every row would silently be ExcelJS's again)", () => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: new PassThrough(), ...XLSX_WRITER_OPTIONS });
    const ws = wb.addWorksheet('表');
    ws.columns = [{ header: '列', key: '0', width: 8 }];
    ws.getRow(1).commit();
    const plain = PlainRows.of(ws);
    expect(plain?.next).toBe(2);
    expect(plain?.add(['a', 1])).toBe(true);
    plain?.flush();
    expect(ws.addRow(['b']).number).toBe(3);
  });
});
