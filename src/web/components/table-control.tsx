import type { FormFieldView, FormTableView } from '../../domain/projects/application-service.ts';
import { TableBox } from './table-box.tsx';
import { addRowAction, removeRowAction, tableCellKey, tableCountKey } from '../../domain/projects/table-inputs.ts';
import { controlId } from './field-control.tsx';

/** A problem of one table field shown beside it: its message and, for a cell, the row (from 1) and column. */
export interface TableProblem { message: string; row?: number; column?: string }

/** The id of a cell's control (row from 0): what the error summary links to for a problem of that cell. */
export function cellControlId(fieldId: string, row: number, column: string): string {
  return `${controlId(fieldId)}-${row}-${column}`;
}

type Column = FormTableView['columns'][number];

function columnHint(c: Column): string | null {
  const range = c.min !== null && c.max !== null ? ` from ${c.min} to ${c.max}` : c.min !== null ? ` of at least ${c.min}` : c.max !== null ? ` of at most ${c.max}` : '';
  if (c.longList) return `A key of the list ${c.longList}, as the list writes it.`;
  if (c.type === 'number') return `A number${range}.`;
  if (c.type === 'integer') return `A whole number${range}.`;
  if (c.type === 'text' && c.maxLength !== null) return `At most ${c.maxLength} characters.`;
  return null;
}

function tableHint(t: FormTableView): string {
  const limits = t.minRows !== null && t.minRows > 0 ? `At least ${t.minRows} and at most ${t.maxRows} rows.` : `At most ${t.maxRows} rows.`;
  return `One row per item. ${limits} "Add row" and "Remove" save your draft and show the form again.`;
}

function Cell(p: { fieldId: string; row: number; c: Column; value: string; invalid: boolean; hintId: string | null }) {
  const { c } = p;
  const id = cellControlId(p.fieldId, p.row, c.customId);
  const common = { id, name: tableCellKey(p.fieldId, p.row, c.customId), 'aria-invalid': p.invalid ? true : undefined, 'aria-describedby': p.hintId ?? undefined };
  // Every cell has its own label (column and row), read by screen readers; sighted users see the column heading.
  const label = <label class="usa-sr-only" for={id}>{`${c.name}, row ${p.row + 1}`}</label>;
  if ((c.type === 'choice' && !c.longList) || c.type === 'boolean') {
    const choices = c.type === 'boolean' ? [{ value: 'true', label: 'Yes' }, { value: 'false', label: 'No' }] : (c.choices ?? []);
    const known = choices.some((x) => x.value === p.value);
    return (
      <td>
        {label}
        <select class="usa-select" {...common}>
          <option value="">Choose…</option>
          {choices.map((x) => <option key={x.value} value={x.value} selected={x.value === p.value}>{x.label}</option>)}
          {/* A saved value the list no longer has stays visible, so saving the page does not silently drop it. */}
          {p.value !== '' && !known ? <option value={p.value} selected>{p.value}</option> : null}
        </select>
      </td>
    );
  }
  const inputMode = c.type === 'number' ? 'decimal' : c.type === 'integer' ? 'numeric' : undefined;
  return <td>{label}{c.type === 'date' ? <input class="usa-input" type="date" {...common} value={p.value} /> : <input class="usa-input" type="text" {...common} value={p.value} inputMode={inputMode} />}</td>;
}

/**
 * A table field as an HTML table: a caption naming it, a heading per column, one row of labelled inputs per row with a
 * "Remove" button, and an "Add row" button. Both buttons are submit buttons of the page's form (no script): the route
 * saves the draft with the row added or removed and shows the page again. A hidden control says how many rows were shown.
 */
