/**
 * Prints SQLite's plans of My projects' query on a loaded benchmark database, with their times:
 * `npx tsx bench/explain-my-projects.ts DIR/apas.db` (a database kept by `npm run bench -- --data-dir DIR`). Each plan
 * should read the owner index (SEARCH projects USING INDEX projects_owner_updated (owner_id=? AND program_id=?)) in
 * order, testing filters by primary-key lookups (project_values_pk, project_drafts_pk), and never sort.
 */
import { type MyProjectsQuery, myProjectsPage } from '../src/store/my-projects-queries.ts';
import { explainedDatabase } from './explained-database.ts';

const { db, one, run, close } = explainedDatabase(process.argv[2], 'tsx bench/explain-my-projects.ts PATH/TO/apas.db');
const program = one<{ id: string }>("select id from programs where custom_id = 'RES-SOLAR'").id;
const owner = one<{ id: string }>("select id from users where email = 'applicant@demo.apas.local'").id;
const initial = one<{ id: string }>(`select id from statuses where program_id = '${program}' and is_initial = 1`).id;
const fields = ['CustomerName', 'ServiceAddress', 'SystemSizeKwAc'].map((c) => one<{ id: string }>(`select id from data_fields where program_id = '${program}' and custom_id = '${c}'`).id);
const middle = one<{ updated_at: number; id: string }>(`select updated_at, id from projects where owner_id = '${owner}' and program_id = '${program}' order by updated_at desc, id desc limit 1 offset (select count(*) / 2 from projects)`);
const base: MyProjectsQuery = { programId: program, owner: { ownerId: owner, organizationIds: [] }, limit: 26 };
const cases: [string, MyProjectsQuery][] = [
  ['first page', base],
  ['deep page by cursor', { ...base, after: { updatedAt: middle.updated_at, id: middle.id } }],
  ['drafts', { ...base, stage: 'drafts' }],
  ['needs my action', { ...base, needsAction: { statusIds: [initial] } }],
  ['search, common text (sunny)', { ...base, search: { folded: 'sunny', fieldIds: fields } }],
];
for (const [name, q] of cases) await run(name, () => myProjectsPage(db, q), (rows) => `${rows.length} rows`);
await close();
