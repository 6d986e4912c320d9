import { ApiError } from '../api-error.ts';
import { type CsvProblem, readCsvRecords } from '../csv-records.ts';

/** The bounds of a CSV file an import reads: bytes, data rows, columns and characters in one cell. */
export interface CsvBounds { maxBytes: number; maxRows: number; maxColumns: number; maxCellChars: number }

/** One data row of a CSV file: the line it starts on (the header is line 1) and its cells. */
export interface CsvRow { line: number; cells: string[] }

/** A CSV file read: its header's column names and its data rows (blank lines left out). */
export interface CsvTable { columns: string[]; rows: CsvRow[] }

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function badFile(message: string): ApiError {
  return new ApiError('INVALID_REQUEST', `The CSV file cannot be read: ${message}`);
}

/**
 * Reads a CSV file (RFC 4180: comma-separated, fields with commas, quotes or line breaks in double quotes, a quote
 * doubled inside them; CRLF or LF) from its bytes. Refuses, with the line where it went wrong, anything else: a file
 * that is not UTF-8, larger than the bounds, a quote left open, or text after a closing quote. A row whose cell count
 * differs from the header's is kept as it is: the import reports it as that row's problem.
 */
export function readCsv(bytes: Uint8Array, bounds: CsvBounds): CsvTable {
  if (bytes.length > bounds.maxBytes) throw badFile(`it has ${bytes.length} bytes; an import takes at most ${bounds.maxBytes}. Split it into several files.`);
  if (bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))) {
    throw badFile('it is UTF-16; save it as CSV UTF-8.');
  }
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    throw badFile(`it is not UTF-8 (from line ${lineOfFirstBadByte(bytes)}); save it as CSV UTF-8.`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  if (text.includes('\0')) throw badFile(`line ${lineAt(text, text.indexOf('\0'))} holds a NUL character; is it a spreadsheet's binary file rather than CSV?`);
  const records = parseRecords(text, bounds);
  const header = records.shift();
  if (!header || header.cells.every((c) => c.trim() === '')) throw badFile('it has no header line naming the columns.');
  if (records.length > bounds.maxRows) throw badFile(`it has ${records.length} rows; an import takes at most ${bounds.maxRows}. Split it into several files.`);
  return { columns: header.cells.map((c) => c.trim()), rows: records };
}

// Splits the text into records (src/domain/csv-records.ts, strictly), each with the line it starts on; blank lines
// are left out. What stops the reading is refused in the import's words.
function parseRecords(text: string, bounds: CsvBounds): CsvRow[] {
  const { records, problem } = readCsvRecords(text, { strict: true, maxCellChars: bounds.maxCellChars, maxCells: bounds.maxColumns, maxRecords: bounds.maxRows + 1 });
  if (problem) throw badFile(problemText(problem, bounds));
  return records;
}

function problemText(problem: CsvProblem, bounds: CsvBounds): string {
  switch (problem.kind) {
    case 'unclosedQuote': return `the quote opened on line ${problem.line} is never closed.`;
    case 'textAfterQuote': return `line ${problem.line} has text after a closing quote; a quote inside a quoted cell is written twice ("").`;
    case 'quoteInCell': return `line ${problem.line} has a quote inside an unquoted cell; quote the whole cell and write the quote twice ("").`;
    case 'longCell': return `a cell on line ${problem.line} has ${problem.chars} characters; a cell holds at most ${bounds.maxCellChars}.`;
    case 'manyCells': return `line ${problem.line} has more than ${bounds.maxColumns} cells.`;
    case 'manyRecords': return `it has more than ${bounds.maxRows} rows; an import takes at most ${bounds.maxRows}. Split it into several files.`;
  }
}

function countLines(text: string, from: number, to: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (text.charCodeAt(k) === 10) n++;
  return n;
}

function lineAt(text: string, index: number): number {
  return countLines(text, 0, index) + 1;
}

// The line of the first byte sequence that is not UTF-8, for the message (the file is already refused).
function lineOfFirstBadByte(bytes: Uint8Array): number {
  let line = 1;
  let start = 0;
  for (let k = 0; k <= bytes.length; k++) {
    if (k === bytes.length || bytes[k] === 10) {
      try {
        UTF8.decode(bytes.subarray(start, k));
      } catch {
        return line;
      }
      line++;
      start = k + 1;
    }
  }
  return line;
}
