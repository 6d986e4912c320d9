import type { FieldProblem } from '../api-error.ts';
import type { DataField, FieldValue, ProgramModel, TableColumn, TableSpec } from '../../model/model.ts';
import type { StoredValue } from '../../store/project-queries.ts';
import { checkValue } from './value-check.ts';
import type { TableCellView, TableRowInput } from '../views.ts';

// A table field's value is stored like any other value, as one text: its rows as JSON, each row an object from column
// customId to the cell's text, with only filled cells and keys in column order (`[{"Make":"SMA","Quantity":"2"}]`).
// Every layer that moves values (drafts, submissions, the sealed-values wrapper, exports) moves it unchanged; only
// this module reads it. No rows is no value (null), so a required table needs at least one row.

/** The most rows a table value may hold, whatever its field's maxRows (as multi-value fields take at most 1,000 values). */
export const MAX_TABLE_ROWS = 1000;

const NO_COLUMNS: TableSpec = { columns: [], minRows: null, maxRows: null };

function specOf(field: DataField): TableSpec {
  return field.table ?? NO_COLUMNS;
}

function parseRows(text: string | null): Record<string, unknown>[] {
  if (text === null || text === '') return [];
  try {
    const data = JSON.parse(text) as unknown;
    return Array.isArray(data) ? data.filter((r): r is Record<string, unknown> => r !== null && typeof r === 'object' && !Array.isArray(r)) : [];
  } catch {
    // Not rows: a value saved while the field had another type. It is shown as no rows and replaced by the next save.
    return [];
  }
}

/**
 * The rows of a table field's stored value, for rules over rows (CEL's list of maps): one object per row, in order,
 * from column customId to the cell's text, with only the field's current columns and only filled cells (an empty
 * cell is absent, as an empty single value is). Cells stay strings, as every value does; convert by the column's type.
 */
export function tableRows(field: DataField, value: string | null): Record<string, string>[] {
  const columns = specOf(field).columns;
  return parseRows(value).map((row) => {
    const out: Record<string, string> = {};
    for (const c of columns) {
      const cell = row[c.customId];
      if (typeof cell === 'string' && cell !== '') out[c.customId] = cell;
    }
    return out;
  });
}

/** The rows of a stored value as answers show them: filled cells in column order. */
export function tableRowViews(field: DataField, value: string | null): TableCellView[][] {
  const columns = specOf(field).columns;
  return tableRows(field, value).map((row) => columns.flatMap((c) => (row[c.customId] === undefined ? [] : [{ column: c.customId, value: row[c.customId]! }])));
}

/** The stored text of rows (keys in column order, empty cells left out); null for no rows. */
export function encodeRows(field: DataField, rows: Record<string, string>[]): string | null {
  if (rows.length === 0) return null;
  const columns = specOf(field).columns;
  return JSON.stringify(rows.map((row) => {
    const out: Record<string, string> = {};
    for (const c of columns) if (row[c.customId] !== undefined && row[c.customId] !== '') out[c.customId] = row[c.customId]!;
    return out;
  }));
}

/** Every filled cell of a stored value with its 0-based row, for the search index of submitted tables. */
export function tableCells(field: DataField, value: string | null): { row: number; column: string; value: string }[] {
  return tableRows(field, value).flatMap((row, i) => Object.entries(row).map(([column, text]) => ({ row: i, column, value: text })));
}

/** Values about to be submitted, each of a table field with its cells, which the store keeps for searches on a column. */
export function withTableCells(model: ProgramModel, values: FieldValue[]): StoredValue[] {
  return values.map((v) => {
    const field = model.fields.find((f) => f.id === v.fieldId);
    return field?.type === 'table' ? { ...v, cells: tableCells(field, v.value) } : v;
  });
}

function cellProblem(field: DataField, row: number, column: string, code: string, message: string): FieldProblem {
  return { dataFieldId: field.id, customId: field.customId, name: field.name, code, message, row, column };
}

/** A cell's text checked against its column, as checkValue checks a field's; the problem names field, row and column. */
function checkCell(model: ProgramModel, field: DataField, row: number, column: TableColumn, text: string): FieldProblem | null {
  const asField: DataField = {
    ...field, type: column.type, name: `${field.name}, row ${row}, ${column.name}`, multiValue: false, sensitive: false, listId: column.listId,
    maxLength: column.maxLength, min: column.min, max: column.max, table: null,
  };
  const list = column.listId === null ? undefined : model.lists.find((l) => l.id === column.listId);
  const p = checkValue(asField, list, text);
  return p === null ? null : cellProblem(field, row, column.customId, p.code, p.message);
}

