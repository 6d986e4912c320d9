import { templateProblems } from '../mail/mail-template.ts';
import type { FieldRules } from '../../model/model.ts';
import { invalidFile, type FieldSpec, type FormSpec, type ProgramFile } from './program-file.ts';
import type { PartResolvers, ProgramChecker, Resolve, ResolvedProgram } from './program-parts.ts';
import { checkRoles } from './program-roles.ts';
import { checkDeadlines } from './program-deadlines.ts';
import { checkTableField } from './program-table.ts';

interface Named { customId: string | null; name: string }

/** How a part is named in messages: its customId when it has one, else its name. */
export function labelOf(item: Named): string {
  return item.customId ?? item.name;
}

/**
 * Checks what the schema cannot (unique keys, references, one initial status named Unsubmitted, ranges)
 * and resolves every reference, with the checks each capability contributes (`checkers`, in their order); throws
 * ApiError INVALID_REQUEST listing each problem.
 */
export function resolveProgramFile(file: ProgramFile, checkers: readonly ProgramChecker[], source = 'program file'): ResolvedProgram {
  const problems: string[] = [];
  checkUnique(file.customLists, 'custom list', problems);
  checkUnique(file.fields, 'field', problems);
  checkUnique(file.statuses, 'status', problems);
  checkUnique(file.forms, 'form', problems);
  checkChoices(file, problems);
  const lists = resolver(file.customLists, 'custom list', problems);
  const statuses = resolver(file.statuses, 'status', problems);
  const fields = resolver(file.fields, 'field', problems);
  const resolved: ResolvedProgram = {
    file,
    fieldLists: file.fields.map((f) => checkField(f, lists, problems)),
    tableLists: file.fields.map((f) => checkTableField(f, `field "${labelOf(f)}"`, lists, problems)),
    statusNext: file.statuses.map((s) => resolveAll(s.next, `status "${labelOf(s)}": next`, statuses, problems)),
    forms: file.forms.map((f) => resolveForm(f, statuses, fields, problems)),
    roles: checkRoles(file, statuses, problems),
    parts: checkParts(file, checkers, { statuses, fields, forms: resolver(file.forms, 'form', problems) }, problems),
    deadlines: checkDeadlines(file, fields, problems),
  };
  checkInitial(file, problems);
  checkPublicIds(file, problems);
  if (file.notifications) problems.push(...templateProblems(file.notifications));
  // Rules name fields and statuses, so they are checked once every reference resolved.
  for (const c of checkers) if (problems.length === 0 && c.checkResolved) problems.push(...c.checkResolved(resolved));
  if (problems.length > 0) throw invalidFile(source, problems);
  return resolved;
}

/** Runs each checker's first pass in list order; what each resolved is kept under its part. */
function checkParts(file: ProgramFile, checkers: readonly ProgramChecker[], resolve: PartResolvers, problems: string[]): Record<string, unknown> {
  const parts: Record<string, unknown> = {};
  for (const c of checkers) if (c.check) parts[c.part] = c.check(file, resolve, problems);
  return parts;
}

/** Reports every customId and every name that two of `items` share. */
export function checkUnique(items: Named[], noun: string, problems: string[], scope = ''): void {
  const seen = { customId: new Set<string>(), name: new Set<string>() };
  for (const item of items) {
    for (const key of ['customId', 'name'] as const) {
      const value = item[key];
      if (value === null) continue;
      if (seen[key].has(value)) problems.push(`${scope}two ${plural(noun)} have the ${key} "${value}"`);
      seen[key].add(value);
    }
  }
}

function plural(noun: string): string {
  return noun.endsWith('s') ? `${noun}es` : `${noun}s`;
}

function checkChoices(file: ProgramFile, problems: string[]): void {
  for (const list of file.customLists) {
    const seen = new Set<string>();
    for (const c of list.choices) {
      if (seen.has(c.value)) problems.push(`custom list "${labelOf(list)}": the choice "${c.value}" appears twice`);
      seen.add(c.value);
    }
  }
}

