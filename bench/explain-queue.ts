/**
 * Prints SQLite's plans of the work queue's queries on a loaded benchmark database, with their times:
 * `npx tsx bench/explain-queue.ts DIR/apas.db` (a database kept by `npm run bench -- --data-dir DIR`). Each plan
 * should read an index range (SEARCH … USING INDEX projects_queue_…, project_deadlines_due for the overdue filter's
 * running deadlines and the due-date order, projects_queue_attention for the kept needs-attention bits), never SCAN
 * the program's projects or sort them.
 */
import { countWorkQueue, type WorkQueueQuery, workQueuePage } from '../src/store/work-queue-queries.ts';
import { QUEUE_COUNT_BOUND } from '../src/domain/queue/queue-columns.ts';
import { explainedDatabase } from './explained-database.ts';

const { db, one, run, close } = explainedDatabase(process.argv[2], 'tsx bench/explain-queue.ts PATH/TO/apas.db');
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
  // One branch per kept combination of bits (projects_queue_attention), merged.
  ['needs attention (any)', { ...base, attention: { kinds: ['reply', 'files', 'deadline'] } }],
  ['needs attention (any), deep page', { ...base, after: { at: middle.updated_at, id: middle.id }, attention: { kinds: ['reply', 'files', 'deadline'] } }],
];
for (const [name, q] of cases) await run(name, () => workQueuePage(db, q), (rows) => `${rows.length} rows`);
// The bounded counts every page shows: the filter's, and the needs-attention counts (each kind, and any).
const attention = (kinds: ('reply' | 'files' | 'deadline')[]) => ({ kinds });
const counts: [string, Omit<WorkQueueQuery, 'limit' | 'after' | 'sort' | 'direction'>][] = [
  ['count, no filter', base],
  ['count, status filter', { ...base, statusIn: [approved] }],
  ['count, data filter (make = SMA)', { ...base, fields: [{ fieldId: make, kind: 'text', op: 'eq', content: 'SMA', number: null }] }],
  ['count, needs attention (any)', { ...base, attention: attention(['reply', 'files', 'deadline']) }],
  ['count, applicant answered', { ...base, attention: attention(['reply']) }],
  ['count, file awaits review', { ...base, attention: attention(['files']) }],
  ['count, deadline near or passed', { ...base, attention: attention(['deadline']) }],
];
// The count's statement is the last: a data filter's plan reads the values' statistics first.
for (const [name, q] of counts) await run(name, () => countWorkQueue(db, q, QUEUE_COUNT_BOUND), (n) => String(n), true);
await close();
