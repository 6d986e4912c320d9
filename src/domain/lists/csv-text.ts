/** A record of a CSV file: its cells and the line (1-based) it starts on. */
export interface CsvRecord { line: number; cells: string[] }

/** What reading a CSV text gave: its records in order, or the problem that stopped it (an unclosed quote). */
export interface CsvText { records: CsvRecord[]; problem: { line: number; message: string } | null }

/**
 * Reads CSV text as RFC 4180 writes it: cells separated by commas, records by CRLF or LF, a cell in double quotes
 * may hold commas, line breaks and doubled quotes. A byte-order mark is dropped; blank lines are skipped.
 */
export function readCsv(text: string): CsvText {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  let quoted = false;
  let touched = false;
  const end = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '' || touched) records.push({ line: start, cells });
    cells = [];
    cell = '';
    touched = false;
  };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  for (let i = 0; i < body.length; i++) {
    const ch = body[i]!;
    if (quoted) {
      if (ch === '"' && body[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell === '') {
      quoted = true;
      touched = true;
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
      touched = true;
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && body[i + 1] === '\n') i++;
      end();
      line++;
      start = line;
    } else cell += ch;
  }
  if (quoted) return { records, problem: { line: start, message: 'a quoted cell is not closed (a " is missing)' } };
  if (cell !== '' || cells.length > 0 || touched) end();
  return { records, problem: null };
}
