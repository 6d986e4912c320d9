/**
 * What the plan printers (explain-queue.ts, explain-my-projects.ts) share: a kept benchmark database opened read-only
 * twice (Kysely, which logs each statement it runs, and a raw binding for EXPLAIN), a one-row reader, and `run`, which
 * times one call and prints the plan of the statement it names.
 */
import { Kysely, SqliteDialect } from 'kysely';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import type { Database } from '../src/store/tables.ts';

interface Logged { sql: string; parameters: readonly unknown[] }

/** The database, the raw reader and the timed plan printer over `file`; `close` when done. */
export function explainedDatabase(file: string | undefined, usage: string) {
  if (!file) throw new Error(`usage: ${usage}`);
  const raw = new SqliteBinding(file, { readonly: true });
  const logged: Logged[] = [];
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: new SqliteBinding(file, { readonly: true }) }),
    log: (event) => {
      if (event.level === 'query') logged.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
  return {
    db,
    /** The first row of a raw query. */
    one: <T>(query: string) => raw.prepare(query).get() as T,
    /** Times `work`, prints `name`, what `describe` says of its result, and the plan of its first (or, with `last`, last) statement. */
    async run<T>(name: string, work: () => Promise<T>, describe: (result: T) => string, last = false): Promise<void> {
      logged.length = 0;
      const started = performance.now();
      const result = await work();
      const ms = performance.now() - started;
      console.log(`\n## ${name}: ${describe(result)} in ${ms.toFixed(1)} ms`);
      const statement = last ? logged.at(-1)! : logged[0]!;
      for (const step of raw.prepare(`explain query plan ${statement.sql}`).all(...(statement.parameters as unknown[])) as { detail: string }[]) console.log(`  ${step.detail}`);
    },
    async close(): Promise<void> {
      await db.destroy();
      raw.close();
    },
  };
}
