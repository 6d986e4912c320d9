/**
 * Prints SQLite's plans of the work queue's queries on a loaded benchmark database, with their times:
 * `npx tsx bench/explain-queue.ts DIR/apas.db` (a database kept by `npm run bench -- --data-dir DIR`). Each plan
 * should read an index range (SEARCH … USING INDEX projects_queue_…, or project_deadlines_due for the overdue filter's
 * running deadlines and the due-date order; the kept overdue bit through projects_queue_attention), never SCAN the program's projects or sort them.
 */
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../src/store/tables.ts';
import { countWorkQueue, type WorkQueueQuery, workQueuePage } from '../src/store/work-queue-queries.ts';
import { QUEUE_COUNT_BOUND } from '../src/domain/queue/queue-columns.ts';

const file = process.argv[2];
if (!file) throw new Error('usage: tsx bench/explain-queue.ts PATH/TO/apas.db');
const raw = new SqliteBinding(file, { readonly: true });
const logged: { sql: string; parameters: readonly unknown[] }[] = [];
const db = new Kysely<Database>({
  dialect: new SqliteDialect({ database: new SqliteBinding(file, { readonly: true }) }),
  log: (event) => {
    if (event.level === 'query') logged.push({ sql: event.query.sql, parameters: event.query.parameters });
  },
});
const one = <T>(sql: string) => raw.prepare(sql).get() as T;
const program = one<{ id: string }>("select id from programs where custom_id = 'RES-SOLAR'").id;
const approved = one<{ id: string }>(`select id from statuses where program_id = '${program}' and custom_id = 'ApprovedForInstallation'`).id;
const make = one<{ id: string }>(`select id from data_fields where program_id = '${program}' and custom_id = 'InverterMake'`).id;
const middle = one<{ updated_at: number; id: string }>(`select updated_at, id from projects where program_id = '${program}' order by updated_at desc, id desc limit 1 offset (select count(*) / 2 from projects)`);
const base: WorkQueueQuery = { programId: program, fields: [], sort: 'updated', direction: 'desc', limit: 101 };
const cases: [string, WorkQueueQuery][] = [
  ['first page', base],
  ['deep page by cursor', { ...base, after: { at: middle.updated_at, id: middle.id } }],
  ['status filter', { ...base, statusIn: [approved] }],
  ['data filter (make = SMA)', { ...base, fields: [{ fieldId: make, kind: 'text', op: 'eq', content: 'SMA', number: null }] }],
  ['unassigned, created order', { ...base, assigneeId: null, sort: 'created', direction: 'asc' }],
  // Read through project_deadlines (state, due_at): the overdue filter's subqueries, the due order's first range.
  ['overdue only', { ...base, overdue: { now: Date.now() } }],
  ['overdue only, due date order', { ...base, sort: 'due', direction: 'asc', overdue: { now: Date.now() } }],
  ['due date order', { ...base, sort: 'due', direction: 'asc' }],
  // One branch per kept combination of bits (projects_queue_attention) and the near deadlines, merged.
  ['needs attention (any)', { ...base, attention: { kinds: ['reply', 'files', 'deadline'], dueBy: Date.now() + 2 * 86_400_000 } }],
  ['needs attention (any), deep page', { ...base, after: { at: middle.updated_at, id: middle.id }, attention: { kinds: ['reply', 'files', 'deadline'], dueBy: Date.now() + 2 * 86_400_000 } }],
];
for (const [name, q] of cases) {
  logged.length = 0;
  const started = performance.now();
  const rows = await workQueuePage(db, q);
  const ms = performance.now() - started;
  console.log(`\n## ${name}: ${rows.length} rows in ${ms.toFixed(1)} ms`);
  const main = logged[0]!;
  for (const step of raw.prepare(`explain query plan ${main.sql}`).all(...(main.parameters as unknown[])) as { detail: string }[]) console.log(`  ${step.detail}`);
}
// The bounded counts every page shows: the filter's, and the needs-attention counts (each kind, and any).
const dueBy = Date.now() + 2 * 86_400_000;
const attention = (kinds: ('reply' | 'files' | 'deadline')[]) => ({ kinds, dueBy });
const counts: [string, Omit<WorkQueueQuery, 'limit' | 'after' | 'sort' | 'direction'>][] = [
  ['count, no filter', base],
  ['count, status filter', { ...base, statusIn: [approved] }],
  ['count, needs attention (any)', { ...base, attention: attention(['reply', 'files', 'deadline']) }],
  ['count, applicant answered', { ...base, attention: attention(['reply']) }],
  ['count, file awaits review', { ...base, attention: attention(['files']) }],
  ['count, deadline near or passed', { ...base, attention: attention(['deadline']) }],
];
for (const [name, q] of counts) {
  logged.length = 0;
  const started = performance.now();
  const n = await countWorkQueue(db, q, QUEUE_COUNT_BOUND);
  const ms = performance.now() - started;
  console.log(`\n## ${name}: ${n} in ${ms.toFixed(1)} ms`);
  const main = logged.at(-1)!;
  for (const step of raw.prepare(`explain query plan ${main.sql}`).all(...(main.parameters as unknown[])) as { detail: string }[]) console.log(`  ${step.detail}`);
}
await db.destroy();
raw.close();
