import { templateProblems } from '../mail-template.ts';
import type { FieldRules } from '../../model/model.ts';
import { invalidFile, type ProgramFile } from './program-file.ts';
import type { PartResolvers, ProgramChecker, Resolve, ResolvedProgram } from './program-parts.ts';
import { checkRoles } from './program-roles.ts';
import { checkDeadlines } from './program-deadlines.ts';
import { checkTableField } from './program-table.ts';
import { checkListSources } from './program-lists.ts';
import { atLine, placeholderAt } from './program-lines.ts';

interface Named { customId: string | null; name: string }

/** How a part is named in messages: its customId when it has one, else its name. */
export function labelOf(item: Named): string {
  return item.customId ?? item.name;
}

/**
 * Checks what the schema cannot (unique keys, references, one initial status named Unsubmitted, ranges)
 * and resolves every reference, with the checks each capability contributes (`checkers`, in their order); throws
 * ApiError INVALID_REQUEST listing each problem. `relatedFields`: the fields of the programs the file's relations name,
 * read by the import (rules reading a related project's values are type-checked against them).
 */
export function resolveProgramFile(
  file: ProgramFile, checkers: readonly ProgramChecker[], source = 'program file', relatedFields?: ResolvedProgram['relatedFields'],
): ResolvedProgram {
  const problems: string[] = [];
  for (const [key, noun] of [['customLists', 'custom list'], ['fields', 'field'], ['statuses', 'status'], ['forms', 'form']] as const) {
    checkUnique(file[key], noun, problems, '', (i, k) => atLine(file, [key, i, k]));
  }
  checkChoices(file, problems);
  checkListSources(file, problems);
  const lists = resolver(file.customLists, 'custom list', problems);
  const statuses = resolver(file.statuses, 'status', problems);
  const fields = resolver(file.fields, 'field', problems);
  const resolved: ResolvedProgram = {
    file,
    fieldLists: file.fields.map((_, i) => checkField(file, i, lists, problems)),
    tableLists: file.fields.map((f, i) => checkTableField(f, `field "${labelOf(f)}"`, lists, problems, (path) => atLine(file, ['fields', i, ...path]))),
    statusNext: file.statuses.map((s, i) => resolveAll(s.next, `status "${labelOf(s)}"`, 'next', statuses, problems, (j) => atLine(file, ['statuses', i, 'next', j]))),
    forms: file.forms.map((_, i) => resolveForm(file, i, statuses, fields, problems)),
    roles: checkRoles(file, statuses, problems),
    parts: checkParts(file, checkers, { statuses, fields, forms: resolver(file.forms, 'form', problems) }, problems),
    deadlines: checkDeadlines(file, fields, problems),
    ...(relatedFields ? { relatedFields } : {}),
  };
  checkInitial(file, problems);
  checkPublicIds(file, problems);
  if (file.notifications) problems.push(...templateProblems(file.notifications, placeholderAt(file, ['notifications'])));
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

/** Reports every customId and every name that two of `items` share, each placed by `at` (item index, key) at the second. */
export function checkUnique(items: Named[], noun: string, problems: string[], scope = '', at: (index: number, key: string) => string = () => ''): void {
  const seen = { customId: new Set<string>(), name: new Set<string>() };
  items.forEach((item, i) => {
    for (const key of ['customId', 'name'] as const) {
      const value = item[key];
      if (value === null) continue;
      if (seen[key].has(value)) problems.push(`${scope}two ${plural(noun)} have the ${key} "${value}"${at(i, key)}`);
      seen[key].add(value);
    }
  });
}

function plural(noun: string): string {
  return noun.endsWith('s') ? `${noun}es` : `${noun}s`;
}

function checkChoices(file: ProgramFile, problems: string[]): void {
  file.customLists.forEach((list, i) => {
    const seen = new Set<string>();
    list.choices.forEach((c, j) => {
      if (seen.has(c.value)) problems.push(`custom list "${labelOf(list)}"${atLine(file, ['customLists', i, 'choices', j])}: the choice "${c.value}" appears twice`);
      seen.add(c.value);
    });
  });
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

// `part` is named after `owner` and the place of each reference (`at`, by its index in `refs`).
function resolveAll(refs: string[], owner: string, part: string, resolve: Resolve, problems: string[], at: (index: number) => string): number[] {
  const out: number[] = [];
  refs.forEach((ref, j) => {
    const where = `${owner}${at(j)}: ${part}`;
    const index = resolve(ref, where);
    if (index === null) return;
    if (out.includes(index)) problems.push(`${where}: "${ref}" is listed twice`);
    else out.push(index);
  });
  return out;
}

function checkField(file: ProgramFile, i: number, lists: Resolve, problems: string[]): number | null {
  const f = file.fields[i]!;
  // Each problem is placed at the property that makes it (the field's type when the property is missing).
  const where = (key: string) => `field "${labelOf(f)}"${atLine(file, ['fields', i, key])}`;
  const numeric = f.type === 'number' || f.type === 'integer';
  if (f.type === 'choice' && f.list === null) problems.push(`${where('type')}: a choice field needs a list`);
  if (f.type !== 'choice' && f.list !== null) problems.push(`${where('list')}: only choice fields have a list (type is ${f.type})`);
  if (f.maxLength !== null && f.type !== 'text') problems.push(`${where('maxLength')}: maxLength applies to text fields only (type is ${f.type})`);
  if ((f.min !== null || f.max !== null) && !numeric) problems.push(`${where(f.min !== null ? 'min' : 'max')}: min and max apply to number and integer fields only (type is ${f.type})`);
  if (f.min !== null && f.max !== null && f.min > f.max) problems.push(`${where('min')}: min (${f.min}) is greater than max (${f.max})`);
  for (const [key, value] of [['min', f.min], ['max', f.max]] as const) {
    if (f.type === 'integer' && value !== null && !Number.isInteger(value)) problems.push(`${where(key)}: ${key} of an integer field must be a whole number`);
  }
  // A summary field is shown in lists and searched as text: a sealed value says nothing there, a table is no one value.
  if (f.summary && f.sensitive) problems.push(`${where('summary')}: a sensitive field cannot be a summary field (My projects would show it)`);
  if (f.summary && f.table !== null) problems.push(`${where('summary')}: a table field cannot be a summary field`);
  return f.type === 'choice' && f.list !== null ? lists(f.list, `${where('list')}: list`) : null;
}

function resolveForm(file: ProgramFile, i: number, statuses: Resolve, fields: Resolve, problems: string[]): ResolvedProgram['forms'][number] {
  const f = file.forms[i]!;
  const where = `form "${labelOf(f)}"`;
  const at = (...path: (string | number)[]) => atLine(file, ['forms', i, ...path]);
  checkUnique(f.attachments, 'attachment', problems, `${where}: `, (j, key) => at('attachments', j, key));
  const formFields: { field: number; required: boolean; rules: FieldRules | null }[] = [];
  f.fields.forEach((ff, j) => {
    const index = fields(ff.field, `${where}${at('fields', j)}: fields`);
    if (index === null) return;
    if (formFields.some((x) => x.field === index)) problems.push(`${where}${at('fields', j)}: the field "${ff.field}" is on the form twice`);
    else formFields.push({ field: index, required: ff.required, rules: ff.rules });
  });
  return {
    availableIn: resolveAll(f.availableIn, where, 'availableIn', statuses, problems, (j) => at('availableIn', j)),
    leadsTo: f.leadsTo === null ? null : statuses(f.leadsTo, `${where}${at('leadsTo')}: leadsTo`),
    fields: formFields,
  };
}

function checkInitial(file: ProgramFile, problems: string[]): void {
  const initial = file.statuses.filter((s) => s.initial);
  if (initial.length !== 1) {
    const names = initial.map((s) => `"${labelOf(s)}"`).join(', ');
    // Placed at the second initial status, or at the list when there is none.
    const second = initial[1] === undefined ? -1 : file.statuses.indexOf(initial[1]);
    problems.push(`statuses${atLine(file, second < 0 ? ['statuses'] : ['statuses', second, 'initial'])}: exactly one status must be initial: true (found ${initial.length === 0 ? 'none' : names})`);
    return;
  }
  const i = file.statuses.indexOf(initial[0]!);
  // A project without a number reports the status name Unsubmitted, so the initial status must carry that name.
  if (initial[0]!.name !== 'Unsubmitted') problems.push(`status "${labelOf(initial[0]!)}"${atLine(file, ['statuses', i, 'name'])}: the initial status must be named "Unsubmitted"`);
  // A draft is deleted, not withdrawn: only a submitted project can be moved to the withdrawal status.
  if (initial[0]!.withdrawal) problems.push(`status "${labelOf(initial[0]!)}"${atLine(file, ['statuses', i, 'withdrawal'])}: the initial status cannot be a withdrawal status`);
}

function checkPublicIds(file: ProgramFile, problems: string[]): void {
  const seen = new Set<string>();
  file.statuses.forEach((s, i) => {
    if (s.publicId === null) return;
    if (seen.has(s.publicId)) problems.push(`two statuses have the publicId "${s.publicId}"${atLine(file, ['statuses', i, 'publicId'])}`);
    seen.add(s.publicId);
  });
}
