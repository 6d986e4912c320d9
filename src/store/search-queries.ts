import { type ExpressionBuilder, type Kysely, type SqlBool, sql, type Expression } from 'kysely';
import type { Project } from '../domain/model.ts';
import { listProjects } from './project-queries.ts';
import type { FieldCondition, ProjectSearch } from './store.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;
type Eb = ExpressionBuilder<Database, 'projects'>;

const COMPARE = { eq: '=', ne: '<>', lt: '<', le: '<=', gt: '>', ge: '>=' } as const;

/** Escapes LIKE wildcards with `!`, the escape character every LIKE below names. */
function likeText(text: string): string {
  return text.replace(/[!%_]/g, (c) => `!${c}`);
}

function valueRows(eb: Eb, fieldId: string) {
  return eb.selectFrom('project_values as v').select(sql.lit(1).as('one'))
    .whereRef('v.project_id', '=', 'projects.id').where('v.field_id', '=', fieldId);
}

// A condition on one submitted value of the project; `ne` and `empty` also match projects without a value.
function fieldCondition(eb: Eb, c: FieldCondition): Expression<SqlBool> {
  const rows = () => valueRows(eb, c.fieldId);
  if (c.op === 'empty' || c.op === 'notempty') {
    const filled = c.kind === 'multi'
      ? rows().where('v.values_json', 'is not', null).where('v.values_json', '<>', '[]')
      : rows().where('v.value', 'is not', null).where('v.value', '<>', '');
    return c.op === 'empty' ? eb.not(eb.exists(filled)) : eb.exists(filled);
  }
  const content = c.content ?? '';
  if (c.op === 'contains') {
    const column = c.kind === 'multi' ? 'v.values_json' : 'v.value';
    // Inside JSON text a value's own quotes are escaped, so a pattern from JSON.stringify never spans two values.
    const inner = c.kind === 'multi' ? JSON.stringify(content).slice(1, -1) : content;
    return eb.exists(rows().where(sql<SqlBool>`lower(${sql.ref(column)}) like lower(${`%${likeText(inner)}%`}) escape '!'`));
  }
  if (c.kind === 'multi') {
    const any = eb.exists(rows().where(sql<SqlBool>`${sql.ref('v.values_json')} like ${`%${likeText(JSON.stringify(content))}%`} escape '!'`));
    return c.op === 'ne' ? eb.not(any) : any;
  }
  if (c.op === 'ne') {
    const same = c.kind === 'number' ? rows().where('v.num_value', '=', c.number) : rows().where('v.value', '=', content);
    return eb.not(eb.exists(same));
  }
  const op = COMPARE[c.op];
  return eb.exists(c.kind === 'number' ? rows().where('v.num_value', op, c.number) : rows().where('v.value', op, content));
}

/** Projects of a program matching every condition, in creation order; every condition is an indexed subquery. */
export async function searchProjects(db: Db, s: ProjectSearch): Promise<Project[]> {
  return listProjects(db, { programId: s.programId, ownerId: s.ownerId, limit: s.limit, offset: s.offset }, (eb) => {
    const all: Expression<SqlBool>[] = [];
    if (s.statusIn) all.push(s.statusIn.length > 0 ? eb('projects.status_id', 'in', s.statusIn) : sql<SqlBool>`1 = 0`);
    if (s.statusNotIn && s.statusNotIn.length > 0) all.push(eb('projects.status_id', 'not in', s.statusNotIn));
    for (const d of s.statusDates) {
      all.push(eb.exists(eb.selectFrom('status_history as h').select(sql.lit(1).as('one'))
        .whereRef('h.project_id', '=', 'projects.id').where('h.status_id', '=', d.statusId).where('h.changed_at', COMPARE[d.op], d.at)));
    }
    for (const c of s.fields) all.push(fieldCondition(eb, c));
    return eb.and(all);
  });
}
