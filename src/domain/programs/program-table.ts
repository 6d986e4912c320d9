import type { ColumnType, FieldType, TableColumn, TableSpec } from '../../model/model.ts';

// The table part of a program file (a field of `type: table`), kept apart from program-file.ts and
// program-check.ts so that those shared files only call in here.

/** A column of a table field as a program file defines it; `list` is a reference (customId or name). */
export interface ColumnSpec {
  customId: string; name: string; type: ColumnType; list: string | null; required: boolean;
  maxLength: number | null; min: number | null; max: number | null;
}

/** The table part of a field in a program file: its columns and row limits (null: no limit). */
export interface TableFileSpec { columns: ColumnSpec[]; minRows: number | null; maxRows: number | null }

/** A column as written in a file: only customId and type are required (name defaults to the customId). */
export interface RawColumn {
  customId: string; name?: string; type: ColumnType; list?: string; required?: boolean; maxLength?: number; min?: number; max?: number;
}

/** The table properties of a raw field. */
export interface RawTableProps { columns?: RawColumn[]; minRows?: number; maxRows?: number }

/** The table part of a raw field with defaults filled in; null when the field has no table properties at all. */
export function normaliseTable(raw: RawTableProps): TableFileSpec | null {
  if (raw.columns === undefined && raw.minRows === undefined && raw.maxRows === undefined) return null;
  return {
    columns: (raw.columns ?? []).map((c) => ({
      customId: c.customId, name: c.name ?? c.customId, type: c.type, list: c.list ?? null, required: c.required ?? false,
      maxLength: c.maxLength ?? null, min: c.min ?? null, max: c.max ?? null,
    })),
    minRows: raw.minRows ?? null, maxRows: raw.maxRows ?? null,
  };
}

/** What a field must satisfy to carry a table part (the field's own checks are program-check.ts's). */
interface FieldLike { type: FieldType; multiValue: boolean; sensitive: boolean; table: TableFileSpec | null }

/** Where a part of the field (a path within it, `[]` for the field) was written: ` (line N, column C)`, or ''. */
export type FieldPartAt = (path: (string | number)[]) => string;

/**
 * Checks the table part of field `where` and resolves each column's list with `lists`; returns the list index per
 * column (null for columns without one), or null for a field that is not a table. Problems are pushed to `problems`,
 * each placed by `at`.
 */
export function checkTableField(
  f: FieldLike, where: string, lists: (ref: string, where: string) => number | null, problems: string[], at: FieldPartAt = () => '',
): (number | null)[] | null {
  if (f.type !== 'table') {
    const key = f.table === null ? null : f.table.columns.length > 0 ? 'columns' : f.table.minRows !== null ? 'minRows' : 'maxRows';
    if (key !== null) problems.push(`${where}${at([key])}: columns, minRows and maxRows apply to table fields only (type is ${f.type})`);
    return null;
  }
  // A table already holds many rows, so a list of tables would be a second, unnamed dimension; and a table's cells
  // are searched by column, which sealed values (a blind index per whole value) could not answer.
  if (f.multiValue) problems.push(`${where}${at(['multiValue'])}: a table field cannot be multiValue (it already holds a list of rows)`);
  if (f.sensitive) problems.push(`${where}${at(['sensitive'])}: a table field cannot be sensitive (keep sensitive data in a field of its own)`);
  const table = f.table;
  if (table === null || table.columns.length === 0) {
    problems.push(`${where}${at(table === null ? [] : ['columns'])}: a table field needs at least one column`);
    return [];
  }
  if (table.minRows !== null && table.maxRows !== null && table.minRows > table.maxRows) {
    problems.push(`${where}${at(['minRows'])}: minRows (${table.minRows}) is greater than maxRows (${table.maxRows})`);
  }
  const seen = { customId: new Set<string>(), name: new Set<string>() };
  table.columns.forEach((c, j) => {
    for (const key of ['customId', 'name'] as const) {
      if (seen[key].has(c[key])) problems.push(`${where}${at(['columns', j, key])}: two columns have the ${key} "${c[key]}"`);
      seen[key].add(c[key]);
    }
  });
  return table.columns.map((c, j) => checkColumn(c, `${where}: column "${c.customId}"`, lists, problems, (path) => at(['columns', j, ...path])));
}

