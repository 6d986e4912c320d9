/** A record of a CSV file: its cells and the line (1-based) it starts on. */
export interface CsvRecord { line: number; cells: string[] }

/** What reading a CSV text gave: its records in order, or the problem that stopped it (an unclosed quote). */
export interface CsvText { records: CsvRecord[]; problem: { line: number; message: string } | null }

const UNQUOTED_END = /[,\r\n]/g;

function linesIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Reads CSV text as RFC 4180 writes it: cells separated by commas, records by CRLF or LF, a cell in double quotes
 * may hold commas, line breaks and doubled quotes. A byte-order mark is dropped; blank lines are skipped. Cells are
 * sliced from the text, never built a character at a time (a list's file is megabytes).
 */
export function readCsv(text: string): CsvText {
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let line = 1;
  let start = 1;
  let i = 0;
  while (i <= body.length) {
    let cell: string;
    if (body[i] === '"') {
      // A quoted cell ends at a quote that is not doubled.
      let end = i + 1;
      const parts: string[] = [];
      for (;;) {
        const q = body.indexOf('"', end);
        if (q < 0) return { records, problem: { line: start, message: 'a quoted cell is not closed (a " is missing)' } };
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
      // Anything between the closing quote and the next separator belongs to the cell, as spreadsheets read it.
      UNQUOTED_END.lastIndex = end;
      const m = UNQUOTED_END.exec(body);
      const stop = m ? m.index : body.length;
      cell += body.slice(end, stop);
      i = stop;
    } else {
      UNQUOTED_END.lastIndex = i;
      const m = UNQUOTED_END.exec(body);
      const stop = m ? m.index : body.length;
      cell = body.slice(i, stop);
      i = stop;
    }
    cells.push(cell);
    const sep = body[i];
    if (sep === ',') {
      i++;
      continue;
    }
    // End of a record (a line break, or the end of the text): a blank line is no record.
    if (cells.length > 1 || cells[0] !== '') records.push({ line: start, cells });
    cells = [];
    if (sep === '\r' && body[i + 1] === '\n') i++;
    i++;
    line++;
    start = line;
  }
  return { records, problem: null };
}
