import type ExcelJS from 'exceljs';
import { IMPORT_MAX_ROWS } from '@meter/contracts';
import { refuse } from '../../http/errors.ts';
import type { ImportColumn } from './columns.ts';

// The .xlsx side of an import: the template (sheet 导入数据 with the headers, one example row and
// drop-down lists; sheet 填写说明; a hidden sheet 选项 holding the lists) and reading a filled-in file
// back as rows of header → text.

export const DATA_SHEET = '导入数据';
const HELP_SHEET = '填写说明';
const LIST_SHEET = '选项';

/** exceljs keeps range validations (one sqref per column) but its typings do not declare them */
type WithRanges = ExcelJS.Worksheet & { dataValidations: { add(address: string, v: ExcelJS.DataValidation): void } };

const colName = (n: number) => {
  let s = '';
  for (let x = n; x > 0; x = Math.floor((x - 1) / 26)) s = String.fromCharCode(65 + ((x - 1) % 26)) + s;
  return s;
};

export async function templateBuffer(title: string, columns: ImportColumn[]): Promise<Buffer> {
  // exceljs is loaded on first use: about 0.6 s of CPU that a process (and each integration test file) pays only when it reads or writes a sheet
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(DATA_SHEET, { views: [{ state: 'frozen', ySplit: 1 }] }) as WithRanges;
  const help = wb.addWorksheet(HELP_SHEET);
  const lists = wb.addWorksheet(LIST_SHEET, { state: 'veryHidden' });
  ws.columns = columns.map((c) => ({ header: c.required ? `${c.header}*` : c.header, key: c.key, width: c.width ?? 12 }));
  ws.getRow(1).font = { bold: true };
  const example = ws.addRow(Object.fromEntries(columns.map((c) => [c.key, c.example])));
  example.font = { italic: true, color: { argb: 'FF888888' } };
  let listCol = 0;
  columns.forEach((c, i) => {
    const col = ws.getColumn(i + 1);
    if (c.text) col.numFmt = '@';
    if (c.required) ws.getCell(1, i + 1).font = { bold: true, color: { argb: 'FFCC0000' } };
    const labels = c.options ? Object.values(c.options) : c.suggest;
    if (!labels) return;
    listCol += 1;
    labels.forEach((l, j) => (lists.getCell(j + 1, listCol).value = l));
    const ref = `'${LIST_SHEET}'!$${colName(listCol)}$1:$${colName(listCol)}$${labels.length}`;
    // one range for the whole column (written as one sqref, not one rule per cell); suggestions admit other text
    ws.dataValidations.add(`${colName(i + 1)}2:${colName(i + 1)}${IMPORT_MAX_ROWS + 1}`, {
      type: 'list', allowBlank: !c.required, formulae: [ref], showErrorMessage: !!c.options,
      errorTitle: '取值无效', error: `「${c.header}」请从下拉列表中选择：${labels.join('、')}`,
    });
  });
  help.columns = [{ header: '列', key: 'h', width: 18 }, { header: '必填', key: 'r', width: 8 }, { header: '填写说明', key: 'n', width: 90 }];
  help.getRow(1).font = { bold: true };
  help.addRow({ h: `${title}导入`, r: '', n: '在「导入数据」表中从第 3 行起填写，第 2 行是示例（原样保留时不会导入）；带 * 的列必填。整个文件全部校验通过才会导入，任何一行有错都不会导入任何数据；同一文件重复导入不会重复写入。' });
  for (const c of columns) {
    help.addRow({ h: c.header, r: c.required ? '是' : '', n: c.options ? `${c.note}；可选：${Object.values(c.options).join('、')}` : c.note });
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A cell as the text a person typed (numbers as written, dates as YYYY-MM-DD). */
export function cellText(v: ExcelJS.CellValue): string {
  if (v == null) return '';
  if (v instanceof Date) return v.toISOString().slice(0, 10);
  if (typeof v === 'number') return Number.isInteger(v) ? v.toFixed(0) : String(v);
  if (typeof v === 'boolean') return v ? '是' : '否';
  if (typeof v === 'string') return v.trim();
  if (typeof v === 'object') {
    if ('richText' in v) return v.richText.map((t) => t.text).join('').trim();
    if ('result' in v) return cellText((v.result ?? null) as ExcelJS.CellValue);
    if ('text' in v) return String(v.text).trim();
    if ('error' in v) return '';
  }
  return String(v).trim();
}

export interface SheetRow {
  /** the row number Excel shows */
  row: number;
  values: Record<string, string>;
}

export interface ReadSheet {
  rows: SheetRow[];
  /** headers the kind needs that the file lacks */
  missing: string[];
}

/**
 * Reads the first sheet (or 导入数据): row 1 names the columns (a trailing * is ignored), the rows
 * below are data. Blank rows and a row equal to the template's example are skipped.
 */
export async function readSheet(buf: Buffer, columns: ImportColumn[]): Promise<ReadSheet> {
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  try {
    // the drop-down lists are not read: exceljs would expand each list's range (the template's covers
    // IMPORT_MAX_ROWS rows per column) into one entry per cell, most of the time of reading a template file
    await wb.xlsx.load(new Uint8Array(buf).buffer, { ignoreNodes: ['dataValidations'] });
  } catch {
    throw refuse('IMPORT_FILE_INVALID', '无法读取该文件：请上传由导入模板填写的 .xlsx 文件');
  }
  const ws = wb.getWorksheet(DATA_SHEET) ?? wb.worksheets[0];
  if (!ws) throw refuse('IMPORT_FILE_INVALID', '文件中没有工作表');
  const byIndex = new Map<number, ImportColumn>();
  const known = new Map(columns.map((c) => [c.header, c]));
  ws.getRow(1).eachCell((cell, i) => {
    const c = known.get(cellText(cell.value).replace(/[*＊]\s*$/, '').trim());
    if (c) byIndex.set(i, c);
  });
  const present = new Set([...byIndex.values()].map((c) => c.header));
  const missing = columns.filter((c) => c.required && !present.has(c.header)).map((c) => c.header);
  const example = columns.map((c) => c.example).join('\u0001');
  const rows: SheetRow[] = [];
  for (let r = 2; r <= ws.rowCount; r += 1) {
    const row = ws.getRow(r);
    const values: Record<string, string> = {};
    for (const [i, c] of byIndex) values[c.header] = cellText(row.getCell(i).value);
    if (Object.values(values).every((v) => v === '')) continue;
    if (r === 2 && columns.map((c) => values[c.header] ?? '').join('\u0001') === example) continue;
    rows.push({ row: r, values });
    if (rows.length > IMPORT_MAX_ROWS) throw refuse('IMPORT_TOO_MANY_ROWS', `一个文件最多 ${IMPORT_MAX_ROWS} 行数据，请拆分后分批导入`);
  }
  return { rows, missing };
}
