import { compactRelation, relationSpecsOf } from './program-relations.ts';
import { Document, isMap, isScalar, isSeq, visit } from 'yaml';
import type { StoreReader } from '../../store/store.ts';
import { ApiError } from '../api-error.ts';
import type { ProgramModel } from '../../model/model.ts';
import { labelOf } from './program-check.ts';
import type { FormFieldSpec, ProgramFile, ProgramFileFormat } from './program-file.ts';
import { roleSpecsOf } from './program-roles.ts';
import { automationSpecsOf } from '../automations/check-automations.ts';
import { compactCalendar, compactDeadline, deadlineSpecsOf } from './program-deadlines.ts';
import { compactTable, tableFileOf } from './program-table.ts';
import { compactDocument, documentSpecsOf } from './program-documents.ts';
import { compactConnection, connectionSpecsOf } from './program-connections.ts';

/** The active definition of a program as a program file; importing it back changes nothing. */
export async function exportProgram(store: StoreReader, agencyRef: string, programRef: string): Promise<ProgramFile> {
  const agency = await store.accounts.findAgency(agencyRef);
  if (!agency) throw new ApiError('NOT_FOUND', `agency "${agencyRef}" not found`);
  const program = await store.programs.findProgram(programRef, agency.id);
  if (!program) throw new ApiError('NOT_FOUND', `program "${programRef}" not found in agency "${agencyRef}"`);
  return programFileOf(await store.programs.loadProgramModel(program));
}

/** A program model as a program file; references use customIds where parts have them, else names. */
export function programFileOf(model: ProgramModel): ProgramFile {
  const ref = new Map<string, string>();
  for (const part of [...model.lists, ...model.statuses, ...model.fields]) ref.set(part.id, labelOf(part));
  const refOf = (id: string) => ref.get(id) ?? id;
  const statuses = [...model.statuses].sort((a, b) => a.position - b.position);
  const order = new Map(statuses.map((s, i) => [s.id, i]));
  // Transitions and form statuses have no order of their own; workflow order keeps exports stable.
  const inWorkflowOrder = (ids: string[]) => [...ids].sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)).map(refOf);
  const p = model.program;
  return {
    customId: p.customId, name: p.name, numberPrefix: p.numberPrefix, numberDigits: p.numberDigits,
    // A loaded list's rows are data, not part of the program: the file says where they come from.
    customLists: model.lists.map((l) => (l.rows ? { customId: l.customId, name: l.name, choices: [], rows: l.rows } : { customId: l.customId, name: l.name, choices: l.choices })),
    fields: [...model.fields].sort((a, b) => a.position - b.position).map((f) => ({
      customId: f.customId, name: f.name, type: f.type, multiValue: f.multiValue, sensitive: f.sensitive,
      list: f.listId === null ? null : refOf(f.listId), group: f.group, maxLength: f.maxLength, min: f.min, max: f.max,
      formula: f.formula ?? null,
      table: tableFileOf(f.table, refOf),
      ...(f.summary ? { summary: true } : {}),
    })),
    statuses: statuses.map((s) => ({
      customId: s.customId, name: s.name, publicId: s.publicId, initial: s.isInitial, next: inWorkflowOrder(s.next),
      reasons: s.reasons ?? [], mailTemplate: s.mailTemplate ?? null,
      reasonRequired: Array.isArray(s.reasonRequired) ? inWorkflowOrder(s.reasonRequired) : (s.reasonRequired ?? false),
      ...(s.withdrawal ? { withdrawal: true } : {}),
    })),
    forms: [...model.forms].sort((a, b) => a.position - b.position).map((f) => ({
      customId: f.customId, name: f.name, availableIn: inWorkflowOrder(f.availableIn),
      leadsTo: f.leadsToStatusId === null ? null : refOf(f.leadsToStatusId),
      roles: f.roles,
      fields: [...f.fields].sort((a, b) => a.position - b.position).map((ff) => ({ field: refOf(ff.fieldId), required: ff.required, rules: ff.rules ?? null })),
      // A document's attachment is made by the import from `documents:`, so the file does not list it.
      attachments: [...f.attachments].filter((a) => a.document === undefined).sort((a, b) => a.position - b.position).map((a) => ({
        customId: a.customId, name: a.name, allowedTypes: a.allowedTypes, maxSizeBytes: a.maxSizeBytes, required: a.required,
      })),
    })),
    notifications: p.notifications ?? null,
    selfService: { signUp: p.selfSignUp ?? false },
    roles: roleSpecsOf(p, refOf),
    automations: automationSpecsOf(p, model, refOf),
    mailTemplates: p.mailTemplates ?? [],
    calendar: p.calendar ?? null,
    deadlines: deadlineSpecsOf(p, refOf),
    documents: documentSpecsOf(p, model, refOf),
    relations: relationSpecsOf(p, refOf),

    connections: connectionSpecsOf(p, refOf),

    accessGroups: (p.accessGroups ?? []).map((g) => ({ ...g })),
  };
}