export function TableControl(p: { f: FormFieldView; rows: Record<string, string>[]; problems: TableProblem[] }) {
  const { f } = p;
  const table = f.table!;
  const id = controlId(f.fieldId);
  const hintId = `${id}-hint`;
  const cellInvalid = (row: number, column: string) => p.problems.some((x) => x.row === row + 1 && x.column === column);
  const errorId = p.problems.length > 0 ? `${id}-error` : null;
  const full = p.rows.length >= (table.maxRows ?? Number.POSITIVE_INFINITY);
  return (
    <fieldset class={`usa-fieldset usa-form-group table-field${p.problems.length > 0 ? ' usa-form-group--error' : ''}`}>
      <legend class="usa-legend">{f.name}{f.required ? <span class="usa-hint usa-hint--required"> (required)</span> : null}</legend>
      <p class="usa-hint" id={hintId}>{tableHint(table)}</p>
      {p.problems.length > 0 ? (
        <div class="usa-error-message" id={errorId!}>
          <span class="usa-sr-only">Error: </span>
          {p.problems.length === 1 ? p.problems[0]!.message : <ul class="usa-list">{p.problems.map((x) => <li key={`${x.row}-${x.column}-${x.message}`}>{x.message}</li>)}</ul>}
        </div>
      ) : null}
      <input type="hidden" name={tableCountKey(f.fieldId)} value={String(p.rows.length)} />
      {/* A box that scrolls must hold something the keyboard can reach (WCAG 2.1.1): a table without rows (a new
          form, a preview in a disabled fieldset) has no inputs, so it does not scroll; its headings wrap instead. */}
      <div class={p.rows.length > 0 ? 'usa-table-container--scrollable' : 'table-without-rows'}>
        <table class="usa-table" id={id} tabIndex={-1} aria-describedby={[hintId, errorId].filter(Boolean).join(' ')}>
          {/* The legend names the table for sight; the caption names it for screen readers' table navigation. */}
          <caption class="usa-sr-only">{f.name}</caption>
          <thead>
            <tr>
              {table.columns.map((c) => {
                const hint = columnHint(c);
                return (
                  <th key={c.customId} scope="col">
                    {c.name}{c.required ? <span class="usa-hint usa-hint--required"> (required)</span> : null}
                    {hint ? <span class="usa-hint column-hint" id={`${id}-hint-${c.customId}`}>{hint}</span> : null}
                  </th>
                );
              })}
              <th scope="col"><span class="usa-sr-only">Row actions</span></th>
            </tr>
          </thead>
          <tbody>
            {p.rows.length === 0 ? (
              <tr><td colSpan={table.columns.length + 1}>No rows yet.</td></tr>
            ) : p.rows.map((row, i) => (
              <tr key={`row-${i}`}>
                {table.columns.map((c) => (
                  <Cell key={c.customId} fieldId={f.fieldId} row={i} c={c} value={row[c.customId] ?? ''} invalid={cellInvalid(i, c.customId)}
                    hintId={columnHint(c) ? `${id}-hint-${c.customId}` : null} />
                ))}
                <td>
                  <button type="submit" class="usa-button usa-button--outline" name="action" value={removeRowAction(f.fieldId, i)}>
                    Remove<span class="usa-sr-only"> row {i + 1} of {f.name}</span>
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {full ? null : <div class="actions"><button type="submit" class="usa-button usa-button--outline" name="action" value={addRowAction(f.fieldId)}>Add row<span class="usa-sr-only"> to {f.name}</span></button></div>}
    </fieldset>
  );
}

/** A table field's rows read-only: the same table without inputs (a form that cannot be changed now). */
export function TableView(p: { f: FormFieldView; rows: Record<string, string>[] }) {
  const table = p.f.table!;
  if (p.rows.length === 0) return <>—</>;
  const shown = (c: Column, text: string | undefined) => {
    if (text === undefined) return '—';
    if (c.type === 'boolean') return text === 'true' ? 'Yes' : text === 'false' ? 'No' : text;
    return c.choices?.find((x) => x.value === text)?.label ?? text;
  };
  return (
    <TableBox label={p.f.name}>
      <table class="usa-table">
        <caption class="usa-sr-only">{p.f.name}</caption>
        <thead><tr>{table.columns.map((c) => <th key={c.customId} scope="col">{c.name}</th>)}</tr></thead>
        <tbody>{p.rows.map((row, i) => <tr key={`row-${i}`}>{table.columns.map((c) => <td key={c.customId}>{shown(c, row[c.customId])}</td>)}</tr>)}</tbody>
      </table>
    </TableBox>
  );
}
