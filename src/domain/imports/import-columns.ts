import { ApiError } from '../api-error.ts';
import type { DataField, Form, ProgramModel } from '../../model/model.ts';

/** A problem of an import: the file's line (the header is line 1), the column it is in when it is one cell's, and why. */
export interface ImportProblem { line: number; column: string | null; message: string }

/** What a column of the file fills: the external id, the owner's e-mail, the starting status, a data field, or nothing. */
export type ColumnTarget =
  | { kind: 'externalId' } | { kind: 'owner' } | { kind: 'status' } | { kind: 'ignored' }
  | { kind: 'field'; field: DataField; form: Form };

/** The file's columns and what each fills, with the problems that keep the file from being imported at all. */
export interface ColumnPlan { columns: { name: string; target: ColumnTarget }[]; problems: ImportProblem[] }

/** The most lines a mapping may have. */
const MAX_MAPPING_LINES = 500;

// The mapping's words for the import's own columns, and the names a header may give them without a mapping.
const SPECIAL: Record<string, ColumnTarget> = { externalid: { kind: 'externalId' }, owner: { kind: 'owner' }, owneremail: { kind: 'owner' }, status: { kind: 'status' }, '-': { kind: 'ignored' } };

const squeeze = (s: string) => (s === '-' ? s : s.toLowerCase().replace(/[^a-z0-9]/g, ''));

/**
 * Reads a mapping: one `Column = target` a line (the target a data field's customId or name, or externalId, owner,
 * status, or `-` to leave the column out); blank lines and lines starting with # are skipped. The last `=` splits, so
 * a column's name may hold one.
 */
export function parseMapping(text: string): Map<string, string> {
  const mapping = new Map<string, string>();
  const lines = text.split(/\r\n|\n|\r/);
  if (lines.length > MAX_MAPPING_LINES) throw new ApiError('INVALID_REQUEST', `The mapping has ${lines.length} lines; it may have at most ${MAX_MAPPING_LINES}.`);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const at = line.lastIndexOf('=');
    const column = at < 0 ? '' : line.slice(0, at).trim();
    const target = at < 0 ? '' : line.slice(at + 1).trim();
    if (column === '' || target === '') {
      throw new ApiError('INVALID_REQUEST', `Line ${i + 1} of the mapping is not "Column = target" (a field's customId or name, externalId, owner, status, or - to leave the column out).`);
    }
    if (mapping.has(column)) throw new ApiError('INVALID_REQUEST', `Line ${i + 1} of the mapping maps column "${column}" a second time.`);
    mapping.set(column, target);
  });
  return mapping;
}

/**
 * Decides what each column of the header fills: by the mapping where it names the column, else by the header itself
 * (ExternalId, Owner or OwnerEmail, Status, in any case and spacing; else a data field's customId, or its name in any
 * case). Each data field must be on a form and writable (no calculated or table field), and filled by one column only;
 * the external id column is required (it is what makes a second run update rather than duplicate).
 */
export function planColumns(model: ProgramModel, header: string[], mapping: Map<string, string>): ColumnPlan {
  const problems: ImportProblem[] = [];
  const problem = (column: string | null, message: string) => problems.push({ line: 1, column, message });
  for (const column of mapping.keys()) if (!header.includes(column)) problem(column, `The mapping names column "${column}", which the file's header does not have.`);
  const columns = header.map((name) => {
    const mapped = mapping.get(name);
    const target = targetOf(model, mapped ?? name, mapped !== undefined);
    if (!target) {
      problem(name, mapped === undefined
        ? `Column "${name}" names no data field of program ${model.program.customId}; map it to one ("${name} = fieldCustomId") or leave it out ("${name} = -").`
        : `The mapping maps column "${name}" to "${mapped}", which is no data field of program ${model.program.customId}.`);
      return { name, target: { kind: 'ignored' } as ColumnTarget };
    }
    if (typeof target === 'string') {
      problem(name, target);
      return { name, target: { kind: 'ignored' } as ColumnTarget };
    }
    return { name, target };
  });
  const counted = new Map<string, string>();
  for (const c of columns) {
    const key = c.target.kind === 'field' ? `field:${c.target.field.id}` : c.target.kind;
    if (c.target.kind === 'ignored') continue;
    const first = counted.get(key);
    if (first !== undefined) problem(c.name, `Columns "${first}" and "${c.name}" both fill ${describe(c.target)}; map one of them to - to leave it out.`);
    else counted.set(key, c.name);
  }
  if (header.length > 0 && !counted.has('externalId')) {
    problem(null, 'The file has no external id column (header ExternalId, or a column mapped to externalId): each row needs the id it has in your records, so that a second run updates the projects the first one made instead of making them again.');
  }
  return { columns, problems };
}

function describe(target: ColumnTarget): string {
  return target.kind === 'field' ? `data field ${target.field.customId ?? target.field.name}` : target.kind;
}

// The column's target, a message when it names a field that cannot be imported, or null when it names nothing.
function targetOf(model: ProgramModel, name: string, mapped: boolean): ColumnTarget | string | null {
  const special = SPECIAL[squeeze(name)];
  // A header that happens to squeeze to "status" is the status column; a mapping must say "status" itself.
  if (special && (!mapped || name === '-' || ['externalId', 'owner', 'status'].includes(name))) return special;
  const field = model.fields.find((f) => f.customId === name) ?? model.fields.find((f) => f.name.toLowerCase() === name.toLowerCase());
  if (!field) return null;
  const label = field.customId ?? field.name;
  if (field.formula) return `Data field ${label} is calculated by the service; it cannot be imported.`;
  if (field.type === 'table') return `Data field ${label} is a table field; tables are not imported from CSV.`;
  const form = model.forms.find((f) => f.fields.some((p) => p.fieldId === field.id));
  if (!form) return `Data field ${label} is on no form; it cannot be imported.`;
  return { kind: 'field', field, form };
}
