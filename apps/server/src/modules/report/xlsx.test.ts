import { PassThrough } from 'node:stream';
import ExcelJS from 'exceljs';
import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { writeXlsx, XLSX_WRITER_OPTIONS, type Column } from './xlsx.ts';

const COLUMNS: Column[] = [
  { header: '文字', width: 12 },
  { header: '数', width: 8 },
  { header: '时间', width: 20 },
  { header: '空', width: 6 },
  { header: '是否', width: 6 },
];
const ROWS: unknown[][] = [
  ['一号表', 12.5, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), null, true],
  ['二号表', -3, new Date(Date.UTC(2026, 1, 3)), '有', false],
  [null, 0, null, 7, 'x'],
];

async function collect(write: (out: PassThrough) => Promise<unknown>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => out.on('end', r));
  await write(out);
  await ended;
  return Buffer.concat(chunks);
}

/** Every cell of the first sheet as ExcelJS reads it back: value, type, number format, font. */
async function cellsOf(file: Buffer) {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(new Uint8Array(file).buffer);
  const cells: unknown[] = [];
  wb.worksheets[0].eachRow({ includeEmpty: true }, (row) =>
    row.eachCell({ includeEmpty: true }, (c) => cells.push([c.address, c.type, c.value, c.numFmt ?? null, c.font?.bold ?? null])),
  );
  return cells;
}

/** Both files of `rows` under `columns`: writeXlsx's (two batches, split at `split`) and ExcelJS's left to itself. */
async function bothFiles(columns: Column[], rows: unknown[][], split: number) {
  async function* batches() {
    yield rows.slice(0, split).map((r) => [...r]);
    yield rows.slice(split).map((r) => [...r]);
  }
  const ours = await collect((out) => writeXlsx(out, { sheet: '表', columns, batches: batches() }));
  const theirs = await collect(async (out) => {
    const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: out, ...XLSX_WRITER_OPTIONS });
    const ws = wb.addWorksheet('表', { views: [{ state: 'frozen', ySplit: 1 }] });
    ws.columns = columns.map((c, i) => ({ header: c.header, key: String(i), width: c.width }));
    ws.getRow(1).font = { bold: true };
    ws.getRow(1).commit();
    for (const r of rows) ws.addRow([...r]).commit();
    ws.commit();
    await wb.commit();
  });
  return { ours, theirs };
}

describe('writeXlsx', () => {
  it('writes the same cells, types and formats as ExcelJS left to itself (the shared plain styles change nothing)', async () => {
    const { ours, theirs } = await bothFiles(COLUMNS, ROWS, 2);
    const cells = await cellsOf(ours);
    expect(cells).toEqual(await cellsOf(theirs));
    // the header keeps its bold font, a date keeps ExcelJS's date format
    expect(cells).toContainEqual(['A1', ExcelJS.ValueType.String, '文字', null, true]);
    expect(cells).toContainEqual(['C2', ExcelJS.ValueType.Date, new Date(Date.UTC(2026, 0, 2, 3, 4, 5)), 'mm-dd-yy', null]);
  });

  it("writes plain rows byte for byte as ExcelJS does (its own XML for every part), rows of other cells through ExcelJS", async () => {
    const wide: Column[] = Array.from({ length: 30 }, (_, i) => ({ header: `列${i + 1}`, width: 8 }));
    const tricky = ['a<b>&"\'', 'tab\tnl\ncr\r', 'ctl\u0001\u0008\u000b\u001f\u007f', '', ' lead ', '😀水表', 'm³'];
    const numbers = [0, -0, -0.1, 1 / 3, 1e21, 1e-7, 123456789012, 2 ** 53 + 2, NaN, Infinity, -Infinity, 5.25, 1001.25];
    const plain: unknown[][] = [
      [...tricky, ...numbers],
      [null, null, 'after two nulls', undefined, 7],
      [null, undefined, null],
      [undefined, 'from B'],
      Array.from({ length: 30 }, (_, i) => (i % 3 ? i * 1.5 : `c${i}`)),
      ['one', 1, true, new Date(Date.UTC(2026, 0, 2))], // not plain: ExcelJS writes it, the numbering goes on
      ['after', 2],
      [],
    ];
    const { ours, theirs } = await bothFiles(wide, plain, 3);
    const [a, b] = await Promise.all([JSZip.loadAsync(ours), JSZip.loadAsync(theirs)]);
    const names = Object.keys(b.files).sort();
    expect(Object.keys(a.files).sort()).toEqual(names);
    for (const name of names.filter((n) => n !== 'docProps/core.xml')) {
      expect(await a.file(name)?.async('string'), name).toBe(await b.file(name)?.async('string'));
    }
    const sheet = (await a.file('xl/worksheets/sheet1.xml')?.async('string')) ?? '';
    expect(sheet).toContain('<c r="AD6"><v>43.5</v></c>'); // past Z, numbers as String(n)
    expect(sheet).toContain('<row r="8" spans="1:2"'); // the row after ExcelJS's own
  });
});
