import type { TableCellView, TableRowInput } from '../../domain/views.ts';
import { complex, many, optional, required, restrict, string, type WireValue } from '../wire-type.ts';

/** `<Cell Column [Value]/>`: one cell of a table row; Column is the column's CustomId, a Cell without Value is empty. */
const TableCell = complex({
  name: 'TableCell',
  attributes: { Column: required(restrict(string, { name: 'ColumnId', minLength: 1 })), Value: optional(string) },
});

const TableRow = complex({ name: 'TableRow', doc: 'One row of a table field: a Cell per filled column, in column order.', children: { Cell: many(TableCell) } });

/**
 * `<Rows><Row><Cell Column="Quantity" Value="2"/>…</Row>…</Rows>`: the value of a table field, rows in order. Answers
 * write only filled cells; a request may send empty ones (no Value), which are the same as leaving them out.
 */
export const TableRows = complex({
  name: 'TableRows',
  doc: 'The rows of a table field in order, each a Cell per filled column (Column is the column\'s CustomId). In a '
    + 'request, Rows replaces the whole table; Rows without a Row clears it.',
  children: { Row: many(TableRow) },
});

/** The Rows value of a table's rows, or null (no Rows element) when there are none. */
export function tableRowsValue(rows: TableCellView[][] | null | undefined): WireValue<typeof TableRows> | null {
  if (!rows || rows.length === 0) return null;
  return { Row: rows.map((cells) => ({ Cell: cells.map((c) => ({ Column: c.column, Value: c.value })) })) };
}

/** The rows a request's Rows element sends. */
export function tableRowsInput(value: WireValue<typeof TableRows>): TableRowInput[] {
  return value.Row.map((row) => row.Cell.map((c) => ({ column: c.Column, value: c.Value ?? null })));
}
