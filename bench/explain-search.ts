/**
 * Prints the plans and times of GetProjectsByData's and the work queue's searches on a kept benchmark database:
 * `npx tsx bench/explain-search.ts --db sqlite|postgres --data-dir DIR` (DIR kept by `npm run bench -- --data-dir DIR`;
 * for PostgreSQL the cluster in DIR/pg is started for the run, so no benchmark may be running on it). For each
 * search: the plan apas chose (driven by a filter, or walking the order), the median time of a few runs of the
 * whole search, and the database's plan of its page query (SQLite's EXPLAIN QUERY PLAN; PostgreSQL's EXPLAIN
 * ANALYZE with buffers).
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { FieldCondition, ProjectSearch } from '../src/model/records.ts';
import { planSearch, searchProjects } from '../src/store/search-queries.ts';
import type { Database } from '../src/store/tables.ts';
import { type WorkQueueQuery, workQueuePage } from '../src/store/work-queue-queries.ts';
import { startEmbeddedPostgres } from '../test/support/embedded-postgres.ts';

const { values } = parseArgs({ options: { db: { type: 'string', default: 'sqlite' }, 'data-dir': { type: 'string' }, runs: { type: 'string', default: '5' } } });
const dir = values['data-dir'];
if (!dir) throw new Error('usage: tsx bench/explain-search.ts --db sqlite|postgres --data-dir DIR');
const runs = Number(values.runs);
const logged: { sql: string; parameters: readonly unknown[]; ms: number }[] = [];
const log = (event: { level: string; query: { sql: string; parameters: readonly unknown[] }; queryDurationMillis: number }) => {
  if (event.level === 'query') logged.push({ sql: event.query.sql, parameters: event.query.parameters, ms: event.queryDurationMillis });
};

let db: Kysely<Database>;
let explain: (sql: string, parameters: readonly unknown[]) => Promise<string[]>;
let stop = async () => {};
if (values.db === 'postgres') {
  const server = await startEmbeddedPostgres({ keepDir: path.join(path.resolve(dir), 'pg') });
  if (!server.reused) throw new Error(`${dir}/pg held no loaded cluster`);
  const types = { getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format)) };
  const pool = new pg.Pool({ connectionString: server.url, max: 2, types: types as pg.CustomTypesConfig });
  db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log });
  explain = async (sql, parameters) => (await pool.query(`explain (analyze, buffers) ${sql}`, parameters as unknown[])).rows.map((r: Record<string, string>) => r['QUERY PLAN']!);
  stop = async () => {
    await db.destroy();
    await server.stop();
  };
} else {
  const file = path.join(dir, 'bench.db');
  const raw = new SqliteBinding(file, { readonly: true });
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteBinding(file, { readonly: true }) }), log });
  explain = async (sql, parameters) => (raw.prepare(`explain query plan ${sql}`).all(...(parameters as unknown[])) as { detail: string }[]).map((s) => s.detail);
  stop = async () => {
    await db.destroy();
    raw.close();
  };
}

try {
  const one = async <T>(q: Promise<T | undefined>) => (await q)!;
  const program = (await one(db.selectFrom('programs').select('id').where('custom_id', '=', 'RES-SOLAR').executeTakeFirst())).id;
  const status = async (customId: string) => (await one(db.selectFrom('statuses').select('id').where('program_id', '=', program).where('custom_id', '=', customId).executeTakeFirst())).id;
  const field = async (customId: string) => (await one(db.selectFrom('data_fields').select('id').where('program_id', '=', program).where('custom_id', '=', customId).executeTakeFirst())).id;
  const approved = await status('ApprovedForInstallation');
  const make = await field('InverterMake');
  const size = await field('SystemSizeKwDc');
  const meter = await field('MeterNumber');
  const count = Number((await one(db.selectFrom('projects').select((eb) => eb.fn.countAll().as('n')).where('program_id', '=', program).executeTakeFirst())).n);
  const lastMeter = `M${String(Math.floor(count * 0.999)).padStart(9, '0')}`;
  const sma: FieldCondition = { fieldId: make, kind: 'text', op: 'eq', content: 'SMA', number: null };
  const over14: FieldCondition = { fieldId: size, kind: 'number', op: 'gt', content: '14', number: 14 };
  const meterIs = (m: string): FieldCondition => ({ fieldId: meter, kind: 'text', op: 'eq', content: m, number: null });
  const search = (s: Partial<ProjectSearch>): ProjectSearch => ({ programId: program, statusDates: [], fields: [], limit: 100, offset: 0, ...s });
  const queue = (q: Partial<WorkQueueQuery>): WorkQueueQuery => ({ programId: program, fields: [], sort: 'updated', direction: 'desc', limit: 101, ...q });
  const cases: [string, ProjectSearch | WorkQueueQuery, () => Promise<unknown[]>][] = [];
  const bySearch = (name: string, s: ProjectSearch) => cases.push([name, s, () => searchProjects(db, s)]);
  const byQueue = (name: string, q: WorkQueueQuery) => cases.push([name, q, () => workQueuePage(db, q)]);
  bySearch('GetProjectsByData: approved, size > 14, make SMA (the benchmark)', search({ statusIn: [approved], fields: [over14, sma] }));
  bySearch('GetProjectsByData: the same, offset 1000', search({ statusIn: [approved], fields: [over14, sma], offset: 1000 }));
  bySearch('GetProjectsByData: make SMA', search({ fields: [sma] }));
  bySearch('GetProjectsByData: a meter number (near the end) and make SMA', search({ fields: [meterIs(lastMeter), sma] }));
  byQueue('Work queue: make SMA (the benchmark)', queue({ fields: [sma] }));
  byQueue('Work queue: approved, make SMA, created order', queue({ statusIn: [approved], fields: [sma], sort: 'created', direction: 'asc' }));
  byQueue('Work queue: a meter number (near the end)', queue({ fields: [meterIs(lastMeter)] }));
  for (const [name, input, run] of cases) {
    const fields = 'offset' in input ? input : { statusDates: [], fields: input.fields };
    const plan = await planSearch(db, fields, input.tuning?.broadAt);
    const times: number[] = [];
    let rows = 0;
    for (let k = 0; k < runs; k++) {
      logged.length = 0;
      const started = performance.now();
      rows = (await run()).length;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const page = logged.find((q) => /select "projects"\.\*|select \* from "projects"/i.test(q.sql)) ?? logged.at(-1)!;
    console.log(`\n## ${name}: ${'walk' in plan ? 'walks the order' : `driven by filter ${plan.drive}`}; ${rows} rows; median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms of ${runs} (${times.map((t) => t.toFixed(1)).join(', ')})`);
    for (const q of logged) console.log(`  ${q.ms.toFixed(1).padStart(7)} ms  ${q.sql.slice(0, 110)}`);
    for (const line of await explain(page.sql, page.parameters)) console.log(`  ${line}`);
  }
} finally {
  await stop();
}
