/**
 * `npx tsx bench/read-model-cost.ts DIR [RUNS]` — what the database work of GetProjectData and of a GetProjects page
 * would cost under each design of issue 35 §3, timed through better-sqlite3 alone (no server) on a copy of the SQLite
 * database a `npm run bench -- --data-dir DIR --floor` run kept: the statements apas runs today (DIR/floor-reads.json),
 * (a) one row per project and form holding the values, files and lookups as JSON, joined to the project row, (b) the
 * encoded answer stored per project and representation, joined the same way, and (c) today's tables read otherwise
 * (values clustered by project, the page from a covering index, rows as arrays). Prints CPU µs per read, the median of RUNS.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SqliteBinding } from '../src/store/sqlite-binding.ts';
import type { FloorRead } from './floor-statements.ts';
import { readCanned, cannedKey } from './canned-answers.ts';

const [dir, runsArg = '7'] = process.argv.slice(2);
if (!dir) throw new Error('usage: read-model-cost.ts DIR [RUNS]');
const copy = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'apas-read-model-')), 'copy.db');
new SqliteBinding(path.join(dir, 'bench.db'), { readonly: true }).exec(`vacuum into '${copy}'`);
const db = new SqliteBinding(copy);
const reads = JSON.parse(fs.readFileSync(path.join(dir, 'floor-reads.json'), 'utf8')) as FloorRead[];
const canned = readCanned(path.join(dir, 'canned.json'));
const data = reads.find((r) => r.url.endsWith('/Data'))!;
const page = reads.find((r) => r.url.endsWith('Projects?limit=100'))!;
// Recorded parameters come as one array of the bound values.
const [projectId, programId] = (data.statements[0]!.params as unknown[]).flat() as string[];
const formId = 'Application';

// (a): one row per project and form, its values (fieldId, value, values, updatedAt, updatedBy), files and lookups as JSON.
db.exec(`create table form_reads (project_id text not null, form_id text not null, version integer not null, data text not null,
  primary key (project_id, form_id)) without rowid`);
db.exec(`insert into form_reads select p.id, '${formId}', p.version, json_object(
  'values', (select json_group_array(json_array(v.field_id, v.value, v.values_json, v.updated_at, v.updated_by)) from project_values v where v.project_id = p.id),
  'files', (select json_group_array(json_array(a.definition_id, a.file_name)) from attachments a where a.project_id = p.id),
  'lookups', json_array()) from projects p`);
// The same in a rowid table: a WITHOUT ROWID row keeps at most about a quarter of a page in the index's b-tree and
// spills the rest of a 1.2 KB value to an overflow page.
db.exec(`create table form_reads_rowid (project_id text not null, form_id text not null, version integer not null, data text not null);
  create unique index form_reads_rowid_key on form_reads_rowid (project_id, form_id);
  insert into form_reads_rowid select * from form_reads`);
// (b): the answer's bytes per project and representation (here the XML answer of one caller's view).
const answer = canned.get(cannedKey('GET', data.url, undefined))!.body;
db.exec(`create table answers (project_id text not null, representation text not null, version integer not null, body blob not null,
  primary key (project_id, representation))`); // a rowid table: a 3.3 KB row would spill out of a WITHOUT ROWID b-tree
const putAnswer = db.prepare('insert into answers values (?, ?, ?, ?)');
const ids = db.prepare('select id, version from projects').raw().all() as [string, number][];
db.transaction(() => { for (const [id, version] of ids) putAnswer.run(id, 'xml:staff:masked', version, Buffer.from(answer)); })();
// (c): values clustered by project; the page's columns in its index.
db.exec(`create table values_clustered (project_id text not null, field_id text not null, form_id text, value text, values_json text,
  updated_at integer, updated_by text, num_value real, folded text, primary key (project_id, field_id)) without rowid;
  insert into values_clustered select project_id, field_id, form_id, value, values_json, updated_at, updated_by, num_value, folded from project_values;
  create index projects_page_covering on projects (program_id, created_at, id, number, status_id, status_at, updated_at); analyze`);

const prepared = (sql: string) => db.prepare(sql);
const today = data.statements.map((s) => ({ st: prepared(s.sql), params: s.params }));
const P_COLUMNS = 'p.id, p.program_id, p.number, p.status_id, p.status_at, p.created_at, p.created_by, p.updated_at, p.updated_by, p.owner_id, p.assignee_id, p.version, p.organization_id, p.access_groups';
const a = prepared(`select ${P_COLUMNS}, r.version as read_version, r.data from projects p left join form_reads r on r.project_id = p.id and r.form_id = ? where p.id = ? and p.program_id = ?`);
const b = prepared(`select ${P_COLUMNS}, x.version as answer_version, x.body from projects p left join answers x on x.project_id = p.id and x.representation = ? where p.id = ? and p.program_id = ?`);
for (const [name, st] of [['(a)', a], ['(b)', b]] as const) {
  const plan = (db.prepare(`explain query plan ${st.source}`).all(formId, projectId, programId) as { detail: string }[]).map((r) => r.detail).join('; ');
  process.stdout.write(`${name} plan: ${plan}\n`);
}
const aRowid = prepared(`select ${P_COLUMNS}, r.version as read_version, r.data from projects p left join form_reads_rowid r on r.project_id = p.id and r.form_id = ? where p.id = ? and p.program_id = ?`);
// (c) in one statement: the project row with its values, files and lookups gathered as JSON by the database.
const combined = prepared(`select ${P_COLUMNS},
  (select json_group_array(json_array(v.field_id, v.value, v.values_json, v.updated_at, v.updated_by)) from project_values v where v.project_id = p.id) as vals,
  (select json_group_array(json_array(f.definition_id, f.version, f.file_name, f.approval_status)) from attachments f where f.project_id = p.id) as files,
  (select json_group_array(json_array(l.field_id, l.state, l.message, l.checked_at)) from field_lookups l where l.project_id = p.id) as lookups
  from projects p where p.id = ? and p.program_id = ?`);
{
  const r = combined.get(projectId, programId) as { vals: string; files: string; lookups: string };
  process.stdout.write(`one statement: ${JSON.parse(r.vals).length} values (${r.vals.length} characters), ${JSON.parse(r.files).length} files, ${JSON.parse(r.lookups).length} lookups; plan: ${(db.prepare(`explain query plan ${combined.source}`).all(projectId, programId) as { detail: string }[]).map((x) => x.detail).join('; ')}\n`);
}
// (c) the page as one JSON text of arrays, built by the database.
const pageJson = prepared(`select json_group_array(json_array(id, program_id, number, status_id, status_at, created_at, updated_at)) as page
  from (${page.statements[0]!.sql})`);
const readRow = prepared('select version, data from form_reads where project_id = ? and form_id = ?');
const readLength = prepared('select version, length(data) from form_reads where project_id = ? and form_id = ?');
const clustered = prepared('select field_id, value, values_json, updated_at, updated_by from values_clustered where project_id = ? order by field_id');
const pageToday = prepared(page.statements[0]!.sql);
const pageCovering = prepared(page.statements[0]!.sql.replace('from "projects"', 'from "projects" indexed by projects_page_covering'));

function time(label: string, n: number, f: () => unknown): void {
  const runs: number[] = [];
  for (let r = 0; r < Number(runsArg); r++) {
    // CPU time, not wall time: on a shared machine waiting for a core costs no CPU.
    const t0 = process.cpuUsage();
    for (let i = 0; i < n; i++) f();
    const t = process.cpuUsage(t0);
    runs.push((t.user + t.system) / n);
  }
  runs.sort((x, y) => x - y);
  process.stdout.write(`${label.padEnd(78)} ${runs[Math.floor(runs.length / 2)]!.toFixed(1).padStart(7)} µs\n`);
}

const N = 5000;
process.stdout.write(`form_reads data: ${(readRow.get(projectId, formId) as { data: string }).data.length} characters\n`);
process.stdout.write(`GetProjectData of ${projectId} (${today.length} statements today); the answer is ${answer.length} bytes\n`);
for (const [i, s] of today.entries()) time(`  today, statement ${i + 1}: ${s.st.source.slice(0, 60)}…`, N, () => s.st.all(...s.params));
time('  today, all statements', N, () => { for (const s of today) s.st.all(...s.params); });
time('  (a) project row + form_reads row, JSON.parse of its data', N, () => JSON.parse((a.get(formId, projectId, programId) as { data: string }).data));
time('  (a) the form_reads row alone', N, () => readRow.get(projectId, formId));
time('  (a) the form_reads row alone, its length instead of its data', N, () => readLength.get(projectId, formId));
time('  (a) in a rowid table: project row + form_reads row, JSON.parse', N, () => JSON.parse((aRowid.get(formId, projectId, programId) as { data: string }).data));
time('  (a) in a rowid table, without the parse', N, () => aRowid.get(formId, projectId, programId));
time('  (a) the same, without the parse', N, () => a.get(formId, projectId, programId));
time('  (b) project row + stored answer bytes', N, () => b.get('xml:staff:masked', projectId, programId));
time('  (c) one statement, values/files/lookups as JSON arrays, parsed', N, () => {
  const r = combined.get(projectId, programId) as { vals: string; files: string; lookups: string };
  return [JSON.parse(r.vals), JSON.parse(r.files), JSON.parse(r.lookups)];
});
time('  (c) the same, without the parse', N, () => combined.get(projectId, programId));
time('  (c) project row, values clustered by project, files, lookups', N, () => { today[0]!.st.all(...today[0]!.params); clustered.all(projectId); today[2]!.st.all(...today[2]!.params); today[3]!.st.all(...today[3]!.params); });
time('  (c) the same, rows as arrays (raw)', N, () => { today[0]!.st.raw(true).all(...today[0]!.params); clustered.raw(true).all(projectId); today[2]!.st.raw(true).all(...today[2]!.params); today[3]!.st.raw(true).all(...today[3]!.params); });
for (const s of today) s.st.raw(false);
clustered.raw(false);
process.stdout.write('GetProjects limit=100 (101 rows of 7 columns)\n');
time('  today', N / 10, () => pageToday.all(...page.statements[0]!.params));
time('  today, rows as arrays (raw)', N / 10, () => pageToday.raw(true).all(...page.statements[0]!.params));
pageToday.raw(false);
time('  (c) one JSON text of arrays, parsed', N / 10, () => JSON.parse((pageJson.get(...page.statements[0]!.params) as { page: string }).page));
time('  (c) covering index', N / 10, () => pageCovering.all(...page.statements[0]!.params));
time('  (c) covering index, rows as arrays (raw)', N / 10, () => pageCovering.raw(true).all(...page.statements[0]!.params));
db.close();
fs.rmSync(path.dirname(copy), { recursive: true });
