import { Readable } from 'node:stream';

// Spreadsheets run a cell that starts with one of these as a formula; such cells are written with a leading quote.
const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV record (RFC 4180, CRLF): cells quoted when they hold a comma, quote or line break, formulas defused. */
export function csvLine(cells: string[]): string {
  return `${cells.map((cell) => {
    const safe = FORMULA_START.test(cell) ? `'${cell}` : cell;
    return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
  }).join(',')}\r\n`;
}

/** A CSV download: its header, then its rows as they are read (a chunk at a time, never all at once). */
export interface CsvRows { header: string[]; rows: AsyncIterable<string[]> }

/** The download as a stream of CSV records, read as the client takes them. */
export function csvStream(csv: CsvRows): Readable {
  return Readable.from((async function* lines() {
    yield csvLine(csv.header);
    for await (const row of csv.rows) yield csvLine(row);
  })());
}
