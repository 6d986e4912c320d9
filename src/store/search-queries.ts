import { type ExpressionBuilder, type Expression, type Kysely, PostgresAdapter, type RawBuilder, type SqlBool, sql } from 'kysely';
import type { Project } from '../model/model.ts';
import { listProjects } from './project-queries.ts';
import type { FieldCondition, ProjectSearch } from '../model/records.ts';
import { VALUE_PREFIX_CHARS } from './migrations/007-value-prefix-indexes.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;
type Eb = ExpressionBuilder<Database, 'projects'>;

const COMPARE = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/** Escapes LIKE wildcards with `!`, the escape character every LIKE below names. */
function likeText(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

// The positive subqueries are not correlated: the database reads the matching ids once through the (field, value) and
// (field, number) indexes and looks the projects up by id, instead of testing every project of the program.
function valueRows(eb: Eb, fieldId: string) {
  return eb.selectFrom('project_values as v').select('v.project_id').where('v.field_id', '=', fieldId);
}

function itemRows(eb: Eb, fieldId: string) {
  return eb.selectFrom('project_value_items as i').select('i.project_id').where('i.field_id', '=', fieldId);
}

type IdRows = ReturnType<typeof valueRows>;

/** A condition either names the projects it matches (an id subquery) or filters each project (anti-joins). */
type Condition = { ids: IdRows } | { filter: Expression<SqlBool> };

function among(ids: IdRows): Condition {
  return { ids };
}

// NOT EXISTS, correlated on the (project, field) key, rather than NOT IN: PostgreSQL runs NOT IN over a set larger
// than its work memory once per project, and NOT EXISTS becomes an anti-join on both databases.
function notAmong(eb: Eb, rows: IdRows, table: 'v' | 'i'): Condition {
  return { filter: eb.not(eb.exists(rows.whereRef(sql.ref(`${table}.project_id`), '=', 'projects.id'))) };
}

// A condition on the submitted value(s) of a field. A multi-value field matches when any one of its values does;
// `ne` matches when none equals, and `empty` when there is none, so both also match projects without a value.
function fieldCondition(eb: Eb, c: FieldCondition, collation: RawBuilder<unknown>): Condition {
  const multi = c.kind === 'multi' || c.kind === 'multiNumber';
  const numeric = c.kind === 'number' || c.kind === 'multiNumber';
  const table = multi ? 'i' : 'v';
  // Both tables have the columns used below (value, folded, num_value), referred to through the alias.
  const rows = () => (multi ? itemRows(eb, c.fieldId) : valueRows(eb, c.fieldId)) as unknown as IdRows;
  const content = c.content ?? '';
  if (c.op === 'empty' || c.op === 'notempty') {
    const filled = rows().where(sql.ref(`${table}.value`), 'is not', null).where(sql.ref(`${table}.value`), '<>', '');
    return c.op === 'empty' ? notAmong(eb, filled, table) : among(filled);
  }
  if (c.op === 'contains') {
    // Both sides are folded in JavaScript, so the match ignores letter case the same way on both databases.
    return among(rows().where(sql<SqlBool>`${sql.ref(`${table}.folded`)} like ${`%${likeText(content.toLowerCase())}%`} escape '!'`));
  }
  if (numeric) {
    const column = sql.ref(`${table}.num_value`);
    if (c.op === 'ne') return notAmong(eb, rows().where(column, '=', c.number), table);
    return among(rows().where(column, COMPARE[c.op], c.number));
  }
  const column = sql.ref(`${table}.value`);
  // Equal values have equal prefixes: the prefix comparison lets the (field, prefix) index find the candidates.
  // Order comparisons read the field's values through the same index and compare whole values, in code-point order.
  // Content shorter than the prefix equals a value exactly when the value's prefix does (a longer value has a
  // prefix as long as the prefix), so the index alone answers; longer content is compared whole as well.
  const prefix = sql`substr(${column}, 1, ${sql.lit(VALUE_PREFIX_CHARS)})`;
  const equal = () => ([...content].length < VALUE_PREFIX_CHARS
    ? rows().where(prefix, '=', content)
    : rows().where(prefix, '=', sql`substr(${content}, 1, ${sql.lit(VALUE_PREFIX_CHARS)})`).where(column, '=', content));
  if (c.op === 'eq') return among(equal());
  if (c.op === 'ne') return notAmong(eb, equal(), table);
  // An empty text is no value (as for `empty`), so no order comparison matches it.
  return among(rows().where(column, '<>', '').where(sql<SqlBool>`${column}${collation} ${sql.raw(COMPARE[c.op])} ${content}`));
}

/** The collation that orders text by code point on this database (nothing on SQLite, `collate "C"` on PostgreSQL). */
// Text in Unicode code-point order on both databases, whatever collation PostgreSQL was set up with: SQLite's BINARY
// collation (its default) compares UTF-8 bytes, and so does PostgreSQL's "C"; UTF-8 byte order is code-point order.
export function codePointCollation(db: Db): RawBuilder<unknown> {
  return db.getExecutor().adapter instanceof PostgresAdapter ? sql` collate "C"` : sql``;
}

/** The filters of a search other than its program, owner and page. */
export type SearchConditions = Pick<ProjectSearch, 'statusIn' | 'statusNotIn' | 'statusDates' | 'fields'>;

/**
 * A search's conditions (statuses, status dates, submitted values) as one expression over `projects`. The id
 * subqueries of the conditions are intersected before any project row is read: with several broad filters (a make
 * shared by 150,000 projects, a size range matching 70,000) the database then looks up only the projects that pass
 * them all, instead of every project that passes one of them.
 */
export function searchConditions(eb: Eb, s: SearchConditions, collation: RawBuilder<unknown>): Expression<SqlBool> {
  const all: Expression<SqlBool>[] = [];
  if (s.statusIn) all.push(s.statusIn.length > 0 ? eb('projects.status_id', 'in', s.statusIn) : sql<SqlBool>`1 = 0`);
  if (s.statusNotIn && s.statusNotIn.length > 0) all.push(eb('projects.status_id', 'not in', s.statusNotIn));
  const conditions: Condition[] = s.statusDates.map((d) => among(eb.selectFrom('status_history as h').select('h.project_id')
    .where('h.status_id', '=', d.statusId).where('h.changed_at', COMPARE[d.op], d.at) as unknown as IdRows));
  conditions.push(...s.fields.map((c) => fieldCondition(eb, c, collation)));
  const idSets = conditions.flatMap((c) => ('ids' in c ? [c.ids] : []));
  if (idSets.length > 0) all.push(eb('projects.id', 'in', idSets.reduce((a, b) => a.intersect(b))));
  all.push(...conditions.flatMap((c) => ('filter' in c ? [c.filter] : [])));
  return eb.and(all);
}

/** Projects of a program matching every condition, in creation order. */
export async function searchProjects(db: Db, s: ProjectSearch): Promise<Project[]> {
  const collation = codePointCollation(db);
  return listProjects(db, { programId: s.programId, ownerId: s.ownerId, limit: s.limit, offset: s.offset }, (eb) => searchConditions(eb, s, collation));
}
