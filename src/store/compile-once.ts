import { type Compilable, CompiledQuery, type Kysely, PostgresAdapter } from 'kysely';
import { PREPARED_MARK } from './statement-names.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** A query parameter that compileOnce can stand in for: a value bound as it is. */
type Scalar = string | number;

const MARK = '\u0000apas-parameter:';
/** Compiled shapes kept per query and kind of database; calls beyond them are compiled each time. */
const MAX_SHAPES = 200;

/**
 * A read built and compiled by Kysely once per kind of database, then run with each call's values: Kysely otherwise
 * builds the operation tree and compiles it to SQL on every call, which the hot lookups of every request (a
 * project, its draft, its files) pay again and again. `build` is called once with stand-ins for its parameters,
 * so it must bind each of them as a value (no branching on them, no sql.lit) — as a plain where clause does. A
 * builder with a rest parameter (a list for `in`) is compiled once per number of parameters, up to MAX_SHAPES. On
 * PostgreSQL the text is marked so that each connection keeps it prepared (statement-names.ts).
 */
export function compileOnce<P extends Scalar[], Row>(build: (db: Db, ...params: P) => Compilable<Row>): (db: Db, ...params: P) => Promise<Row[]> {
  const templates = new Map<unknown, Map<number, Template>>();
  return async (db, ...params) => {
    const kind = db.getExecutor().adapter.constructor;
    let shapes = templates.get(kind);
    if (!shapes) templates.set(kind, (shapes = new Map()));
    let template = shapes.get(params.length);
    if (!template) {
      template = compile(build(db, ...(params.map((_, i) => `${MARK}${i}`) as P)), params.length, kind === PostgresAdapter);
      if (shapes.size < MAX_SHAPES) shapes.set(params.length, template);
    }
    const values = template.slots.map((s) => ('index' in s ? params[s.index] : s.value));
    return (await db.executeQuery<Row>(CompiledQuery.raw(template.sql, values))).rows;
  };
}

interface Template { sql: string; slots: ({ index: number } | { value: unknown })[] }

// The SQL and where each bound value comes from: a parameter (by its stand-in) or a constant of the query.
// On PostgreSQL the text is marked, so that each connection keeps it prepared (statement-names.ts).
function compile(query: Compilable<unknown>, count: number, prepared: boolean): Template {
  const compiled = query.compile();
  const slots = compiled.parameters.map((v) => (typeof v === 'string' && v.startsWith(MARK) ? { index: Number(v.slice(MARK.length)) } : { value: v }));
  if (slots.filter((s) => 'index' in s).length !== count) throw new Error('compileOnce: every parameter must be bound once as a value');
  return { sql: prepared ? PREPARED_MARK + compiled.sql : compiled.sql, slots };
}
