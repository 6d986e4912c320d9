// The one CSV reader of src/domain, shared by the project import (src/domain/imports/csv-table.ts, strict: it refuses
// what it cannot read for sure) and the long lists (src/domain/lists/list-csv.ts, lenient as spreadsheets are). Each
// caller words its own messages from the problem this gives, and sets its own limits.

/** A record of a CSV text: its cells and the line (1-based) it starts on. */
export interface CsvRecord { line: number; cells: string[] }

/** Why reading stopped, at the line where it went wrong. */
export type CsvProblem =
  /** A quoted cell never closed: `line` where its quote opened, `recordLine` where its record starts. */
  | { kind: 'unclosedQuote'; line: number; recordLine: number }
  /** Strict: text between a closing quote and the next separator. */
  | { kind: 'textAfterQuote'; line: number }
  /** Strict: a quote inside a cell that does not start with one. */
  | { kind: 'quoteInCell'; line: number }
  /** A cell longer than maxCellChars (`chars`), on the line it ends on. */
  | { kind: 'longCell'; line: number; chars: number }
  /** A record of more than maxCells cells, at the line it starts on. */
  | { kind: 'manyCells'; line: number }
  /** More than maxRecords records. */
  | { kind: 'manyRecords'; line: number };

/** How to read: strictly or as spreadsheets do, and the limits past which reading stops (none when absent). */
export interface CsvReading {
  /** Refuse text after a closing quote and a quote inside an unquoted cell (else: the text belongs to the cell). */
  strict?: boolean;
  maxCellChars?: number; maxCells?: number; maxRecords?: number;
}

/** What reading gave: the records up to the problem that stopped it, if any. */
export interface CsvRecords { records: CsvRecord[]; problem: CsvProblem | null }

const UNQUOTED_END = /[,\r\n]/g;

function linesIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

// The end of an unquoted run from `from`: the next comma, line break, or the end of the text.
function runEnd(body: string, from: number): number {
  UNQUOTED_END.lastIndex = from;
  const m = UNQUOTED_END.exec(body);
  return m ? m.index : body.length;
}

/**
 * Reads CSV text as RFC 4180 writes it: cells separated by commas, records by CRLF, LF or a lone CR; a cell in
 * double quotes may hold commas, line breaks and doubled quotes. A byte-order mark is dropped; blank lines are
 * skipped. Cells are sliced from the text, never built a character at a time (a list's file is megabytes).
 */
export function readCsvRecords(text: string, reading: CsvReading = {}): CsvRecords {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  const stop = (problem: CsvProblem): CsvRecords => ({ records, problem });
  let cells: string[] = [];
  let line = 1;
  let start = 1;
  let i = 0;
  while (i <= body.length) {
    let cell: string;
    if (body[i] === '"') {
      // A quoted cell ends at a quote that is not doubled.
      const opened = line;
      let end = i + 1;
      const parts: string[] = [];
      for (;;) {
        const q = body.indexOf('"', end);
        if (q < 0) return stop({ kind: 'unclosedQuote', line: opened, recordLine: start });
        parts.push(body.slice(end, q));
        if (body[q + 1] === '"') {
          parts.push('"');
          end = q + 2;
          continue;
        }
        end = q + 1;
        break;
      }
      cell = parts.join('');
      line += linesIn(cell);
      i = runEnd(body, end);
      if (i > end && reading.strict) return stop({ kind: 'textAfterQuote', line });
      // Leniently, what stands between the closing quote and the separator belongs to the cell, as spreadsheets read it.
      cell += body.slice(end, i);
    } else {
      const end = runEnd(body, i);
      cell = body.slice(i, end);
      if (reading.strict && cell.includes('"')) return stop({ kind: 'quoteInCell', line });
      i = end;
    }
    if (reading.maxCellChars !== undefined && cell.length > reading.maxCellChars) return stop({ kind: 'longCell', line, chars: cell.length });
    cells.push(cell);
    if (reading.maxCells !== undefined && cells.length > reading.maxCells) return stop({ kind: 'manyCells', line: start });
    const sep = body[i];
    if (sep === ',') {
      i++;
      continue;
    }
    // End of a record (a line break, or the end of the text): a blank line is no record.
    if (cells.length > 1 || cells[0] !== '') records.push({ line: start, cells });
    if (reading.maxRecords !== undefined && records.length > reading.maxRecords) return stop({ kind: 'manyRecords', line: start });
    cells = [];
    if (sep === '\r' && body[i + 1] === '\n') i++;
    i++;
    line++;
    start = line;
  }
  return { records, problem: null };
}
