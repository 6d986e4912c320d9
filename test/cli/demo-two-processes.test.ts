import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { DEMO_CLAIM_PROGRAM, DEMO_CREDENTIALS, DEMO_INVERTERS_PATH } from '../../src/domain/programs/demo.ts';
import { DEMO_CLAIMED, DEMO_PROJECTS_PATH } from '../../src/domain/wiring/demo-projects.ts';
import { SqliteBinding } from '../../src/store/sqlite-binding.ts';
import { runApas } from '../support/run-apas.ts';

// Two real `apas` processes started at the same moment on one new SQLite file (docs/architecture.md, "Data and
// durability"): they take turns at the migrations and at the demo's seeding (locks on small files beside the
// database, src/store/sqlite-exclusive.ts), so both end well and the demo is there exactly once. The same race between
// two connections of one process is test/store/exclusive-work.test.ts; only processes show the locks hold across them.

const dir = mkdtempSync(path.join(tmpdir(), 'apas-demo-two-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** The data lines of a CSV file (its header left out). */
const dataLines = (file: string) => readFileSync(file, 'utf8').split('\n').filter((l) => l.trim() !== '').length - 1;

test('two `apas demo` started together on one new SQLite file both succeed, and the demo is seeded exactly once', async () => {
  const file = path.join(dir, 'apas.db');
  const runs = await Promise.all([0, 1].map(() => runApas(['demo'], { env: { DATABASE_URL: file } })));
  for (const run of runs) assert.equal(run.code, 0, `${run.stdout}\n${run.stderr}`);
  const outputs = runs.map((r) => r.stdout);
  // One process made each part; the other, waiting its turn, found it made.
  for (const made of [/created program RES-SOLAR\n/, /loaded \d+ rows into list ApprovedInverters/, /created project /, /created the incentive claim /]) {
    assert.equal(outputs.filter((o) => made.test(o)).length, 1, `${made}:\n${outputs.join('\n---\n')}`);
  }

  const db = new SqliteBinding(file, { readonly: true });
  try {
    const count = (query: string, ...params: string[]) => (db.prepare(query).pluck().get(...params) as number);
    const agency = db.prepare('select id from agencies where custom_id = ?').pluck().all('demo') as string[];
    assert.equal(agency.length, 1, 'one demo agency');
    assert.deepEqual(db.prepare('select custom_id from programs where agency_id = ? order by custom_id').pluck().all(agency[0]), [DEMO_CLAIM_PROGRAM, 'RES-SOLAR']);
    const projectsOf = (program: string) => count('select count(*) from projects where program_id = (select id from programs where custom_id = ? and agency_id = ?)', program, agency[0]!);
    assert.equal(projectsOf('RES-SOLAR'), dataLines(DEMO_PROJECTS_PATH), 'each sample application once');
    assert.equal(projectsOf(DEMO_CLAIM_PROGRAM), DEMO_CLAIMED.length, 'one incentive claim per claimed interconnection');
    assert.equal(count('select count(*) from custom_list_rows'), dataLines(DEMO_INVERTERS_PATH), 'the approved inverters once');
    assert.equal(count("select count(*) from users where email like '%@demo.apas.local'"), DEMO_CREDENTIALS.length);
  } finally {
    db.close();
  }
});
