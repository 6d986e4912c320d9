import { ApiError } from '../api-error.ts';
import type { ColumnType, DataField } from '../../model/model.ts';
import type { DataFieldInput } from '../views.ts';
import { encodeRows, MAX_TABLE_ROWS, tableRows } from './table-values.ts';

// How a web form page posts a table field (docs/web.md, "Table fields"): one control per cell, named
// `<field id>.<row>.<column customId>` (rows from 0, in the order shown), a hidden `<field id>.rows` with the number of
// rows shown, and the buttons "Add row" (action `addrow:<field id>`) and "Remove" (action `removerow:<field id>:<row>`).
// Both buttons are ordinary submit buttons of the page's one form, so they work without JavaScript: the route saves
// the draft with the row added or removed and shows the page again.

/** The name of the control of one cell. */
export function tableCellKey(fieldId: string, row: number, column: string): string {
  return `${fieldId}.${row}.${column}`;
}

/** The name of the hidden control holding how many rows the page showed. */
export function tableCountKey(fieldId: string): string {
  return `${fieldId}.rows`;
}

/** The action of a table's "Add row" button. */
export function addRowAction(fieldId: string): string {
  return `addrow:${fieldId}`;
}

/** The action of the "Remove" button of a table's row (from 0). */
export function removeRowAction(fieldId: string, row: number): string {
  return `removerow:${fieldId}:${row}`;
}

/** Which table a post's action adds a row to or removes one from, if any. */
export function tableAction(raw: Record<string, unknown>): { fieldId: string; add: boolean } | null {
  const action = typeof raw.action === 'string' ? raw.action : '';
  const m = /^(addrow|removerow):([^:]+)/.exec(action);
  return m ? { fieldId: m[2]!, add: m[1] === 'addrow' } : null;
}

function one(raw: unknown, name: string): string {
  if (raw === undefined) return '';
  if (typeof raw === 'string') return raw;
  throw new ApiError('INVALID_PARAMETER', `Send the form field ${name} once.`);
}

/**
 * The rows a page posted for a table field, with the row its pressed button added or removed, or null when the page
 * had no such table. Text cells are kept as typed; other cells are trimmed (they have one spelling).
 */
export function postedRows(fieldId: string, columns: { customId: string; type: ColumnType }[], raw: Record<string, unknown>): Record<string, string>[] | null {
  const countKey = tableCountKey(fieldId);
  if (!(countKey in raw)) return null;
  const count = Number(one(raw[countKey], countKey));
  if (!Number.isSafeInteger(count) || count < 0 || count > MAX_TABLE_ROWS) throw new ApiError('INVALID_PARAMETER', `${countKey} must be a number of rows from 0 to ${MAX_TABLE_ROWS}.`);
  const rows: Record<string, string>[] = [];
  for (let i = 0; i < count; i++) {
    const row: Record<string, string> = {};
    for (const c of columns) {
      const key = tableCellKey(fieldId, i, c.customId);
      const text = one(raw[key], key);
      const value = c.type === 'text' ? text : text.trim();
      if (value.trim() !== '') row[c.customId] = value;
    }
    rows.push(row);
  }
  const action = typeof raw.action === 'string' ? raw.action : '';
  if (action === addRowAction(fieldId)) rows.push({});
  const removed = new RegExp(`^removerow:${fieldId.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:(\\d+)$`).exec(action);
  if (removed && Number(removed[1]) < rows.length) rows.splice(Number(removed[1]), 1);
  return rows;
}

/**
 * The SetProjectData input of a table field from a page's post: its whole rows (a SetProjectData replaces the table),
 * or null when the page had no such table or it is as the page showed it (`shown`, the stored text it showed).
 */
export function tableDraftInput(field: DataField, raw: Record<string, unknown>, shown: string | null): DataFieldInput | null {
  const columns = field.table?.columns ?? [];
  const rows = postedRows(field.id, columns, raw);
  if (rows === null) return null;
  if (shown !== null && encodeRows(field, rows) === encodeRows(field, tableRows(field, shown))) return null;
  return {
    dataFieldId: field.id, value: null, values: null,
    rows: rows.map((row) => columns.flatMap((c) => (row[c.customId] === undefined ? [] : [{ column: c.customId, value: row[c.customId]! }]))),
  };
}
