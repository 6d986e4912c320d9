/** The column names of a table field's rows, kept out of sight of templates (for `rowsTable`). */
const COLUMNS = Symbol('columns');

/** A table field's rows as a template sees them: a list of rows keyed by column customId, knowing its columns' names. */
export type TableRows = Record<string, unknown>[] & { [COLUMNS]?: { customId: string; name: string }[] };

/** Rows of a table field for a template, carrying their columns for `rowsTable`. */
export function tableRows(rows: Record<string, unknown>[], columns: { customId: string; name: string }[]): TableRows {
  const out: TableRows = [...rows];
  Object.defineProperty(out, COLUMNS, { value: columns, enumerable: false });
  return out;
}

// Every ASCII punctuation character Markdown could read as syntax; a backslash before any of them is a literal.
const SYNTAX = /[\\`*_{}[\]<>()#+\-.!|~=:&"']/g;

/**
 * A value as Markdown text that shows it as written: syntax characters escaped, line breaks as spaces (a value
 * cannot start a heading, a list or a table row), a list as its items joined by commas.
 */
export function markdownText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map(markdownText).filter((s) => s !== '').join(', ');
  if (typeof value === 'object') return '';
  return String(value).replace(/\s*[\r\n]+\s*/g, ' ').replace(SYNTAX, '\\$&');
}

/** The `rowsTable` filter: a table field's rows as a Markdown table, headed by its columns' names (nothing for no rows). */
export function rowsTable(value: unknown): string {
  if (!Array.isArray(value) || value.length === 0) return '';
  const rows = value as TableRows;
  const columns = rows[COLUMNS] ?? Object.keys(rows[0] ?? {}).map((k) => ({ customId: k, name: k }));
  if (columns.length === 0) return '';
  const line = (cells: string[]) => `| ${cells.map((c) => c || ' ').join(' | ')} |`;
  return ['', line(columns.map((c) => markdownText(c.name))), line(columns.map(() => '---')),
    ...rows.map((r) => line(columns.map((c) => markdownText(r[c.customId])))), ''].join('\n');
}
