import { type Compilable, type Expression, type ExpressionBuilder, type Kysely, PostgresAdapter, type Selectable, type SelectQueryBuilder, type SqlBool, sql } from 'kysely';
import type { FieldValue, HistoryEntry, Project, ProjectListing } from '../model/model.ts';
import type { OwnerScope, ProjectQuery } from '../model/records.ts';
import { type MembersRead, readableBy } from './owner-scope.ts';
import { type GroupPlan, planGroupPage } from './access-group-plan.ts';
import { compileOnce } from './compile-once.ts';
import type { Dialect } from './dialect.ts';
import type { Database, ProjectTable } from './tables.ts';

type Db = Kysely<Database>;

/**
 * The columns toProject reads. The work queue's two (last applicant activity, attention) are left out: a row of fewer
 * columns costs less to read, on PostgreSQL above all, where each column of a result is set up and parsed by the client.
 */
export const PROJECT_COLUMNS = [
  'id', 'program_id', 'number', 'status_id', 'status_at', 'created_at', 'created_by', 'updated_at', 'updated_by', 'owner_id', 'assignee_id', 'version', 'organization_id',
  'access_groups',
] as const;

/** A project row as the domain sees it. */
export function toProject(r: Pick<Selectable<ProjectTable>, (typeof PROJECT_COLUMNS)[number]>): Project {
  return {
    id: r.id, programId: r.program_id, number: r.number, statusId: r.status_id, statusAt: r.status_at,
    createdAt: r.created_at, createdBy: r.created_by, updatedAt: r.updated_at, updatedBy: r.updated_by,
    ownerId: r.owner_id, assigneeId: r.assignee_id, version: r.version,
    // Only on organizations' projects: a personal project reads as it did before organizations existed.
    ...(r.organization_id ? { organizationId: r.organization_id } : {}),
    // Only on projects in an access group (migration 057): the one-project access decision reads it.
    ...(r.access_groups ? { accessGroups: JSON.parse(r.access_groups) as string[] } : {}),
  };
}

/** The columns of a ProjectListing. */
export const LISTING_COLUMNS = ['id', 'program_id', 'number', 'status_id', 'status_at', 'created_at', 'updated_at'] as const;

type ListingRow = Pick<Selectable<ProjectTable>, (typeof LISTING_COLUMNS)[number]>;

function toListing(r: ListingRow): ProjectListing {
  return { id: r.id, programId: r.program_id, number: r.number, statusId: r.status_id, statusAt: r.status_at, createdAt: r.created_at, updatedAt: r.updated_at };
}

// The columns toValue reads: a row of fewer columns costs less to read (the search columns are left out).
const VALUE_COLUMNS = ['field_id', 'value', 'values_json', 'updated_at', 'updated_by'] as const;

function toValue(r: { field_id: string; value: string | null; values_json: string | null; updated_at: number; updated_by: string }): FieldValue {
  return {
    fieldId: r.field_id, value: r.value, values: r.values_json === null ? null : (JSON.parse(r.values_json) as string[]),
    updatedAt: r.updated_at, updatedBy: r.updated_by,
  };
}