function checkColumn(c: ColumnSpec, column: string, lists: (ref: string, where: string) => number | null, problems: string[], at: FieldPartAt): number | null {
  // Each problem is placed at the property that makes it (the column's type when the property is missing).
  const where = (key: string) => `${column}${at([key])}`;
  const numeric = c.type === 'number' || c.type === 'integer';
  if (c.type === 'choice' && c.list === null) problems.push(`${where('type')}: a choice column needs a list`);
  if (c.type !== 'choice' && c.list !== null) problems.push(`${where('list')}: only choice columns have a list (type is ${c.type})`);
  if (c.maxLength !== null && c.type !== 'text') problems.push(`${where('maxLength')}: maxLength applies to text columns only (type is ${c.type})`);
  if ((c.min !== null || c.max !== null) && !numeric) problems.push(`${where(c.min !== null ? 'min' : 'max')}: min and max apply to number and integer columns only (type is ${c.type})`);
  if (c.min !== null && c.max !== null && c.min > c.max) problems.push(`${where('min')}: min (${c.min}) is greater than max (${c.max})`);
  for (const [key, value] of [['min', c.min], ['max', c.max]] as const) {
    if (c.type === 'integer' && value !== null && !Number.isInteger(value)) problems.push(`${where(key)}: ${key} of an integer column must be a whole number`);
  }
  return c.type === 'choice' && c.list !== null ? lists(c.list, `${where('list')}: list`) : null;
}

/** The stored table definition of a file's table part, with each column's list id from `listIdOf`. */
export function tableSpecOf(table: TableFileSpec | null, listIdOf: (columnIndex: number) => string | null): TableSpec | null {
  if (table === null) return null;
  return canonicalTable({
    columns: table.columns.map((c, i) => ({
      customId: c.customId, name: c.name, type: c.type, listId: listIdOf(i), required: c.required, maxLength: c.maxLength, min: c.min, max: c.max,
    })),
    minRows: table.minRows, maxRows: table.maxRows,
  });
}

/** A table definition with its properties in one order, so that a stored copy compares equal to a planned one. */
export function canonicalTable(t: TableSpec): TableSpec {
  return {
    columns: t.columns.map((c): TableColumn => ({
      customId: c.customId, name: c.name, type: c.type, listId: c.listId ?? null, required: c.required ?? false,
      maxLength: c.maxLength ?? null, min: c.min ?? null, max: c.max ?? null,
    })),
    minRows: t.minRows ?? null, maxRows: t.maxRows ?? null,
  };
}

/** The table part of a stored field as a file writes it, with list references from `refOf`. */
export function tableFileOf(table: TableSpec | null | undefined, refOf: (listId: string) => string): TableFileSpec | null {
  if (!table) return null;
  return {
    columns: table.columns.map((c) => ({
      customId: c.customId, name: c.name, type: c.type, list: c.listId === null ? null : refOf(c.listId), required: c.required,
      maxLength: c.maxLength, min: c.min, max: c.max,
    })),
    minRows: table.minRows, maxRows: table.maxRows,
  };
}

/** The table part in a file's shortest form: defaults left out, as the rest of an exported file. */
export function compactTable(table: TableFileSpec | null): Record<string, unknown> {
  if (table === null) return {};
  const columns = table.columns.map((c) => Object.fromEntries(Object.entries({
    customId: c.customId, name: c.name === c.customId ? null : c.name, type: c.type, list: c.list, required: c.required || null,
    maxLength: c.maxLength, min: c.min, max: c.max,
  }).filter(([, v]) => v !== null)));
  return Object.fromEntries(Object.entries({ columns, minRows: table.minRows, maxRows: table.maxRows }).filter(([, v]) => v !== null));
}
