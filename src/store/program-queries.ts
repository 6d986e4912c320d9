import { type Kysely, type Selectable, sql } from 'kysely';
import type { Automation } from '../model/automation.ts';
import type { AccessGroup, CustomList, CustomRole, ListRowSource, DataField, FieldRules, FieldType, Form, NamedMailTemplate, Program, ProgramModel, ProgramRole, Status, StatusReason, TableSpec } from '../model/model.ts';
import type { DeadlineDefinition, ProgramCalendar, ProgramRelation } from '../model/model.ts';
import type { DocumentTemplate } from '../model/document.ts';
import type { ConnectionDefinition } from '../model/connection.ts';
import type { ProgramDefinitionRows } from '../model/records.ts';
import type { MailTemplate, NotificationTemplates } from '../model/notification.ts';
import { bindDb } from './bind-db.ts';
import { withLoadedRows } from './list-row-queries.ts';
import { PROGRAM_VERSION_READS, PROGRAM_VERSION_WRITES } from './program-version-queries.ts';
import type { Database, ProgramTable } from './tables.ts';
import { deleteTestProjectRows, finishProgramReset, listProgramMail, projectIdsOfProgram } from './test-program-queries.ts';

type Db = Kysely<Database>;

function toProgram(row: Selectable<ProgramTable>): Program {
  return {
    id: row.id, agencyId: row.agency_id, customId: row.custom_id, name: row.name,
    numberPrefix: row.number_prefix, numberDigits: row.number_digits, updatedAt: row.updated_at,
    notifications: row.notifications === null ? null : JSON.parse(row.notifications) as NotificationTemplates,
    selfSignUp: Number(row.self_sign_up) === 1,
    // Left out when the program has none, as a program row built by hand has none.
    ...(row.roles ? { roles: JSON.parse(row.roles) as CustomRole[] } : {}),
    ...(row.automations ? { automations: JSON.parse(row.automations) as Automation[] } : {}),
    ...(row.mail_templates ? { mailTemplates: JSON.parse(row.mail_templates) as NamedMailTemplate[] } : {}),
    ...(row.calendar ? { calendar: JSON.parse(row.calendar) as ProgramCalendar } : {}),
    ...(row.deadlines ? { deadlines: JSON.parse(row.deadlines) as DeadlineDefinition[] } : {}),
    ...(row.documents ? { documents: JSON.parse(row.documents) as DocumentTemplate[] } : {}),
    ...(row.connections ? { connections: JSON.parse(row.connections) as ConnectionDefinition[] } : {}),
    ...(row.test_of ? { testOf: row.test_of } : {}),
    ...(row.relations ? { relations: JSON.parse(row.relations) as ProgramRelation[] } : {}),
    ...(row.access_groups ? { accessGroups: JSON.parse(row.access_groups) as AccessGroup[] } : {}),
  };
}

// Like roles, only statuses with reasons or a template carry the keys: other rows are as they were before 028.
function statusExtras(row: { reasons: string | null; mail_template: string | null }): Pick<Status, 'reasons' | 'reasonRequired' | 'mailTemplate'> {
  const reasons = row.reasons === null ? null : JSON.parse(row.reasons) as { required: boolean | string[]; reasons: StatusReason[] };
  return {
    ...(reasons === null ? {} : { reasons: reasons.reasons, reasonRequired: reasons.required }),
    ...(row.mail_template === null ? {} : { mailTemplate: JSON.parse(row.mail_template) as MailTemplate }),
  };
}

/** A program by generated id, or by custom id (within an agency when one is given). */
export async function findProgram(db: Db, ref: string, agencyId?: string | null): Promise<Program | null> {
  const byId = await db.selectFrom('programs').selectAll().where('id', '=', ref).executeTakeFirst();
  if (byId && (!agencyId || byId.agency_id === agencyId)) return toProgram(byId);
  let query = db.selectFrom('programs').selectAll().where('custom_id', '=', ref);
  if (agencyId) query = query.where('agency_id', '=', agencyId);
  const rows = await query.limit(2).execute();
  // A custom id shared by programs of two agencies is ambiguous without an agency, so it matches nothing.
  return rows.length === 1 ? toProgram(rows[0]!) : null;
}