const projectRow = compileOnce((db, programId: string, projectId: string) =>
  db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', '=', projectId).where('program_id', '=', programId));

/** A project of a program. */
export async function getProject(db: Db, programId: string, projectId: string): Promise<Project | null> {
  const [r] = await projectRow(db, programId, projectId);
  return r ? toProject(r) : null;
}

/**
 * A project of a program, locked until the transaction ends, so that changes of one project queue instead of failing.
 * PostgreSQL locks the row; SQLite needs nothing more, since a write transaction (BEGIN IMMEDIATE) holds the database's
 * one write lock from its start.
 */
export async function lockProject(db: Db, dialect: Dialect, programId: string, projectId: string): Promise<Project | null> {
  const query = db.selectFrom('projects').select(PROJECT_COLUMNS).where('id', '=', projectId).where('program_id', '=', programId);
  const r = await (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
  return r ? toProject(r) : null;
}

/**
 * A page of a program's projects in creation order: optionally one owner's, changed since a time, or matching `where`;
 * from `offset`, or by keyset after `after` (a range read of the (program_id, created_at, id) index from there, so a
 * deep page costs what the first one does).
 */
export async function listProjects(
  db: Db, q: ProjectQuery, where?: (eb: ExpressionBuilder<Database, 'projects'>) => Expression<SqlBool>,
): Promise<Project[]> {
  return (await projectPage(db, q, null, where)).map(toProject);
}

/** The same page as listProjects, of listings: what GetProjects shows, read without the projects' other columns. */
export async function listProjectListings(db: Db, q: ProjectQuery): Promise<ProjectListing[]> {
  return (await projectPage(db, q, LISTING_COLUMNS)).map((r) => toListing(r as ListingRow));
}

type PageColumns = readonly (keyof ProjectTable & string)[] | null;
type PageWhere = (eb: ExpressionBuilder<Database, 'projects'>) => Expression<SqlBool>;

/** A page's query of listings, as a statement over it sees it (its columns are LISTING_COLUMNS). */
export type ListingPageQuery = SelectQueryBuilder<Database, 'projects', ListingRow>;

/** A statement read over a page's query instead of its rows (listing-page-json.ts); `name` keeps its compiled shapes apart. */
export interface PageWrap<Row> { name: string; wrap(db: Db, page: ListingPageQuery): Compilable<Row> }

/**
 * The page listProjectListings reads, through `wrap`: the same query (filters, keyset, access-group plan, literal LIMIT
 * and OFFSET), compiled once per shape as projectPage's are, read as the rows of the statement `wrap` makes of it.
 */
export async function wrappedListingPage<Row>(db: Db, q: ProjectQuery, wrap: PageWrap<Row>): Promise<Row[]> {
  return (await projectPage(db, q, LISTING_COLUMNS, undefined, wrap as PageWrap<unknown>)) as unknown as Row[];
}

// The query of a page; `fewChanged` reads it by the last-change index and sorts it, `members` tests (or drives) it by
// the caller's access groups' members (see projectPage).
function pageQuery(db: Db, q: ProjectQuery, columns: PageColumns, where: PageWhere | undefined, fewChanged: boolean, members?: MembersRead) {
  const filtered = (from: Db) => {
    const selected = from.selectFrom('projects');
    let query = (columns === null ? selected.selectAll('projects') : selected.select(columns.map((c) => `projects.${c}` as const)) as unknown as ReturnType<typeof selected.selectAll<'projects'>>)
      .where('projects.program_id', '=', q.programId);
    if (q.owner !== undefined) query = query.where(readableBy('projects', q.owner, members));
    if (q.changedSince !== undefined) query = query.where('projects.updated_at', '>', q.changedSince);
    if (where) query = query.where(where);
    const after = q.after;
    if (after) query = query.where((eb) => eb(eb.refTuple('projects.created_at', 'projects.id'), '>', eb.tuple(after.createdAt, after.id)));
    return query;
  };
  // PostgreSQL would still walk the creation order when it expects the page soon, testing each project against the
  // members: a materialized CTE lets it read the members first. SQLite drives by the members' `id in` by itself.
  return fewChanged || (members?.drive === true && db.getExecutor().adapter instanceof PostgresAdapter)
    ? db.with((w) => w('page').materialized(), (w) => filtered(w as unknown as Db)).selectFrom('page').selectAll()
      .orderBy('created_at').orderBy('id').limit(sql.lit(q.limit)).offset(sql.lit(q.offset))
    : filtered(db).orderBy('projects.created_at').orderBy('projects.id').limit(sql.lit(q.limit)).offset(sql.lit(q.offset));
}

type PageRead = (db: Db, ...params: (string | number)[]) => Promise<Selectable<ProjectTable>[]>;
/** Page queries compiled once, by shape (see pageShape); pages of other shapes beyond this many are built each time. */
const MAX_PAGE_SHAPES = 256;
const pageReads = new Map<string, PageRead>();

// What a page's SQL depends on besides its bound values: the columns, which filters, the literal LIMIT and OFFSET.
function pageShape(q: ProjectQuery, columns: PageColumns, fewChanged: boolean, members: GroupPlan): string {
  const owner = q.owner === undefined ? '-' : `${q.owner.ownerId === null ? 's' : 'o'}${q.owner.organizationIds.length}g${q.owner.groups?.length ?? '-'}`;
  return `${columns === null ? '*' : columns.join(',')}|${owner}|${q.changedSince !== undefined}|${q.after !== undefined}|${q.limit}|${q.offset}|${fewChanged}|${members}`;
}

// A page's bound values in order, and the query back from them (the stand-ins compileOnce passes).
function pageParams(q: ProjectQuery, members: GroupPlan): (string | number)[] {
  const groups = q.owner?.groups ? [...(members !== 'probe' ? [q.programId] : []), ...q.owner.groups] : [];
  return [
    q.programId, ...(q.owner ? [...(q.owner.ownerId === null ? [] : [q.owner.ownerId]), ...q.owner.organizationIds, ...groups] : []),
    ...(q.changedSince !== undefined ? [q.changedSince] : []),
    ...(q.after ? [q.after.createdAt, q.after.id] : []),
  ];
}

// The query, and how its members are read (their program id bound once more, before the groups) unless probed.
function pageFromParams(shape: ProjectQuery, params: (string | number)[], members: GroupPlan): [ProjectQuery, MembersRead | undefined] {
  let i = 0;
  const next = () => params[i++] as never;
  const programId: string = next();
  let read: MembersRead | undefined;
  const owner = shape.owner ? ownerFromParams(shape.owner, next, () => { if (members !== 'probe') read = { programId: next(), drive: members === 'drive' }; }) : undefined;
  const changedSince = shape.changedSince !== undefined ? (next() as number) : undefined;
  const after = shape.after ? { createdAt: next() as number, id: next() as string } : undefined;
  return [{
    programId, limit: shape.limit, offset: shape.offset,
    ...(owner ? { owner } : {}), ...(changedSince !== undefined ? { changedSince } : {}), ...(after ? { after } : {}),
  }, read];
}

// `beforeGroups` reads what is bound between the organizations and the groups (the members' program id).
function ownerFromParams(shape: OwnerScope, next: () => never, beforeGroups: () => void): OwnerScope {
  const ownerId = shape.ownerId === null ? null : (next() as string);
  const organizationIds = shape.organizationIds.map(() => next() as string);
  if (shape.groups) beforeGroups();
  return { ownerId, organizationIds, ...(shape.groups ? { groups: shape.groups.map(() => next() as string) } : {}) };
}

// The rows of a page, of every column (null) or of `columns` (with `wrap`, the rows of the statement it makes over the
// page). Without `where`, its query is built and compiled once per shape and then only bound (compile-once.ts): polls
// and listings ask for the same few shapes again and again.
async function projectPage(db: Db, q: ProjectQuery, columns: PageColumns, where?: PageWhere, wrap?: PageWrap<unknown>): Promise<Selectable<ProjectTable>[]> {
  // LIMIT and OFFSET are written as literals: with a bound LIMIT SQLite's planner cannot tell a page of 100 from
  // a page of millions, and walks the program in creation order even when changed_since selects 1% of it (130 ms
  // instead of 2 ms at 1,000,000 projects). Both are whole numbers checked here, so nothing else reaches the SQL.
  if (!Number.isSafeInteger(q.limit) || !Number.isSafeInteger(q.offset) || q.limit < 0 || q.offset < 0) throw new Error(`bad page ${q.limit}/${q.offset}`);
  // A poll's changes are mostly the newest projects, which a walk in creation order reaches last: PostgreSQL took
  // 0.8 s at 1,000,000 projects walking there. Few changes are read by the last-change index and sorted instead.
  // (SQLite's planner already does so, given the literal LIMIT.)
  const fewChanged = q.changedSince !== undefined && db.getExecutor().adapter instanceof PostgresAdapter && (await changedFew(db, q.programId, q.changedSince));
  // A staff caller limited to a small access group: its page is tested or driven by the group's members (access-group-plan.ts).
  const members = q.owner?.ownerId === null && q.owner.groups !== undefined ? await planGroupPage(db, q.programId, q.owner.groups, q.offset + q.limit, q.tuning) : 'probe';
  const membersOf = members === 'probe' ? undefined : { programId: q.programId, drive: members === 'drive' };
  // The page's query, or the statement `wrap` makes of it.
  const build = (from: Db, page: ProjectQuery, of: MembersRead | undefined, filter?: PageWhere) => {
    const query = pageQuery(from, page, columns, filter, fewChanged, of);
    return (wrap ? wrap.wrap(from, query as unknown as ListingPageQuery) : query) as Compilable<Selectable<ProjectTable>>;
  };
  if (where) return db.executeQuery(build(db, q, membersOf, where).compile()).then((r) => r.rows);
  const shape = `${pageShape(q, columns, fewChanged, members)}|${wrap?.name ?? ''}`;
  let read = pageReads.get(shape);
  if (!read) {
    if (pageReads.size >= MAX_PAGE_SHAPES) return db.executeQuery(build(db, q, membersOf).compile()).then((r) => r.rows);
    read = compileOnce((from, ...params: (string | number)[]) => {
      const [page, of] = pageFromParams(q, params, members);
      return build(from, page, of);
    }) as PageRead;
    pageReads.set(shape, read);
  }
  return read(db, ...pageParams(q, members));
}

/** Polls (changed_since) with at most this many changes read them by the last-change index and sort them. */
const FEW_CHANGES = 20_000;

// True when fewer than FEW_CHANGES projects of the program changed after `since`: a range count of the
// (program_id, updated_at, id) index that stops at FEW_CHANGES, so it costs at most that many index entries.
const changedCount = compileOnce((db, programId: string, since: number) => db.selectFrom((eb) => eb.selectFrom('projects').select('projects.id')
  .where('projects.program_id', '=', programId).where('projects.updated_at', '>', since).limit(sql.lit(FEW_CHANGES)).as('changed'))
  .select((eb) => eb.fn.countAll<number>().as('n')));

async function changedFew(db: Db, programId: string, since: number): Promise<boolean> {
  const [row] = await changedCount(db, programId, since);
  return Number(row!.n) < FEW_CHANGES;
}

/**
 * How many numbers one lookup statement binds: well below the most parameters one statement may have (SQLite
 * 32766, PostgreSQL 65535), so that any APAS_MAX_NUMBERS_PER_REQUEST works.
 */
export const NUMBERS_PER_QUERY = 5000;

/** The projects of a program whose numbers are among `numbers`, looked up NUMBERS_PER_QUERY at a time. */
export async function findProjectsByNumbers(db: Db, programId: string, numbers: string[], owner?: OwnerScope): Promise<Project[]> {
  return (await rowsByNumbers(db, programId, numbers, null, owner)).map(toProject);
}

/** The listings of the projects findProjectsByNumbers finds: what GetProjectsByNumber shows, without the other columns. */
export async function findListingsByNumbers(db: Db, programId: string, numbers: string[], owner?: OwnerScope): Promise<ProjectListing[]> {
  return (await rowsByNumbers(db, programId, numbers, LISTING_COLUMNS, owner)).map((r) => toListing(r as ListingRow));
}

/**
 * The listings findListingsByNumbers finds, through `wrap`, a statement over each chunk's query (listing-page-json.ts):
 * its rows, one set a chunk, in no particular order.
 */
export async function wrappedListingsByNumbers<Row>(db: Db, programId: string, numbers: string[], wrap: PageWrap<Row>, owner?: OwnerScope): Promise<Row[]> {
  return (await rowsByNumbers(db, programId, numbers, LISTING_COLUMNS, owner, wrap as PageWrap<unknown>)) as unknown as Row[];
}

async function rowsByNumbers(
  db: Db, programId: string, numbers: string[], columns: readonly (keyof ProjectTable & string)[] | null, owner?: OwnerScope, wrap?: PageWrap<unknown>,
): Promise<Selectable<ProjectTable>[]> {
  const distinct = [...new Set(numbers)];
  const rows: Selectable<ProjectTable>[] = [];
  for (let start = 0; start < distinct.length; start += NUMBERS_PER_QUERY) {
    const selected = db.selectFrom('projects');
    let query = (columns === null ? selected.selectAll() : selected.select(columns) as unknown as ReturnType<typeof selected.selectAll>)
      .where('program_id', '=', programId).where('number', 'in', distinct.slice(start, start + NUMBERS_PER_QUERY));
    if (owner !== undefined) query = query.where(readableBy('projects', owner));
    rows.push(...(wrap ? (await db.executeQuery(wrap.wrap(db, query as unknown as ListingPageQuery).compile())).rows as Selectable<ProjectTable>[] : await query.execute()));
  }
  if (wrap) return rows;
  // Sorted here, not in SQL: an ORDER BY tempts the planner to walk the program's projects in creation order
  // instead of looking the numbers up in the unique (program, number) index. Numbers are distinct, so no project
  // comes back from two chunks.
  return rows.sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** How many projects are currently in any of the statuses. */
export async function countProjectsInStatuses(db: Db, statusIds: string[]): Promise<number> {
  if (statusIds.length === 0) return 0;
  const row = await db.selectFrom('projects').select((eb) => eb.fn.countAll<number>().as('n')).where('status_id', 'in', statusIds).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The draft values of one form of a project. */
export async function getDraft(db: Db, projectId: string, formId: string): Promise<FieldValue[]> {
  return (await draftRows(db, projectId, formId)).map(toValue);
}

const draftRows = compileOnce((db, projectId: string, formId: string) =>
  db.selectFrom('project_drafts').select(VALUE_COLUMNS).where('project_id', '=', projectId).where('form_id', '=', formId));

/** The draft values of several projects' forms (read in batches of project ids), each with its project and form. */
export async function draftsOfProjects(db: Db, projectIds: string[], formIds: string[]): Promise<{ projectId: string; formId: string; value: FieldValue }[]> {
  const ids = [...new Set(projectIds)];
  if (formIds.length === 0) return [];
  const out: { projectId: string; formId: string; value: FieldValue }[] = [];
  for (let start = 0; start < ids.length; start += 1000) {
    const rows = await db.selectFrom('project_drafts').selectAll().where('project_id', 'in', ids.slice(start, start + 1000)).where('form_id', 'in', formIds).execute();
    out.push(...rows.map((r) => ({ projectId: r.project_id, formId: r.form_id, value: toValue(r) })));
  }
  return out;
}

/** Up to this many fields are looked up one by one; more are read with the rest of the project's values. */
const LOOKUPS_BELOW = 4;

/**
 * The submitted values of the given fields of a project. A form's fields (GetProjectData's read) are picked from all
 * of the project's values, read in one walk of the primary key: looking each field up costs a search of the key and a
 * bound parameter per field, which for a form of 18 fields took half again as long as reading the whole project.
 */
export async function getValues(db: Db, projectId: string, fieldIds: string[]): Promise<FieldValue[]> {
  if (fieldIds.length === 0) return [];
  if (fieldIds.length < LOOKUPS_BELOW) return (await valueRows(db, projectId, ...fieldIds)).map(toValue);
  const wanted = new Set(fieldIds);
  return (await projectValueRows(db, projectId)).filter((r) => wanted.has(r.field_id)).map(toValue);
}

const valueRows = compileOnce((db, projectId: string, ...fieldIds: string[]) =>
  db.selectFrom('project_values').select(VALUE_COLUMNS).where('project_id', '=', projectId).where('field_id', 'in', fieldIds));

// Ordered by the key, as the lookups come back, so that both ways give the values in one order.
const projectValueRows = compileOnce((db, projectId: string) =>
  db.selectFrom('project_values').select(VALUE_COLUMNS).where('project_id', '=', projectId).orderBy('field_id'));

/** Every submitted value of a project with the form that last saved it. */
export async function getAllValues(db: Db, projectId: string): Promise<(FieldValue & { formId: string })[]> {
  const rows = await db.selectFrom('project_values').selectAll().where('project_id', '=', projectId).execute();
  return rows.map((r) => ({ ...toValue(r), formId: r.form_id }));
}

/** Sets how a history entry is reported. */
export async function setHistoryReportAs(db: Db, entryId: string, reportAs: string): Promise<void> {
  await db.updateTable('status_history').set({ report_as: reportAs }).where('id', '=', entryId).execute();
}

/** A project's status history, newest first. */
export async function getHistory(db: Db, projectId: string): Promise<HistoryEntry[]> {
  const rows = await db.selectFrom('status_history').selectAll().where('project_id', '=', projectId)
    .orderBy('changed_at', 'desc').orderBy('seq', 'desc').execute();
  return rows.map((r) => ({
    id: r.id, projectId: r.project_id, statusId: r.status_id, changedAt: r.changed_at, changedBy: r.changed_by, reportAs: r.report_as,
    // Only entries of a move that gave a reason or message carry the keys, as entries written before 028 have none.
    ...(r.reason_id === null ? {} : { reasonId: r.reason_id }),
    ...(r.message === null ? {} : { message: r.message }),
    ...(r.automation === null ? {} : { automation: r.automation }),
  }));
}


/** Inserts a new project. */
export async function insertProject(db: Db, p: Project): Promise<void> {
  await db.insertInto('projects').values({
    id: p.id, program_id: p.programId, number: p.number, status_id: p.statusId, status_at: p.statusAt,
    created_at: p.createdAt, created_by: p.createdBy, updated_at: p.updatedAt, updated_by: p.updatedBy,
    owner_id: p.ownerId, assignee_id: p.assigneeId, version: p.version, organization_id: p.organizationId ?? null,
  }).execute();
}

const COLUMNS: Record<string, keyof ProjectTable> = {
  number: 'number', statusId: 'status_id', statusAt: 'status_at', updatedAt: 'updated_at',
  updatedBy: 'updated_by', ownerId: 'owner_id', assigneeId: 'assignee_id',
};

/** Compare-and-set update of a project; false when its version moved on (a concurrent change won). */
export async function updateProject(db: Db, id: string, expectedVersion: number, changes: Partial<Project>): Promise<boolean> {
  const set: Record<string, unknown> = { version: expectedVersion + 1 };
  for (const [key, value] of Object.entries(changes)) {
    const column = COLUMNS[key];
    if (column && value !== undefined) set[column] = value;
  }
  const result = await db.updateTable('projects').set(set).where('id', '=', id).where('version', '=', expectedVersion).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function valueColumns(v: FieldValue) {
  return { value: v.value, values_json: v.values === null ? null : JSON.stringify(v.values), updated_at: v.updatedAt, updated_by: v.updatedBy };
}

/**
 * A value to store. `index` is given for a sealed value (a sensitive field's): the blind indexes that stand in for its
 * folded search text (and no number is kept), since the sealed text itself says nothing searchable.
 */
export type StoredValue = FieldValue & {
  index?: { value: string | null; items: string[] };
  /** For a table field's value: its filled cells (0-based row, column customId), kept for searches on a column. */
  cells?: { row: number; column: string; value: string }[];
};

/** The search rows of a table value's cells (none for other values). */
export function cellRows(projectId: string, v: StoredValue) {
  return (v.cells ?? []).map((c) => ({
    project_id: projectId, field_id: v.fieldId, row_index: c.row, column_key: c.column, value: c.value, folded: fold(c.value), num_value: numericValue(c.value),
  }));
}

/** The search columns of a value: its number and folded text, or a sealed value's blind index. */
export function searchColumns(v: StoredValue): { num_value: number | null; folded: string | null } {
  if (v.index) return { num_value: null, folded: v.index.value };
  return { num_value: numericValue(v.value), folded: v.value === null ? null : fold(v.value) };
}

/** The rows of a multi-value field's items, each with its search columns (a sealed item's blind index). */
export function itemRows(projectId: string, v: StoredValue) {
  return (v.values ?? []).map((value, position) => ({
    project_id: projectId, field_id: v.fieldId, position, value,
    folded: v.index ? (v.index.items[position] as string) : fold(value), num_value: v.index ? null : numericValue(value),
  }));
}

/** Rows per multi-row statement: far below either database's limit on bound parameters. */
const ROWS_PER_STATEMENT = 500;

// One value per field, the last one given winning as it would with one statement per value (a multi-row upsert may
// not touch a row twice on PostgreSQL).
function lastPerField<V extends FieldValue>(values: V[]): V[] {
  return [...new Map(values.map((v) => [v.fieldId, v])).values()];
}

function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_STATEMENT) out.push(rows.slice(i, i + ROWS_PER_STATEMENT));
  return out;
}

/** Writes draft values of a form, replacing earlier ones of the same fields, in one statement per 500 fields. */
export async function upsertDraft(db: Db, projectId: string, formId: string, values: FieldValue[]): Promise<void> {
  for (const part of chunks(lastPerField(values))) {
    await db.insertInto('project_drafts').values(part.map((v) => ({ project_id: projectId, form_id: formId, field_id: v.fieldId, ...valueColumns(v) })))
      .onConflict((oc) => oc.columns(['project_id', 'form_id', 'field_id']).doUpdateSet((eb) => ({
        value: eb.ref('excluded.value'), values_json: eb.ref('excluded.values_json'), updated_at: eb.ref('excluded.updated_at'), updated_by: eb.ref('excluded.updated_by'),
      }))).execute();
  }
}

const NUMERIC = /^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/;

/** The number a value stands for, kept beside the text so that searches compare numbers as numbers. */
export function numericValue(text: string | null): number | null {
  if (text === null || !NUMERIC.test(text)) return null;
  const n = Number(text);
  return Number.isFinite(n) ? n : null;
}

/** Lower-cases a value for case-insensitive search. */
// Folded in JavaScript rather than by SQL lower(), which folds only ASCII on SQLite but all letters on PostgreSQL.
export function fold(text: string): string {
  return text.toLowerCase();
}

/**
 * Writes submitted values, replacing earlier ones of the same fields. A field has one value per project, so the
 * unsubmitted changes of these fields in every form's draft are settled by it and removed (the later write wins).
 */
export async function upsertValues(db: Db, projectId: string, formId: string, values: StoredValue[]): Promise<void> {
  for (const part of chunks(lastPerField(values))) {
    await db.deleteFrom('project_drafts').where('project_id', '=', projectId).where('field_id', 'in', part.map((v) => v.fieldId)).execute();
    await db.insertInto('project_values').values(part.map((v) => ({
      project_id: projectId, field_id: v.fieldId, ...valueColumns(v), form_id: formId, ...searchColumns(v),
    }))).onConflict((oc) => oc.columns(['project_id', 'field_id']).doUpdateSet((eb) => ({
      value: eb.ref('excluded.value'), values_json: eb.ref('excluded.values_json'), updated_at: eb.ref('excluded.updated_at'), updated_by: eb.ref('excluded.updated_by'),
      form_id: eb.ref('excluded.form_id'), num_value: eb.ref('excluded.num_value'), folded: eb.ref('excluded.folded'),
    }))).execute();
    await db.deleteFrom('project_value_items').where('project_id', '=', projectId).where('field_id', 'in', part.map((v) => v.fieldId)).execute();
    const items = part.flatMap((v) => itemRows(projectId, v));
    for (const rows of chunks(items)) await db.insertInto('project_value_items').values(rows).execute();
    await db.deleteFrom('project_table_cells').where('project_id', '=', projectId).where('field_id', 'in', part.map((v) => v.fieldId)).execute();
    const cells = part.flatMap((v) => cellRows(projectId, v));
    for (const rows of chunks(cells)) await db.insertInto('project_table_cells').values(rows).execute();
  }
}

/** Records one submission of a form. */
export async function insertSubmission(db: Db, row: { id: string; projectId: string; formId: string; at: number; by: string }): Promise<void> {
  await db.insertInto('form_submissions').values({ id: row.id, project_id: row.projectId, form_id: row.formId, submitted_at: row.at, submitted_by: row.by }).execute();
}

/** Every form submission of a project, oldest first. */
export async function getSubmissions(db: Db, projectId: string): Promise<{ formId: string; submittedAt: number; submittedBy: string }[]> {
  const rows = await db.selectFrom('form_submissions').select(['form_id', 'submitted_at', 'submitted_by']).where('project_id', '=', projectId).orderBy('submitted_at').execute();
  return rows.map((r) => ({ formId: r.form_id, submittedAt: Number(r.submitted_at), submittedBy: r.submitted_by }));
}

/** Appends a status-history entry after the project's last one (the unique (project, seq) refuses a race). */
export async function insertHistory(db: Db, e: HistoryEntry): Promise<void> {
  const last = await db.selectFrom('status_history').select((eb) => eb.fn.max<number>('seq').as('seq')).where('project_id', '=', e.projectId).executeTakeFirst();
  await db.insertInto('status_history').values({
    id: e.id, project_id: e.projectId, status_id: e.statusId, changed_at: e.changedAt, changed_by: e.changedBy, report_as: e.reportAs,
    seq: Number(last?.seq ?? 0) + 1,
    ...(e.reasonId || e.message ? { reason_id: e.reasonId ?? null, message: e.message ?? null } : {}),
    ...(e.automation ? { automation: e.automation } : {}),
  }).execute();
}

/** Takes the program's next project number; the row update serialises concurrent takers. */
export async function takeProjectNumber(db: Db, programId: string): Promise<number> {
  const row = await db.updateTable('programs').set({ next_number: sql`next_number + 1` }).where('id', '=', programId)
    .returning('next_number').executeTakeFirstOrThrow();
  return Number(row.next_number) - 1;
}

