import type { ListColumn, ListRowSource } from '../../model/model.ts';
import type { ListRowInput } from '../../store/list-row-queries.ts';
import { readCsvRecords } from '../csv-records.ts';
import { searchWords } from './list-words.ts';

/** The most rows a list may hold. */
export const MAX_LIST_ROWS = 100_000;

/** The longest cell a list's CSV file may have, in characters. */
export const MAX_CELL_CHARS = 1000;

/** A problem of a CSV file, at its line (1-based; 1 is the header). */
export interface CsvProblem { line: number; message: string }

/** The rows a CSV file gives a list, and every problem found (rows are only loaded when there are none). */
export interface ListCsv { rows: ListRowInput[]; problems: CsvProblem[]; ignoredColumns: string[] }

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/;
const INTEGER = /^-?\d+$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function cellProblem(column: ListColumn, text: string): string | null {
  switch (column.type) {
    case 'text': return null;
    case 'number': return NUMBER.test(text) ? null : 'must be a number';
    case 'integer': return INTEGER.test(text) ? null : 'must be a whole number';
    case 'boolean': return text === 'true' || text === 'false' ? null : 'must be true or false';
    case 'date': return DATE.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) ? null : 'must be a date as yyyy-MM-dd';
  }
}

/**
 * Reads a list's CSV file against the columns its program declares: a header naming every declared column (others
 * are ignored), then one row per line, each key filled in and unique, each cell of its column's type (empty cells
 * are allowed but in the key and label columns).
 */
export function readListCsv(source: ListRowSource, text: string): ListCsv {
  // Read as spreadsheets read it; only a quote left open stops it (the rows before it are still checked).
  const { records, problem } = readCsvRecords(text);
  const problems: CsvProblem[] = problem?.kind === 'unclosedQuote' ? [{ line: problem.recordLine, message: 'a quoted cell is not closed (a " is missing)' }] : [];
  const header = records[0];
  if (!header) return { rows: [], problems: [...problems, { line: 1, message: 'the file is empty: its first line must name the columns' }], ignoredColumns: [] };
  const index = new Map<string, number>();
  header.cells.forEach((name, i) => {
    const n = name.trim();
    if (index.has(n)) problems.push({ line: header.line, message: `the column "${n}" is named twice` });
    else index.set(n, i);
  });
  const missing = source.columns.filter((c) => !index.has(c.name)).map((c) => c.name);
  if (missing.length > 0) problems.push({ line: header.line, message: `the header lacks the column${missing.length === 1 ? '' : 's'} ${missing.map((m) => `"${m}"`).join(', ')}` });
  const declared = new Set(source.columns.map((c) => c.name));
  const ignoredColumns = [...index.keys()].filter((n) => !declared.has(n) && n !== '');
  if (missing.length > 0) return { rows: [], problems, ignoredColumns };
  if (records.length - 1 > MAX_LIST_ROWS) return { rows: [], problems: [...problems, { line: records[MAX_LIST_ROWS + 1]!.line, message: `a list holds at most ${MAX_LIST_ROWS} rows` }], ignoredColumns };
  const rows: ListRowInput[] = [];
  const keys = new Map<string, number>();
  for (const record of records.slice(1)) {
    const rowProblems = checkRecord(source, index, header.cells.length, record, keys);
    problems.push(...rowProblems);
    if (rowProblems.length === 0) rows.push(rowOf(source, index, record));
  }
  return { rows, problems, ignoredColumns };
}

function checkRecord(source: ListRowSource, index: Map<string, number>, width: number, record: { line: number; cells: string[] }, keys: Map<string, number>): CsvProblem[] {
  const at = (message: string) => ({ line: record.line, message });
  if (record.cells.length !== width) return [at(`has ${record.cells.length} cells; the header names ${width} columns`)];
  const out: CsvProblem[] = [];
  const cellOf = (name: string) => record.cells[index.get(name)!]!.trim();
  for (const column of source.columns) {
    const text = cellOf(column.name);
    if (text.length > MAX_CELL_CHARS) out.push(at(`${column.name}: a cell holds at most ${MAX_CELL_CHARS} characters`));
    else if (text === '') {
      if (column.name === source.key || column.name === source.label) out.push(at(`${column.name} is empty (the ${column.name === source.key ? 'key' : 'label'} of each row must be filled in)`));
    } else {
      const wrong = cellProblem(column, text);
      if (wrong) out.push(at(`${column.name} ${wrong}; got "${text.slice(0, 60)}"`));
    }
  }
  const key = cellOf(source.key);
  const first = keys.get(key);
  if (key !== '' && first !== undefined) out.push(at(`${source.key} "${key.slice(0, 60)}" is also the key of line ${first}`));
  else if (key !== '') keys.set(key, record.line);
  return out;
}

function rowOf(source: ListRowSource, index: Map<string, number>, record: { cells: string[] }): ListRowInput {
  const data: Record<string, string> = {};
  for (const column of source.columns) {
    const text = record.cells[index.get(column.name)!]!.trim();
    if (text !== '') data[column.name] = text;
  }
  const value = data[source.key]!;
  const label = data[source.label] ?? value;
  return { value, label, data, words: [...new Set([...searchWords(value), ...(label === value ? [] : searchWords(label, false))])] };
}