function rowCountProblem(field: DataField, count: number, submit: boolean): FieldProblem | null {
  const { minRows, maxRows } = specOf(field);
  const limit = Math.min(maxRows ?? MAX_TABLE_ROWS, MAX_TABLE_ROWS);
  const base = { dataFieldId: field.id, customId: field.customId, name: field.name };
  if (count > limit) return { ...base, code: 'TOO_MANY_ROWS', message: `${field.name} takes at most ${limit} rows; got ${count}.` };
  if (submit && minRows !== null && count < minRows) return { ...base, code: 'TOO_FEW_ROWS', message: `${field.name} needs at least ${minRows} rows; got ${count}.` };
  return null;
}

/**
 * Resolves the rows a request sends for a table field (null clears it) and checks what is filled: every cell names a
 * column of the table once, and every non-empty cell fits its column; no more rows than maxRows. Required columns and
 * minRows are a submission's checks (tableProblems). Rows are numbered from 1 in problems.
 */
export function resolveTableInput(model: ProgramModel, field: DataField, rows: TableRowInput[] | null): { value: string | null; problems: FieldProblem[] } {
  if (rows === null) return { value: null, problems: [] };
  const problems: FieldProblem[] = [];
  const countProblem = rowCountProblem(field, rows.length, false);
  if (countProblem) return { value: null, problems: [countProblem] };
  const columns = new Map(specOf(field).columns.map((c) => [c.customId, c]));
  const out = rows.map((cells, i) => {
    const row: Record<string, string> = {};
    for (const cell of cells) {
      const column = columns.get(cell.column);
      if (!column) {
        problems.push(cellProblem(field, i + 1, cell.column, 'UNKNOWN_COLUMN', `${field.name} has no column "${cell.column}" (row ${i + 1}).`));
        continue;
      }
      if (Object.hasOwn(row, column.customId)) {
        problems.push(cellProblem(field, i + 1, cell.column, 'DUPLICATE_COLUMN', `${field.name}, row ${i + 1}: column ${column.name} is given more than once.`));
        continue;
      }
      const text = cell.value ?? '';
      row[column.customId] = text;
      const p = text === '' ? null : checkCell(model, field, i + 1, column, text);
      if (p) problems.push(p);
    }
    return row;
  });
  return { value: encodeRows(field, out), problems };
}

/**
 * What keeps a stored table value from being submitted: too few or too many rows, a required column left empty in a
 * row, a cell that no longer fits its column (the program may have changed since the draft was saved).
 */
export function tableProblems(model: ProgramModel, field: DataField, value: string | null): FieldProblem[] {
  const rows = tableRows(field, value);
  const countProblem = rowCountProblem(field, rows.length, true);
  const problems: FieldProblem[] = countProblem ? [countProblem] : [];
  rows.forEach((row, i) => {
    for (const column of specOf(field).columns) {
      const text = row[column.customId];
      if (text === undefined) {
        if (column.required) problems.push(cellProblem(field, i + 1, column.customId, 'REQUIRED', `${field.name}, row ${i + 1}: ${column.name} is required.`));
        continue;
      }
      const p = checkCell(model, field, i + 1, column, text);
      if (p) problems.push(p);
    }
  });
  return problems;
}

/** A table value as people read it (pages, the work queue's CSV): one row per line part, `Column: cell` pairs. */
export function shownTable(model: ProgramModel, field: DataField, value: string | null): string {
  const columns = specOf(field).columns;
  return tableRows(field, value).map((row) => columns.flatMap((c) => {
    const text = row[c.customId];
    if (text === undefined) return [];
    const list = c.listId === null ? undefined : model.lists.find((l) => l.id === c.listId);
    const shown = c.type === 'boolean' ? (text === 'true' ? 'Yes' : text === 'false' ? 'No' : text) : list?.choices.find((x) => x.value === text)?.label ?? text;
    return [`${c.name}: ${shown}`];
  }).join(', ')).join('; ');
}
