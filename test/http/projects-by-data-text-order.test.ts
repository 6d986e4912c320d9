import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { assertValidXml, attrs, dataRequest, type HttpHarness, startHttp } from '../support/http-harness.ts';
import { seedWorkflowProgram } from '../support/workflow-fixtures.ts';
import { COMPLETE, createProject, dataPath } from './http-helpers.ts';
import { byDataRequest, urls } from './workflow-helpers.ts';

// GetProjectsByData orders text (lt, le, gt, ge) by Unicode code point, the same on SQLite and PostgreSQL whatever
// the database's collation: upper case before lower case, 'Ä' after 'z', U+FB00 before U+1F600 (JavaScript's
// UTF-16 order would put the emoji first), and whole values, not the first 100 characters the index holds.

const X100 = 'x'.repeat(100);
/** Each project's notes (single-value text) and tags (multi-value text), in creation order; q has none. */
const NOTES: Record<string, string | null> = {
  zebra: 'Zebra', apple: 'apple', xa: `${X100}a`, xb: `${X100}b`, zoo: 'zoo', apfel: 'Äpfel', eclair: 'éclair', nihon: '日本', ff: 'ﬀ', emoji: '😀', none: null,
};
const TAGS: Record<string, string[]> = { zebra: ['Mango', 'kiwi'], apple: ['Ähre'], zoo: ['😀'] };
const NAMES = Object.keys(NOTES);

/**
 * Gives the value columns on PostgreSQL a linguistic collation (ICU's root locale: 'a' < 'Ä' < 'Z'), as a database
 * created with a locale such as en_US would have; the tests' server is initialised with the C locale, which would
 * hide a comparison left to the column's collation.
 */
async function linguisticColumns(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const table of ['project_values', 'project_value_items']) {
      await client.query(`alter table ${table} alter column value type text collate "und-x-icu"`);
    }
  } finally {
    await client.end();
  }
}

forEachDialect('HTTP GetProjectsByData, text in code-point order', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  const harness = () => h;
  const ids = new Map<string, string>();

  before(async () => {
    db = await openTestStore(dialect);
    if (db.config.kind === 'postgres') await linguisticColumns(db.config.url);
    h = await startHttp(db);
    await seedWorkflowProgram(h.store);
    for (const name of NAMES) {
      const id = await createProject(h, 'applicant');
      ids.set(id, name);
      // The application form's required fields come along: submitted data must stay complete.
      const values: Record<string, string | string[]> = { ...COMPLETE, size: [...COMPLETE.size] };
      if (NOTES[name] !== null) values.notes = NOTES[name]!;
      if (TAGS[name]) values.tags = TAGS[name]!;
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: dataPath(id), body: dataRequest(values) });
      assert.equal(res.statusCode, 200, res.body);
    }
  });

  async function found(field: string, operator: string, content: string): Promise<string[]> {
    const h = harness();
    const res = await h.request({ method: 'POST', url: urls.byData, body: byDataRequest({ fields: [{ id: field, operator, content }] }) });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectsResponse');
    return attrs(res.body, 'Project', 'ProjectId').map((id) => ids.get(id) ?? id);
  }

  const cases: [string, string, string, string[]][] = [
    ['notes', 'lt', 'a', ['zebra']],
    ['notes', 'lt', 'Zebra', []],
    ['notes', 'le', 'Zebra', ['zebra']],
    ['notes', 'gt', 'zoo', ['apfel', 'eclair', 'nihon', 'ff', 'emoji']],
    ['notes', 'ge', 'Ä', ['apfel', 'eclair', 'nihon', 'ff', 'emoji']],
    ['notes', 'gt', 'ﬀ', ['emoji']],
    ['notes', 'lt', '😀', ['zebra', 'apple', 'xa', 'xb', 'zoo', 'apfel', 'eclair', 'nihon', 'ff']],
    ['notes', 'lt', '日', ['zebra', 'apple', 'xa', 'xb', 'zoo', 'apfel', 'eclair']],
    // The first 100 characters of xa and xb are equal: only the whole values tell them apart.
    ['notes', 'lt', `${X100}b`, ['zebra', 'apple', 'xa']],
    ['notes', 'le', `${X100}b`, ['zebra', 'apple', 'xa', 'xb']],
    ['notes', 'gt', `${X100}a`, ['xb', 'zoo', 'apfel', 'eclair', 'nihon', 'ff', 'emoji']],
    ['notes', 'ge', X100, ['xa', 'xb', 'zoo', 'apfel', 'eclair', 'nihon', 'ff', 'emoji']],
    ['notes', 'gt', `${X100}a${'z'.repeat(200)}`, ['xb', 'zoo', 'apfel', 'eclair', 'nihon', 'ff', 'emoji']],
    // A multi-value field matches when any one of its values does.
    ['tags', 'lt', 'a', ['zebra']],
    ['tags', 'gt', 'z', ['apple', 'zoo']],
    ['tags', 'ge', 'kiwi', ['zebra', 'apple', 'zoo']],
  ];
  after(async () => {
    await h.close();
    await db.close();
  });

  describe('lt, le, gt and ge on text', () => {
    for (const [field, operator, content, expected] of cases) {
      const shown = content.length > 20 ? `${content.slice(0, 8)}…(${content.length})` : content;
      it(`${field} ${operator} "${shown}" → ${expected.join(', ') || 'nothing'}`, async () => {
        assert.deepEqual(await found(field, operator, content), expected);
      });
    }
  });
});
