import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import pg from 'pg';
import { SqliteBinding } from '../../src/store/sqlite-binding.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attr, type HttpHarness } from '../support/http-harness.ts';
import { createProject, createSubmitted, dataPath, draftPath, fieldValues, setDraft, sharedHarness } from './http-helpers.ts';

// GetProjectData runs one statement once the caches hold the caller, its grants and the program: the project row
// with its values, files, lookups and draft gathered by the database (src/store/form-read-query.ts).

type Patched = Record<string, (...a: unknown[]) => unknown>;

// Every statement the drivers run in this process while `work` runs: better-sqlite3's statements (as
// bench/count-queries.ts counts them) and pg clients' queries, but the change signal's listener's ping (`select 1`,
// postgres-change-signal.ts), which its own timer sends whenever it falls due.
async function statementsOf(work: () => Promise<unknown>): Promise<string[]> {
  const seen: string[] = [];
  const sqlite = Object.getPrototypeOf(new SqliteBinding(':memory:').prepare('select 1')) as Patched;
  const client = pg.Client.prototype as unknown as Patched;
  const originals: [Patched, string, (...a: unknown[]) => unknown][] = [
    ...['all', 'get', 'run', 'iterate'].map((name) => [sqlite, name, sqlite[name]!] as [Patched, string, (...a: unknown[]) => unknown]),
    [client, 'query', client.query!],
  ];
  for (const [proto, name, original] of originals) {
    proto[name] = function (this: { source?: string }, ...args: unknown[]) {
      seen.push(proto === client ? String(typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text) : String(this.source));
      return original.apply(this, args);
    };
  }
  try {
    await work();
  } finally {
    for (const [proto, name, original] of originals) proto[name] = original;
  }
  return seen.filter((text) => text !== 'select 1');
}

forEachDialect('HTTP GetProjectData statements', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let draftOnly = '';
  let submitted = '';
  let number = '';
  before(async () => {
    const h = harness();
    draftOnly = await createProject(h, 'applicant');
    await setDraft(h, draftOnly, { name: 'Pat', size: ['S'], kw: '7.5' });
    ({ projectId: submitted, number } = await createSubmitted(h, 'applicant'));
  });

  // Warms the caches with two requests, then counts the third's statements.
  async function counted(h: HttpHarness, who: 'admin' | 'reader' | 'applicant', url: string): Promise<{ body: string; statements: string[] }> {
    for (let i = 0; i < 2; i++) assert.equal((await h.request({ method: 'GET', url, as: who })).statusCode, 200);
    let body = '';
    const statements = await statementsOf(async () => {
      const res = await h.request({ method: 'GET', url, as: who });
      assert.equal(res.statusCode, 200, res.body);
      body = res.body;
    });
    return { body, statements };
  }

  for (const [label, who, url] of [
    ['submitted data as a reader (no draft)', 'reader', () => dataPath(submitted)],
    ['submitted data by the project\'s number', 'admin', () => dataPath(number)],
    ['the draft as a reader', 'reader', () => draftPath(submitted)],
    ['the draft as its applicant, who may submit it (the draft decides CanSubmit)', 'applicant', () => draftPath(draftOnly)],
  ] as const) {
    it(`one statement: ${label}`, async () => {
      const h = harness();
      const { body, statements } = await counted(h, who, url());
      assert.equal(statements.length, 1, statements.join('\n'));
      assert.match(statements[0]!, dialect === 'postgres' ? /json_agg/ : /json_group_array/);
      assert.ok((fieldValues(body, IDS.size) ?? []).length > 0, body);
      assert.equal(attr(body, 'Project', 'CanSubmit'), url().endsWith('Draft/Data') && who === 'applicant' ? 'true' : 'false');
    });
  }
});