/** A reference matches a customId first, then a name; one that names two different parts is refused. */
function resolver(items: Named[], noun: string, problems: string[]): Resolve {
  return (ref, where) => {
    const byId = items.findIndex((i) => i.customId === ref);
    const byName = items.findIndex((i) => i.name === ref);
    if (byId >= 0 && byName >= 0 && byId !== byName) {
      problems.push(`${where}: "${ref}" is ambiguous: it is the customId of one ${noun} and the name of another`);
      return null;
    }
    const index = byId >= 0 ? byId : byName;
    if (index < 0) problems.push(`${where}: no ${noun} has the customId or name "${ref}"`);
    return index < 0 ? null : index;
  };
}

function resolveAll(refs: string[], where: string, resolve: Resolve, problems: string[]): number[] {
  const out: number[] = [];
  for (const ref of refs) {
    const index = resolve(ref, where);
    if (index === null) continue;
    if (out.includes(index)) problems.push(`${where}: "${ref}" is listed twice`);
    else out.push(index);
  }
  return out;
}

function checkField(f: FieldSpec, lists: Resolve, problems: string[]): number | null {
  const where = `field "${labelOf(f)}"`;
  const numeric = f.type === 'number' || f.type === 'integer';
  if (f.type === 'choice' && f.list === null) problems.push(`${where}: a choice field needs a list`);
  if (f.type !== 'choice' && f.list !== null) problems.push(`${where}: only choice fields have a list (type is ${f.type})`);
  if (f.maxLength !== null && f.type !== 'text') problems.push(`${where}: maxLength applies to text fields only (type is ${f.type})`);
  if ((f.min !== null || f.max !== null) && !numeric) problems.push(`${where}: min and max apply to number and integer fields only (type is ${f.type})`);
  if (f.min !== null && f.max !== null && f.min > f.max) problems.push(`${where}: min (${f.min}) is greater than max (${f.max})`);
  for (const [key, value] of [['min', f.min], ['max', f.max]] as const) {
    if (f.type === 'integer' && value !== null && !Number.isInteger(value)) problems.push(`${where}: ${key} of an integer field must be a whole number`);
  }
  // A summary field is shown in lists and searched as text: a sealed value says nothing there, a table is no one value.
  if (f.summary && f.sensitive) problems.push(`${where}: a sensitive field cannot be a summary field (My projects would show it)`);
  if (f.summary && f.table !== null) problems.push(`${where}: a table field cannot be a summary field`);
  return f.type === 'choice' && f.list !== null ? lists(f.list, `${where}: list`) : null;
}

function resolveForm(f: FormSpec, statuses: Resolve, fields: Resolve, problems: string[]): ResolvedProgram['forms'][number] {
  const where = `form "${labelOf(f)}"`;
  checkUnique(f.attachments, 'attachment', problems, `${where}: `);
  const formFields: { field: number; required: boolean; rules: FieldRules | null }[] = [];
  for (const ff of f.fields) {
    const index = fields(ff.field, `${where}: fields`);
    if (index === null) continue;
    if (formFields.some((x) => x.field === index)) problems.push(`${where}: the field "${ff.field}" is on the form twice`);
    else formFields.push({ field: index, required: ff.required, rules: ff.rules });
  }
  return {
    availableIn: resolveAll(f.availableIn, `${where}: availableIn`, statuses, problems),
    leadsTo: f.leadsTo === null ? null : statuses(f.leadsTo, `${where}: leadsTo`),
    fields: formFields,
  };
}

function checkInitial(file: ProgramFile, problems: string[]): void {
  const initial = file.statuses.filter((s) => s.initial);
  if (initial.length !== 1) {
    const names = initial.map((s) => `"${labelOf(s)}"`).join(', ');
    problems.push(`statuses: exactly one status must be initial: true (found ${initial.length === 0 ? 'none' : names})`);
    return;
  }
  // A project without a number reports the status name Unsubmitted, so the initial status must carry that name.
  if (initial[0]!.name !== 'Unsubmitted') problems.push(`status "${labelOf(initial[0]!)}": the initial status must be named "Unsubmitted"`);
  // A draft is deleted, not withdrawn: only a submitted project can be moved to the withdrawal status.
  if (initial[0]!.withdrawal) problems.push(`status "${labelOf(initial[0]!)}": the initial status cannot be a withdrawal status`);
}

function checkPublicIds(file: ProgramFile, problems: string[]): void {
  const seen = new Set<string>();
  for (const s of file.statuses) {
    if (s.publicId === null) continue;
    if (seen.has(s.publicId)) problems.push(`two statuses have the publicId "${s.publicId}"`);
    seen.add(s.publicId);
  }
}
