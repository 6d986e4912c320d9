import { type Kysely, PostgresAdapter, type RawBuilder, type Selectable, sql } from 'kysely';
import type { FieldValue, Project } from '../model/model.ts';
import { compileOnce } from './compile-once.ts';
import { PROJECT_COLUMNS, toProject } from './project-queries.ts';
import type { Database, ProjectTable } from './tables.ts';

type Db = Kysely<Database>;

/** What a lookup at save said of a field (field_lookups), as GetProjectData shows it. */
export interface FieldLookupRecord { fieldId: string; state: string; message: string; checkedAt: number }

/** What one read of a form's data returns: a project row with everything its form view reads (values as stored). */
export interface FormRead {
  project: Project;
  /** Every submitted value of the project (the view picks its form's fields). */
  values: FieldValue[];
  /** The form's draft changes, or null when the read was asked without the draft. */
  changes: FieldValue[] | null;
  /** The newest file of each attachment definition the project has one for. */
  files: { definitionId: string; fileName: string }[];
  /** What the last lookups said of the project's fields; empty when asked without them. */
  lookups: FieldLookupRecord[];
}

/**
 * Which project and what besides its values a read gathers. `orNumber`: the reference may be the project's number
 * too (then the projects found by id and by number come back, one project possibly twice, and the caller decides). `lookups`: the
 * program has a connection that looks values up. `draftFormId`: the form whose draft changes to read, or null.
 */
export interface FormReadRequest { programId: string; ref: string; orNumber: boolean; lookups: boolean; draftFormId: string | null }

/**
 * GetProjectData's read in one statement: the project row, and as JSON texts built by the database in scalar
 * subqueries its values, the newest version of each file (name only), the lookups and the draft's changes. One
 * statement is one round trip on PostgreSQL (instead of two, over up to four connections that need not see one
 * snapshot) and on SQLite about a third of the four statements' work (docs/performance.md, "Reads near the limit").
 */
export async function readFormData(db: Db, r: FormReadRequest): Promise<FormRead[]> {
  const read = shapeRead(r.orNumber, r.lookups, r.draftFormId !== null);
  const form = r.draftFormId !== null ? [r.draftFormId] : [];
  const params = [...form, r.ref, r.programId, ...(r.orNumber ? [...form, r.programId, r.ref] : [])];
  return (await read(db, ...params)).map((row) => toFormRead(row, r.draftFormId !== null));
}

type FormReadRow = Pick<Selectable<ProjectTable>, (typeof PROJECT_COLUMNS)[number]> & { form_values: unknown; form_files: unknown; form_lookups: unknown; form_changes: unknown };

type ShapeRead = (db: Db, ...params: string[]) => Promise<FormReadRow[]>;
/** One compiled statement per shape (by id or number, with or without lookups, with or without the draft): eight at most. */
const shapes = new Map<string, ShapeRead>();

function shapeRead(orNumber: boolean, lookups: boolean, draft: boolean): ShapeRead {
  const key = `${orNumber}|${lookups}|${draft}`;
  let read = shapes.get(key);
  if (!read) shapes.set(key, (read = compileOnce((db, ...params: string[]) => formReadQuery(db, params, orNumber, lookups, draft)) as ShapeRead));
  return read;
}

// The statement of a shape; `params` are compileOnce's stand-ins, in the order readFormData binds them.
function formReadQuery(db: Db, params: string[], orNumber: boolean, lookups: boolean, draft: boolean) {
  let i = 0;
  const next = () => params[i++]!;
  const byId = gathered(db, lookups, draft ? next() : null).where('p.id', '=', next()).where('p.program_id', '=', next());
  if (!orNumber) return byId;
  // By number as a second branch rather than an OR: SQLite planned `(id = ? and program_id = ?) or (program_id = ? and
  // number = ?)` by the program's index (every project of the program) for the first branch. Each branch here reads
  // one index, and the project a reference names both ways comes back twice (readableProjectOf counts it once).
  const byNumber = gathered(db, lookups, draft ? next() : null).where('p.program_id', '=', next()).where('p.number', '=', next());
  return byId.unionAll(byNumber);
}

// The project's columns and the JSON texts of what its form view reads (see readFormData), before the project's condition.
function gathered(db: Db, lookups: boolean, formId: string | null) {
  const gather = db.getExecutor().adapter instanceof PostgresAdapter ? gatherPostgres : gatherSqlite;
  const none = sql<null>`null`;
  // The project's columns as getProject reads them (toProject).
  return db.selectFrom('projects as p').select(PROJECT_COLUMNS.map((c) => `p.${c}` as const)).select([
    gather(sql`v.field_id, v.value, v.values_json, v.updated_at, v.updated_by`, sql`project_values v where v.project_id = p.id`).as('form_values'),
    // The newest version of each definition, found through the unique (project, definition, version) key.
    gather(sql`a.definition_id, a.file_name`, sql`attachments a where a.project_id = p.id
      and a.version = (select max(b.version) from attachments b where b.project_id = a.project_id and b.definition_id = a.definition_id)`).as('form_files'),
    (lookups ? gather(sql`l.field_id, l.state, l.message, l.checked_at`, sql`field_lookups l where l.project_id = p.id`) : none).as('form_lookups'),
    (formId !== null
      ? gather(sql`d.field_id, d.value, d.values_json, d.updated_at, d.updated_by`, sql`project_drafts d where d.project_id = p.id and d.form_id = ${formId}`)
      : none).as('form_changes'),
  ]);
}

// The rows of `from` (a table, its alias and conditions) as one JSON text of arrays of `columns`; '[]' for none.
function gatherSqlite(columns: RawBuilder<unknown>, from: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(select json_group_array(json_array(${columns})) from ${from})`;
}

function gatherPostgres(columns: RawBuilder<unknown>, from: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`(select coalesce(json_agg(json_build_array(${columns})), '[]') from ${from})`;
}

type Cell = string | number | null;

// pg parses a json column itself; better-sqlite3 hands the text over.
function rowsOf(gathered: unknown): Cell[][] {
  if (gathered === null || gathered === undefined) return [];
  return (typeof gathered === 'string' ? JSON.parse(gathered) : gathered) as Cell[][];
}

function toFieldValue(c: Cell[]): FieldValue {
  const list = c[2] as string | null;
  return { fieldId: c[0] as string, value: c[1] as string | null, values: list === null ? null : (JSON.parse(list) as string[]), updatedAt: Number(c[3]), updatedBy: c[4] as string };
}

function toFormRead(row: FormReadRow, draft: boolean): FormRead {
  return {
    project: toProject(row),
    values: rowsOf(row.form_values).map(toFieldValue),
    changes: draft ? rowsOf(row.form_changes).map(toFieldValue) : null,
    files: rowsOf(row.form_files).map((c) => ({ definitionId: c[0] as string, fileName: c[1] as string })),
    lookups: rowsOf(row.form_lookups).map((c) => ({ fieldId: c[0] as string, state: c[1] as string, message: c[2] as string, checkedAt: Number(c[3]) })),
  };
}