/** The programs of an agency in creation order. */
export async function listPrograms(db: Db, agencyId: string): Promise<Program[]> {
  const rows = await db.selectFrom('programs').selectAll().where('agency_id', '=', agencyId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toProgram);
}

/** Every definition row of a program, retired ones included (their ids listed in `retired`). */
export async function loadProgramDefinition(db: Db, programId: string): Promise<(ProgramDefinitionRows & { retired: string[] }) | null> {
  const programRow = await db.selectFrom('programs').selectAll().where('id', '=', programId).executeTakeFirst();
  if (!programRow) return null;
  const retired: string[] = [];
  const track = <T extends { id: string; retired: number }>(rows: T[]) => {
    for (const r of rows) if (r.retired === 1) retired.push(r.id);
    return rows;
  };
  const [listRows, choiceRows, statusRows, transitionRows, fieldRows, formRows, formStatusRows, formFieldRows, attachmentRows] = await Promise.all([
    db.selectFrom('custom_lists').selectAll().where('program_id', '=', programId).orderBy('id').execute(),
    db.selectFrom('custom_list_choices').innerJoin('custom_lists', 'custom_lists.id', 'custom_list_choices.list_id')
      .select(['custom_list_choices.list_id', 'custom_list_choices.value', 'custom_list_choices.label', 'custom_list_choices.position'])
      .where('custom_lists.program_id', '=', programId).orderBy('custom_list_choices.position').execute(),
    db.selectFrom('statuses').selectAll().where('program_id', '=', programId).orderBy('position').execute(),
    db.selectFrom('status_transitions').selectAll().where('program_id', '=', programId).execute(),
    db.selectFrom('data_fields').selectAll().where('program_id', '=', programId).orderBy('position').execute(),
    db.selectFrom('forms').selectAll().where('program_id', '=', programId).orderBy('position').execute(),
    db.selectFrom('form_statuses').innerJoin('forms', 'forms.id', 'form_statuses.form_id')
      .select(['form_statuses.form_id', 'form_statuses.status_id']).where('forms.program_id', '=', programId).execute(),
    db.selectFrom('form_fields').innerJoin('forms', 'forms.id', 'form_fields.form_id')
      .select(['form_fields.form_id', 'form_fields.field_id', 'form_fields.required', 'form_fields.position', 'form_fields.rules'])
      .where('forms.program_id', '=', programId).orderBy('form_fields.position').execute(),
    db.selectFrom('attachment_definitions').selectAll().where('program_id', '=', programId).orderBy('position').execute(),
  ]);
  const lists: CustomList[] = track(listRows).map((l) => ({
    id: l.id, customId: l.custom_id, name: l.name,
    choices: choiceRows.filter((c) => c.list_id === l.id).map((c) => ({ value: c.value, label: c.label })),
    // Only lists of rows from a CSV file carry the key (migration 055), so other lists are as they were before it.
    ...(l.row_source === null ? {} : { rows: JSON.parse(l.row_source) as ListRowSource }),
  }));
  const statuses: Status[] = track(statusRows).map((s) => ({
    id: s.id, customId: s.custom_id, publicId: s.public_id, name: s.name, isInitial: s.is_initial === 1, position: s.position,
    next: transitionRows.filter((t) => t.from_status_id === s.id).map((t) => t.to_status_id),
    ...statusExtras(s),
    // Only a withdrawal status carries the key (migration 034), so other rows are as they were before it.
    ...(s.withdrawal === 1 ? { withdrawal: true } : {}),
  }));
  const fields: DataField[] = track(fieldRows).map((f) => ({
    id: f.id, customId: f.custom_id, name: f.name, type: f.type as FieldType, multiValue: f.multi_value === 1,
    sensitive: f.sensitive === 1, listId: f.list_id, group: f.group_name, maxLength: f.max_length,
    min: f.min_value, max: f.max_value, position: f.position,
    // Like `table`, only calculated fields (and placed fields with rules) carry the key: other rows are as they were.
    ...(f.formula === null ? {} : { formula: f.formula }),
    // Only table fields carry the key, so definitions of programs without tables are the rows they were before.
    ...(f.table_spec === null ? {} : { table: JSON.parse(f.table_spec) as TableSpec }),
    ...(f.summary === 1 ? { summary: true } : {}),
  }));
  track(attachmentRows);
  const forms: Form[] = track(formRows).map((f) => ({
    id: f.id, customId: f.custom_id, name: f.name, leadsToStatusId: f.leads_to_status_id, position: f.position,
    roles: f.roles === null ? null : (JSON.parse(f.roles) as ProgramRole[]),
    availableIn: formStatusRows.filter((s) => s.form_id === f.id).map((s) => s.status_id),
    fields: formFieldRows.filter((ff) => ff.form_id === f.id).map((ff) => ({
      fieldId: ff.field_id, required: ff.required === 1, position: ff.position, ...(ff.rules === null ? {} : { rules: JSON.parse(ff.rules) as FieldRules }),
    })),
    attachments: attachmentRows.filter((a) => a.form_id === f.id).map((a) => ({
      id: a.id, formId: a.form_id, customId: a.custom_id, name: a.name, allowedTypes: JSON.parse(a.allowed_types) as string[],
      maxSizeBytes: a.max_size_bytes, required: a.required === 1, position: a.position,
      ...(a.document === null ? {} : { document: a.document }),
    })),
  }));
  return { program: { ...toProgram(programRow), createdAt: programRow.created_at }, lists, statuses, fields, forms, retired };
}

