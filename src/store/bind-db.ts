import type { Kysely } from 'kysely';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/** Query functions that take the database (or a transaction) first. */
type QueryFunctions = Record<string, (db: Db, ...args: never[]) => unknown>;

/** The same functions with the database already given: a repository's methods. */
export type Bound<F extends QueryFunctions> = {
  [K in keyof F]: F[K] extends (db: Db, ...args: infer A) => infer R ? (...args: A) => R : never;
};

/**
 * Binds query functions to a database or a transaction. A repository is its query functions bound this way, so a new
 * query is written once, in its file, and its signature is the repository's.
 */
export function bindDb<F extends QueryFunctions>(db: Db, functions: F): Bound<F> {
  const bound: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(functions)) bound[name] = (...args: never[]) => fn(db, ...args);
  return bound as Bound<F>;
}
