// A sheet's rows of plain cells (strings, numbers, empty) as the XML ExcelJS 4's streaming writer makes
// of them, written straight into its sheet stream (report/xlsx.ts): ExcelJS builds a Row, a Cell, a
// value and a model per cell, then an XML stream per row — ~10 KB of garbage a row, which made the
// young generation's collections frequent enough to promote every batch of rows and every waiting
// chunk of the sheet's XML to the old generation (freed only by a full collection: the export's peak
// memory). Rows with any other kind of cell (dates, booleans, rich values) are still ExcelJS's own.

// eslint-disable-next-line no-control-regex -- the control characters XML 1.0 forbids are what it finds
const XML_SPECIAL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/;
// eslint-disable-next-line no-control-regex -- the same, all of them
const XML_SPECIAL_ALL = /[<>&'"\x7F\x00-\x08\x0B\x0C\x0E-\x1F]/g;
const XML_ESCAPES: Record<string, string> = { '"': '&quot;', '&': '&amp;', "'": '&apos;', '<': '&lt;', '>': '&gt;' };

/** Text as ExcelJS's xmlEncode writes it: the five entities escaped, control characters XML 1.0 forbids dropped. */
export function xmlText(s: string): string {
  return XML_SPECIAL.test(s) ? s.replace(XML_SPECIAL_ALL, (c) => XML_ESCAPES[c] ?? '') : s;
}

/**
 * A number's text, as String(n), without V8's number-to-string cache: String(n) and `${n}` keep the
 * last strings made in a cache that is a GC root, so each survives the young generation's collections
 * and is promoted, to be freed only by a full collection (for a 1,000,000-row export, tens of MB of the
 * old generation). JSON.stringify writes a finite number as ToString(n) without that cache.
 */
function numberText(n: number): string {
  return Number.isFinite(n) ? JSON.stringify(n) : String(n);
}

const LETTERS: string[] = [];
/** A column's letters (1 → A, 27 → AA); null past Excel's 16,384 columns. */
function columnLetters(col: number): string | null {
  if (col > 16384) return null;
  for (let n = LETTERS.length + 1; n <= col; n++) {
    let s = '';
    for (let v = n; v > 0; v = Math.floor((v - 1) / 26)) s = String.fromCharCode(65 + ((v - 1) % 26)) + s;
    LETTERS.push(s);
  }
  return LETTERS[col - 1];
}

/**
 * Row `r`'s XML as ExcelJS writes a row of `cells` (no styles, inline `str` strings): '' for a row with
 * no value (ExcelJS writes none), null when a cell is not a string, number, null or undefined (or the
 * array has a hole at 0, which ExcelJS reads as starting at column 0): that row is ExcelJS's to write.
 */
export function plainRowXml(r: number, cells: readonly unknown[]): string | null {
  if (cells.length && !Object.hasOwn(cells, 0)) return null;
  const row = numberText(r);
  let xml = '';
  let min = 0;
  let max = 0;
  let values = false;
  for (let i = 0; i < cells.length; i++) {
    const v = cells[i];
    if (v === undefined) continue;
    const col = i + 1;
    if (!min) min = col;
    max = col;
    if (v === null) continue;
    const at = columnLetters(col);
    if (at === null) return null;
    if (typeof v === 'string') xml += `<c r="${at}${row}" t="str"><v>${xmlText(v)}</v></c>`;
    else if (typeof v === 'number') xml += `<c r="${at}${row}"><v>${numberText(v)}</v></c>`;
    else return null;
    values = true;
  }
  return values ? `<row r="${row}" spans="${min}:${max}" x14ac:dyDescent="0.25">${xml}</row>` : '';
}

/** How many characters of rows are gathered before they go to the sheet stream in one write. */
const FLUSH_AT = 32 << 10;

/**
 * Plain rows written into ExcelJS's sheet stream, its row count kept in step so that a row ExcelJS
 * writes itself (`ws.addRow`) gets the next number. Internal to ExcelJS 4's WorksheetWriter (`stream`,
 * `_rowZero`, `_rows`, `startedData`): when that shape is not found (or rows are pending in ExcelJS),
 * null, and every row is ExcelJS's.
 */
export class PlainRows {
  private xml = '';
  private count = 0;

  private constructor(
    private readonly ws: object,
    private readonly stream: { write(xml: string): unknown },
  ) {}

  static of(ws: object): PlainRows | null {
    const stream: unknown = Reflect.get(ws, 'stream');
    const write: unknown = stream && typeof stream === 'object' ? Reflect.get(stream, 'write') : null;
    const pending: unknown = Reflect.get(ws, '_rows');
    const ok = typeof Reflect.get(ws, '_rowZero') === 'number' && Array.isArray(pending) && !pending.length && Reflect.get(ws, 'startedData') === true;
    return ok && typeof write === 'function' ? new PlainRows(ws, stream as { write(xml: string): unknown }) : null;
  }

  /** The number of the next row. */
  get next(): number {
    return Number(Reflect.get(this.ws, '_rowZero')) + this.count;
  }

  /** Adds the row if it is plain (true); false when ExcelJS must write it (after `flush`). */
  add(cells: readonly unknown[]): boolean {
    const xml = plainRowXml(this.next, cells);
    if (xml === null) return false;
    this.xml += xml;
    this.count++;
    if (this.xml.length >= FLUSH_AT) this.flush();
    return true;
  }

  /** Writes the rows gathered so far and moves ExcelJS's next row number past them. */
  flush() {
    if (!this.count) return;
    if (this.xml) this.stream.write(this.xml);
    Reflect.set(this.ws, '_rowZero', this.next);
    this.xml = '';
    this.count = 0;
  }
}