/** The active definition of a program (everything not retired), with the retired statuses and fields apart. */
export async function loadProgramModel(db: Db, program: Program): Promise<ProgramModel> {
  const def = await loadProgramDefinition(db, program.id);
  if (!def) throw new Error(`program ${program.id} vanished while loading`);
  const retired = new Set(def.retired);
  const live = <T extends { id: string }>(rows: T[]) => rows.filter((r) => !retired.has(r.id));
  const forms = live(def.forms).map((f) => ({ ...f, attachments: live(f.attachments), fields: f.fields.filter((ff) => !retired.has(ff.fieldId)) }));
  const { createdAt: _createdAt, ...programOnly } = def.program;
  const gone = <T extends { id: string }>(rows: T[]) => rows.filter((r) => retired.has(r.id));
  return {
    program: programOnly, statuses: live(def.statuses), forms, fields: live(def.fields), lists: await withLoadedRows(db, live(def.lists)),
    retired: { statuses: gone(def.statuses), fields: gone(def.fields) },
  };
}

async function upsertRows<T extends keyof Database>(db: Db, table: T, rows: Record<string, unknown>[], programId: string): Promise<void> {
  const ids = rows.map((r) => r.id as string);
  // Rows the new definition leaves out are retired, never deleted: projects keep referring to them.
  let retire = db.updateTable(table as 'forms').set({ retired: 1 }).where('program_id', '=', programId);
  if (ids.length > 0) retire = retire.where('id', 'not in', ids);
  await retire.execute();
  for (const row of rows) {
    const { id, ...rest } = row;
    await db.insertInto(table as 'forms').values(row as never)
      .onConflict((oc) => oc.column('id').doUpdateSet(rest as never)).execute();
    void id;
  }
}