/** Writes a program file as YAML or JSON in its shortest form: defaults and empty parts left out. */
export function formatProgramFile(file: ProgramFile, format: ProgramFileFormat): string {
  const data = compact(file);
  return format === 'json' ? `${JSON.stringify(data, null, 2)}\n` : yamlText(data);
}

// Short flat items (a choice, a field, a list of refs) read best on one line, as people write them by hand.
function yamlText(data: Record<string, unknown>): string {
  const doc = new Document(data);
  const short = (node: unknown) => JSON.stringify((node as { toJSON(): unknown }).toJSON()).length <= 120;
  visit(doc, {
    Map(_, node, path) {
      const flat = node.items.every((pair) => isScalar(pair.value) || (isSeq(pair.value) && pair.value.items.every(isScalar)));
      if (path.length > 2 && flat && short(node)) node.flow = true;
    },
    Seq(_, node, path) {
      if (path.length > 1 && node.items.every((item) => isScalar(item)) && short(node)) node.flow = true;
      else if (node.items.every((item) => isScalar(item) || isMap(item))) node.flow = false;
    },
  });
  return doc.toString({ lineWidth: 0 });
}

function compact(file: ProgramFile): Record<string, unknown> {
  return {
    customId: file.customId, name: file.name, numberPrefix: file.numberPrefix, numberDigits: file.numberDigits,
    customLists: file.customLists.map((l) => prune(l.rows ? {
      customId: l.customId, name: l.name, rows: 'csv', key: l.rows.key, label: l.rows.label === l.rows.key ? null : l.rows.label,
      columns: l.rows.columns.map((c) => (c.type === 'text' ? { name: c.name } : { name: c.name, type: c.type })),
    } : {
      customId: l.customId, name: l.name,
      choices: l.choices.map((c) => (c.label === c.value ? c.value : { value: c.value, label: c.label })),
    })),
    fields: file.fields.map(({ formula, table, ...f }) => prune({
      ...f, multiValue: f.multiValue || null, sensitive: f.sensitive || null, ...compactTable(table),
      // A calculated field is written as the file writes it: type calculated, the value's type as resultType.
      ...(formula === null ? {} : { type: 'calculated', formula, resultType: f.type }),
    })),
    statuses: file.statuses.map((s) => prune({
      ...s, initial: s.initial || null, next: s.next.length > 0 ? s.next : null,
      reasons: s.reasons.length > 0 ? s.reasons : null, reasonRequired: s.reasonRequired || null,
    })),
    forms: file.forms.map((f) => prune({
      customId: f.customId, name: f.name, availableIn: f.availableIn, leadsTo: f.leadsTo, roles: f.roles,
      fields: f.fields.length > 0 ? f.fields.map(formFieldOf) : null,
      attachments: f.attachments.length > 0 ? f.attachments.map((a) => prune({
        ...a, required: a.required || null,
      })) : null,
    })),
    ...(file.notifications ? { notifications: file.notifications } : {}),
    ...(file.selfService.signUp ? { selfService: { signUp: true } } : {}),
    ...(file.roles.length > 0 ? { roles: file.roles.map((r) => prune({ ...r })) } : {}),
    ...(file.automations.length > 0 ? { automations: file.automations.map(automationOf) } : {}),
    ...(file.mailTemplates.length > 0 ? { mailTemplates: file.mailTemplates } : {}),
    ...(file.calendar ? { calendar: compactCalendar(file.calendar) } : {}),
    ...(file.deadlines && file.deadlines.length > 0 ? { deadlines: file.deadlines.map(compactDeadline) } : {}),
    ...(file.documents && file.documents.length > 0 ? { documents: file.documents.map(compactDocument) } : {}),
    ...(file.relations && file.relations.length > 0 ? { relations: file.relations.map(compactRelation) } : {}),

    ...(file.connections && file.connections.length > 0 ? { connections: file.connections.map(compactConnection) } : {}),

    ...(file.accessGroups && file.accessGroups.length > 0 ? { accessGroups: file.accessGroups } : {}),
  };
}

/** An automation as written by hand: filters it sets, its condition when it has one, its actions as `then`. */
function automationOf(a: ProgramFile['automations'][number]): Record<string, unknown> {
  // The file's key is `then`; this plain object goes only to the YAML or JSON writer, never to `await`.
  return prune(Object.fromEntries([['customId', a.customId], ['name', a.name], ['when', prune({ ...a.when })], ['if', a.if], ['then', a.actions]]));
}

/** A form field as written by hand: just its reference when it has no options, else an object with the ones it has. */
function formFieldOf(ff: FormFieldSpec): unknown {
  if (!ff.required && ff.rules === null) return ff.field;
  const rules = ff.rules === null ? {} : prune({ ...ff.rules, validations: ff.rules.validations.length > 0 ? ff.rules.validations : null });
  return { field: ff.field, ...(ff.required ? { required: true } : {}), ...rules };
}

/** Drops null properties: they stand for a default or an absent option. */
function prune(item: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(item).filter(([, v]) => v !== null));
}
