import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Project } from '../model/model.ts';
import { toProject } from './project-queries.ts';
import { readableBy } from './owner-scope.ts';
import { deleteProjectEnvelopes } from './envelope-queries.ts';
import type { OwnerScope } from '../model/records.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;
type Eb = ExpressionBuilder<Database, 'projects'>;

/** Where a My projects page starts: after the project with this last change and id (newest first). */
export interface MyProjectsKey { updatedAt: number; id: string }

/** One page of an applicant's projects of a program: filters (all optional, combined with AND) and keyset position. */
export interface MyProjectsQuery {
  programId: string;
  /** The owner scope the service decided (src/domain/roles/access.ts ownerFilter): the caller's own projects and their organizations'. */
  owner: OwnerScope;
  statusId?: string;
  /** `drafts`: never submitted (no number yet); `submitted`: the others. */
  stage?: 'drafts' | 'submitted';
  /**
   * Only projects waiting for the applicant: in one of `statusIds` (where a form is open to them), or with a question
   * of the agency awaiting their answer (a thread AwaitingResponse with a note they may see).
   */
  needsAction?: { statusIds: string[] };
  /** Lower-cased text found in the number, or in a summary field's submitted value or draft change. */
  search?: { folded: string; fieldIds: string[] };
  after?: MyProjectsKey;
  limit: number;
}

/** Escapes LIKE wildcards with `!`, the escape character the LIKEs below name. */
function likeText(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

/** True where `column` contains the lower-cased `folded` text, LIKE's wildcards in it taken literally. */
export function contains(column: ReturnType<typeof sql.ref> | ReturnType<typeof sql>, folded: string) {
  return sql<SqlBool>`${column} like ${`%${likeText(folded)}%`} escape '!'`;
}

function searchCondition(eb: Eb, search: NonNullable<MyProjectsQuery['search']>) {
  const { folded, fieldIds } = search;
  const options: Expression<SqlBool>[] = [contains(sql`lower(projects.number)`, folded)];
  if (fieldIds.length > 0) {
    // Submitted values keep their lower-cased text (folded); a draft's changes are lower-cased here (lower() folds
    // only ASCII letters on SQLite). Both are read by their primary keys, which start with the project id.
    options.push(eb.exists(eb.selectFrom('project_values as v').select('v.project_id').whereRef('v.project_id', '=', 'projects.id')
      .where('v.field_id', 'in', fieldIds).where(contains(sql.ref('v.folded'), folded))));
    options.push(eb.exists(eb.selectFrom('project_drafts as d').select('d.project_id').whereRef('d.project_id', '=', 'projects.id')
      .where('d.field_id', 'in', fieldIds).where(contains(sql`lower(d.value)`, folded))));
  }
  return eb.or(options);
}

function needsActionCondition(eb: Eb, statusIds: string[]) {
  const question = eb.exists(eb.selectFrom('inquiry_threads as t').select('t.id').whereRef('t.project_id', '=', 'projects.id')
    .where('t.status', '=', 'AwaitingResponse')
    .where((inner) => inner.exists(inner.selectFrom('inquiry_notes as n').select('n.id').whereRef('n.thread_id', '=', 't.id').where('n.visible_to_applicant', '=', 1))));
  return statusIds.length > 0 ? eb.or([eb('projects.status_id', 'in', statusIds), question]) : question;
}

/**
 * One page of an owner's projects of a program, newest change first, continued by keyset after `after`. The rows come
 * from a range read of the (owner_id, program_id, updated_at, id) index (migration 034) from the page's start (and,
 * for a member of organizations, of their projects by the organization index of migration 037); the filters are
 * tested on each project so read, by primary-key lookups, until the page is full. So a page costs at most the
 * owner's and their organizations' projects in the program, never the program's millions.
 */
export async function myProjectsPage(db: Db, q: MyProjectsQuery): Promise<Project[]> {
  if (!Number.isSafeInteger(q.limit) || q.limit < 1 || q.limit > 1000) throw new Error(`bad page size ${q.limit}`);
  let query = db.selectFrom('projects').selectAll('projects')
    .where(readableBy('projects', q.owner)).where('projects.program_id', '=', q.programId);
  if (q.statusId !== undefined) query = query.where('projects.status_id', '=', q.statusId);
  // Written so no index can serve it: the (program_id, number) index would read every draft of the program and sort
  // them, where the owner index finds a page of the owner's drafts in order (1,000,000 projects: 1.1 s against 1 ms).
  if (q.stage === 'drafts') query = query.where(sql<boolean>`coalesce(projects.number, '') = ''`);
  if (q.stage === 'submitted') query = query.where(sql<boolean>`coalesce(projects.number, '') <> ''`);
  const { needsAction, search, after } = q;
  if (needsAction) query = query.where((eb) => needsActionCondition(eb, needsAction.statusIds));
  if (search) query = query.where((eb) => searchCondition(eb, search));
  if (after) query = query.where((eb) => eb(eb.refTuple('projects.updated_at', 'projects.id'), '<', eb.tuple(after.updatedAt, after.id)));
  // A literal LIMIT (checked above), as in listProjects: SQLite plans a bound one as if it could be any size.
  const rows = await query.orderBy('projects.updated_at', 'desc').orderBy('projects.id', 'desc').limit(sql.lit(q.limit)).execute();
  return rows.map(toProject);
}

/**
 * Deletes a project and everything kept per project: drafts and values (with their search rows), submissions,
 * status history, deadlines, access groups, envelopes, inquiry threads and notes, and its files' rows (returning their blob keys, for the
 * caller to release once the transaction commits). The audit log, the event outbox and webhook deliveries keep their
 * rows: they are the record of what happened.
 */
export async function deleteProjectRows(db: Db, projectId: string): Promise<string[]> {
  const blobs = await db.selectFrom('attachments').select('blob_key').where('project_id', '=', projectId).execute();
  await deleteProjectEnvelopes(db, projectId);
  const threads = db.selectFrom('inquiry_threads').select('id').where('project_id', '=', projectId);
  await db.deleteFrom('inquiry_notes').where('thread_id', 'in', threads).execute();
  for (const table of ['inquiry_threads', 'attachments', 'project_deadlines', 'project_table_cells', 'project_value_items', 'project_values', 'project_drafts', 'form_submissions', 'status_history', 'automation_schedule_marks', 'project_external_ids', 'field_lookups', 'connection_calls', 'project_access_groups'] as const) {
    await db.deleteFrom(table).where('project_id', '=', projectId).execute();
  }
  await db.deleteFrom('project_relations').where((eb) => eb.or([eb('from_project_id', '=', projectId), eb('to_project_id', '=', projectId)])).execute();
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
  return blobs.map((b) => b.blob_key);
}