/** Writes a whole program definition: upserts every row, retires the rest, replaces the link tables. */
export async function saveProgramDefinition(db: Db, rows: ProgramDefinitionRows): Promise<void> {
  const p = rows.program;
  const programRow = {
    id: p.id, agency_id: p.agencyId, custom_id: p.customId, name: p.name, number_prefix: p.numberPrefix, number_digits: p.numberDigits,
    notifications: p.notifications ? JSON.stringify(p.notifications) : null,
    self_sign_up: p.selfSignUp ? 1 : 0,
    // Written only when the definition says (an import always does), so that rows built by hand need no column of 023.
    ...(p.roles === undefined ? {} : { roles: p.roles.length > 0 ? JSON.stringify(p.roles) : null }),
    ...(p.automations === undefined ? {} : { automations: p.automations.length > 0 ? JSON.stringify(p.automations) : null }),
    ...(p.mailTemplates === undefined ? {} : { mail_templates: p.mailTemplates.length > 0 ? JSON.stringify(p.mailTemplates) : null }),
    ...(p.calendar === undefined ? {} : { calendar: p.calendar === null ? null : JSON.stringify(p.calendar) }),
    ...(p.deadlines === undefined ? {} : { deadlines: p.deadlines.length > 0 ? JSON.stringify(p.deadlines) : null }),
    ...(p.documents === undefined ? {} : { documents: p.documents.length > 0 ? JSON.stringify(p.documents) : null }),
    ...(p.relations === undefined ? {} : { relations: p.relations.length > 0 ? JSON.stringify(p.relations) : null }),

    ...(p.connections === undefined ? {} : { connections: p.connections.length > 0 ? JSON.stringify(p.connections) : null }),
    // Set once, when a test copy is made; an import of a file never clears it.
    ...(p.testOf === undefined ? {} : { test_of: p.testOf }),
    ...(p.accessGroups === undefined ? {} : { access_groups: p.accessGroups.length > 0 ? JSON.stringify(p.accessGroups) : null }),
  };
  // updated_at keys the model caches of every instance, so it must move forward even within one millisecond;
  // computed in the UPDATE, it reads the row after the lock, so overlapping saves cannot both take the same value.
  const moved = await db.updateTable('programs').set({
    ...programRow,
    updated_at: sql<number>`case when updated_at + 1 > ${p.updatedAt} then updated_at + 1 else ${p.updatedAt} end`,
  }).where('id', '=', p.id).executeTakeFirst();
  if (Number(moved.numUpdatedRows) === 0) {
    await db.insertInto('programs').values({ ...programRow, updated_at: p.updatedAt, next_number: 1, created_at: p.createdAt }).execute();
  }

  await upsertRows(db, 'custom_lists', rows.lists.map((l) => ({
    id: l.id, program_id: p.id, custom_id: l.customId, name: l.name, retired: 0, row_source: l.rows ? JSON.stringify(l.rows) : null,
  })), p.id);
  const listIds = (await db.selectFrom('custom_lists').select('id').where('program_id', '=', p.id).execute()).map((r) => r.id);
  if (listIds.length > 0) await db.deleteFrom('custom_list_choices').where('list_id', 'in', listIds).execute();
  for (const list of rows.lists) {
    for (const [position, c] of list.choices.entries()) {
      await db.insertInto('custom_list_choices').values({ list_id: list.id, value: c.value, label: c.label, position }).execute();
    }
  }
  await upsertRows(db, 'statuses', rows.statuses.map((s) => ({
    id: s.id, program_id: p.id, custom_id: s.customId, public_id: s.publicId, name: s.name,
    is_initial: s.isInitial ? 1 : 0, position: s.position, retired: 0,
    reasons: (s.reasons ?? []).length > 0 || (s.reasonRequired ?? false) !== false ? JSON.stringify({ required: s.reasonRequired ?? false, reasons: s.reasons ?? [] }) : null,
    mail_template: s.mailTemplate ? JSON.stringify({ subject: s.mailTemplate.subject, text: s.mailTemplate.text }) : null,
    withdrawal: s.withdrawal ? 1 : 0,
  })), p.id);
  await db.deleteFrom('status_transitions').where('program_id', '=', p.id).execute();
  for (const s of rows.statuses) {
    for (const to of s.next) await db.insertInto('status_transitions').values({ program_id: p.id, from_status_id: s.id, to_status_id: to }).execute();
  }
  await upsertRows(db, 'data_fields', rows.fields.map((f) => ({
    id: f.id, program_id: p.id, custom_id: f.customId, name: f.name, type: f.type, multi_value: f.multiValue ? 1 : 0,
    sensitive: f.sensitive ? 1 : 0, list_id: f.listId, group_name: f.group, max_length: f.maxLength,
    min_value: f.min, max_value: f.max, position: f.position, retired: 0, formula: f.formula ?? null,
    table_spec: f.table ? JSON.stringify(f.table) : null,
    summary: f.summary ? 1 : 0,
  })), p.id);
  await upsertRows(db, 'forms', rows.forms.map((f) => ({
    id: f.id, program_id: p.id, custom_id: f.customId, name: f.name, leads_to_status_id: f.leadsToStatusId, position: f.position, retired: 0,
    roles: f.roles === null ? null : JSON.stringify(f.roles),
  })), p.id);
  await upsertRows(db, 'attachment_definitions', rows.forms.flatMap((f) => f.attachments.map((a) => ({
    id: a.id, program_id: p.id, form_id: f.id, custom_id: a.customId, name: a.name, allowed_types: JSON.stringify(a.allowedTypes),
    max_size_bytes: a.maxSizeBytes, required: a.required ? 1 : 0, position: a.position, retired: 0, document: a.document ?? null,
  }))), p.id);
  const formIds = (await db.selectFrom('forms').select('id').where('program_id', '=', p.id).execute()).map((r) => r.id);
  if (formIds.length > 0) {
    await db.deleteFrom('form_statuses').where('form_id', 'in', formIds).execute();
    await db.deleteFrom('form_fields').where('form_id', 'in', formIds).execute();
  }
  for (const f of rows.forms) {
    for (const statusId of f.availableIn) await db.insertInto('form_statuses').values({ form_id: f.id, status_id: statusId }).execute();
    for (const ff of f.fields) {
      await db.insertInto('form_fields').values({
        form_id: f.id, field_id: ff.fieldId, required: ff.required ? 1 : 0, position: ff.position, rules: ff.rules ? JSON.stringify(ff.rules) : null,
      }).execute();
    }
  }
}

