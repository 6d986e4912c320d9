import { ApiError, type FieldProblem } from '../api-error.ts';
import type { FieldValue, ProgramModel, Status } from '../../model/model.ts';
import type { DataFieldInput } from '../views.ts';
import { resolveInputs } from '../projects/field-rules.ts';
import type { CsvRow } from './csv-table.ts';
import type { ColumnPlan, ImportProblem } from './import-columns.ts';
import type { FormValues } from './imported-values.ts';

/** The longest external id an import takes. */
export const MAX_EXTERNAL_ID_CHARS = 200;

/** A row read and checked: what it makes or updates, or its problems (then it is refused and nothing is tried). */
export interface PlannedRow {
  line: number;
  externalId: string | null;
  /** The owner's user id and e-mail address, or null: the importing admin owns a new project, an existing one keeps its owner. */
  owner: { id: string; email: string } | null;
  /** The status a new project starts in (null: the program's initial status). */
  status: Status | null;
  forms: FormValues[];
  problems: ImportProblem[];
}

/** Finds the owner named by an e-mail address: their user id, or the reason they cannot own a project of the program. */
export type OwnerLookup = (email: string) => Promise<{ id: string } | { problem: string }>;

/**
 * Reads one row against the column plan: its external id (required, unique within the file), owner, starting status
 * and values, each value checked against its field's type, list and limits as SetProjectData checks it. An empty cell
 * writes nothing (the value stays as it is); a multi-value field's values are separated by semicolons.
 */
export async function planRow(model: ProgramModel, plan: ColumnPlan, row: CsvRow, seen: Map<string, number>, ownerOf: OwnerLookup): Promise<PlannedRow> {
  const planned: PlannedRow = { line: row.line, externalId: null, owner: null, status: null, forms: [], problems: [] };
  const problem = (column: string | null, message: string) => planned.problems.push({ line: row.line, column, message });
  if (row.cells.length !== plan.columns.length) {
    problem(null, `The row has ${row.cells.length} cells; the header has ${plan.columns.length} columns.`);
    return planned;
  }
  const inputs = new Map<string, { form: FormValues['form']; inputs: DataFieldInput[]; columns: Map<string, string> }>();
  for (const [i, column] of plan.columns.entries()) {
    const cell = row.cells[i]!.trim();
    const target = column.target;
    if (target.kind === 'externalId') {
      if (cell === '') problem(column.name, 'The external id is empty; each row needs the id it has in your records.');
      else if (cell.length > MAX_EXTERNAL_ID_CHARS) problem(column.name, `The external id has ${cell.length} characters; at most ${MAX_EXTERNAL_ID_CHARS}.`);
      else if (seen.has(cell)) problem(column.name, `External id "${cell}" is on line ${seen.get(cell)} already.`);
      else {
        seen.set(cell, row.line);
        planned.externalId = cell;
      }
    } else if (target.kind === 'owner' && cell !== '') {
      const found = await ownerOf(cell);
      if ('problem' in found) problem(column.name, found.problem);
      else planned.owner = { id: found.id, email: cell };
    } else if (target.kind === 'status' && cell !== '') {
      const lower = cell.toLowerCase();
      const status = model.statuses.find((s) => s.id === cell || s.customId === cell) ?? model.statuses.find((s) => s.name.toLowerCase() === lower);
      if (status) planned.status = status;
      else problem(column.name, `Status "${cell}" is no status of program ${model.program.customId}.`);
    } else if (target.kind === 'field' && cell !== '') {
      const entry = inputs.get(target.form.id) ?? { form: target.form, inputs: [] as DataFieldInput[], columns: new Map<string, string>() };
      inputs.set(target.form.id, entry);
      entry.columns.set(target.field.id, column.name);
      entry.inputs.push(target.field.multiValue
        ? { dataFieldId: target.field.id, value: null, values: cell.split(';').map((v) => v.trim()).filter((v) => v !== '') }
        : { dataFieldId: target.field.id, value: cell, values: null });
    }
  }
  for (const { form, inputs: given, columns } of inputs.values()) {
    try {
      const values: FieldValue[] = resolveInputs(model, form, given).map((r) => ({ fieldId: r.field.id, value: r.value, values: r.values, updatedAt: 0, updatedBy: '' }));
      planned.forms.push({ form, values });
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      planned.problems.push(...problemsOf(error, row.line, columns));
    }
  }
  return planned;
}

/** A refusal as the row's problems: one per field problem, in the column that holds the field, else the message. */
export function problemsOf(error: ApiError, line: number, columns: Map<string, string>): ImportProblem[] {
  if (error.fields.length === 0) return [{ line, column: null, message: error.message }];
  return error.fields.map((f: FieldProblem) => ({ line, column: columns.get(f.dataFieldId) ?? null, message: f.message }));
}