/** Program definitions already loaded, each kept while its program's updated_at is unchanged. */
export type ProgramModelCache = Map<string, { updatedAt: number; model: ProgramModel }>;

// Program definitions change rarely and are read by nearly every request; programs.updated_at
// (read fresh each time) tells every instance when its cached copy is stale.
async function cachedModel(db: Db, cache: ProgramModelCache, program: Program, share: boolean): Promise<ProgramModel> {
  const hit = cache.get(program.id);
  if (hit && hit.updatedAt === program.updatedAt) return hit.model;
  let current = program;
  // The definition is read in several queries; a save committed in between would mix two versions, so the
  // read is repeated until updated_at is the same before and after it.
  for (let attempt = 0; ; attempt++) {
    const model = await loadProgramModel(db, current);
    const after = await findProgram(db, current.id);
    if (!after) throw new Error(`program ${current.id} vanished while loading`);
    if (after.updatedAt === current.updatedAt || attempt >= 4) {
      // A transaction may see its own uncommitted definition, which a rollback undoes: only committed ones are shared.
      if (share && after.updatedAt === current.updatedAt) cache.set(program.id, { updatedAt: current.updatedAt, model });
      return model;
    }
    current = after;
  }
}

const READS = { findProgram, listPrograms, loadProgramDefinition, listProgramMail, projectIdsOfProgram, ...PROGRAM_VERSION_READS };
// A test copy's reset (src/domain/administration/test-program-service.ts).
const RESETS = { deleteTestProjectRows, finishProgramReset };

/** Programs and their definitions: reads; `loadProgramModel` gives the active definition, cached. */
export type ProgramReader = ReturnType<typeof programReader>;

/** Programs and their definitions: reads and writes (inside a transaction). */
export type ProgramRepository = ReturnType<typeof programRepository>;

/** The program reads over a database, sharing loaded definitions through `cache`. */
export function programReader(db: Db, cache: ProgramModelCache) {
  return { ...bindDb(db, READS), loadProgramModel: (program: Program) => cachedModel(db, cache, program, true) };
}

/** The program reads and writes over a transaction; definitions it loads are not shared, since it may roll back. */
export function programRepository(db: Db, cache: ProgramModelCache) {
  return { ...bindDb(db, { ...READS, ...RESETS, saveProgramDefinition, ...PROGRAM_VERSION_WRITES }), loadProgramModel: (program: Program) => cachedModel(db, cache, program, false) };
}
