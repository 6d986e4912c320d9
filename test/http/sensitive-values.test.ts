import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import type { Kysely } from 'kysely';
import { totpCode } from '../../src/domain/accounts/mfa.ts';
import { MfaService } from '../../src/domain/accounts/mfa-service.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { openDatabase } from '../../src/store/database.ts';
import type { Database } from '../../src/store/tables.ts';
import { sampleProgram } from '../cli/sample-program.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { assertError, attr, attrs, dataRequest, type HttpHarness, startHttp } from '../support/http-harness.ts';
import { API, createProject, draftPath, PROGRAM, projectPath, submitPath } from './http-helpers.ts';
import { byDataRequest } from './workflow-helpers.ts';

// Values of fields marked sensitive are stored encrypted (issue "Trust", item 29): a stolen database must not reveal
// them, while every answer that may show them still does, and GetProjectsByData still finds them by equality.

const SECRET = 'Jane Q. Secretname';

/** Every text of the tables that could hold field values, as one string: what someone with the database file could read. */
async function storedText(db: TestStore): Promise<string> {
  const raw = await openDatabase(db.config);
  try {
    const k = raw.db as Kysely<Database>;
    const tables = ['project_values', 'project_value_items', 'project_drafts', 'audit_log', 'events', 'idempotency_keys'] as const;
    return JSON.stringify(await Promise.all(tables.map((table) => k.selectFrom(table).selectAll().execute())));
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

forEachDialect('sensitive values at rest', ({ dialect }) => {
  let db: TestStore;
  let h0: HttpHarness | undefined;
  const harness = () => h0 as HttpHarness;
  let adminSecret = '';
  const mfa = (h: HttpHarness) => {
    h.clock.advance(30_000);
    return { 'x-mfa-totp': totpCode(adminSecret, h.clock.now()) };
  };

  before(async () => {
    db = await openTestStore(dialect);
    h0 = await startHttp(db);
    const h = harness();
    const uri = await new MfaService({ store: h.store, clock: h.clock, ids: new RandomIdGenerator() }).enrol(h.who.admin.email);
    adminSecret = new URL(uri).searchParams.get('secret')!;
  });

  after(async () => {
    await h0?.close();
    await db?.store.close();
    // pg-pool's end() resolves before its connections are closed; the database is dropped a moment later.
    if (dialect === 'postgres') await new Promise((resolve) => setTimeout(resolve, 100));
    await db?.close();
  });

  it('a saved and a submitted sensitive value are nowhere in the database in clear, and read back revealed', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const saved = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: SECRET, size: ['S'], kw: '7.5' }) });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.doesNotMatch(await storedText(db), /Secretname/i);
    const submitted = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
    assert.equal(submitted.statusCode, 200, submitted.body);
    assert.doesNotMatch(await storedText(db), /Secretname/i);

    const revealed = await h.request({ method: 'GET', url: `${projectPath(projectId)}/Forms/application/Data?reveal_sensitive_data=true`, as: 'admin', headers: mfa(h) });
    assert.equal(revealed.statusCode, 200, revealed.body);
    assert.match(revealed.body, /CustomId="name" Name="Applicant name" Value="Jane Q\. Secretname"/);
    const masked = await h.request({ method: 'GET', url: `${projectPath(projectId)}/Forms/application/Data`, as: 'applicant' });
    assert.match(masked.body, /CustomId="name" Name="Applicant name" Value="\*{8}"/);
  });

  it('GetProjectsByData finds a sensitive value by equality and refuses every other comparison with 400', async () => {
    const h = harness();
    const byData = (operator: string, content?: string) => h.request({
      method: 'POST', url: `${PROGRAM}/Projects/ByData`, as: 'admin', headers: mfa(h),
      body: byDataRequest({ fields: [{ id: 'name', operator, ...(content === undefined ? {} : { content }) }] }),
    });
    const found = await byData('eq', SECRET);
    assert.equal(found.statusCode, 200, found.body);
    assert.equal(attrs(found.body, 'Project', 'ProjectId').length, 1);
    assert.equal(attrs((await byData('eq', SECRET.toUpperCase())).body, 'Project', 'ProjectId').length, 0);
    const others = await byData('ne', SECRET);
    assert.equal(others.statusCode, 200, others.body);
    assert.ok(!attrs(others.body, 'Project', 'ProjectId').includes(attrs(found.body, 'Project', 'ProjectId')[0]!));
    for (const operator of ['contains', 'lt', 'ge']) {
      const refused = await byData(operator, 'Jane');
      assertError(h, refused, 400, 'INVALID_REQUEST');
      assert.match(attr(refused.body, 'ErrorResponse', 'Message') ?? '', new RegExp(`Applicant name is a sensitive field, stored encrypted: .* not ${operator}\\.`));
    }
  });

  it('a program import that marks a field sensitive seals its values, and one that unmarks it opens them, in its transaction', async () => {
    const h = harness();
    const deps = { store: h.store, clock: h.clock, ids: new RandomIdGenerator(), checkers: programCheckers() };
    const program = sampleProgram();
    (program.fields[0] as Record<string, unknown>).sensitive = false;
    await importProgram(deps, 'acme', validateProgramFile(program));
    const created = await h.request({ method: 'POST', url: `${API}/Programs/PV/NewProject`, as: 'admin', headers: mfa(h) });
    assert.equal(created.statusCode, 200, created.body);
    const projectId = attr(created.body, 'Project', 'ProjectId')!;
    const saved = await h.request({ method: 'POST', url: `${API}/Programs/PV/Projects/${projectId}/Forms/Apply/Draft/Data`, as: 'admin', headers: mfa(h), body: dataRequest({ Customer: 'Customer Plaintext' }) });
    assert.equal(saved.statusCode, 200, saved.body);
    assert.match(await storedText(db), /Customer Plaintext/);

    (program.fields[0] as Record<string, unknown>).sensitive = true;
    await importProgram(deps, 'acme', validateProgramFile(program));
    assert.doesNotMatch(await storedText(db), /Customer Plaintext/);
    (program.fields[0] as Record<string, unknown>).sensitive = false;
    await importProgram(deps, 'acme', validateProgramFile(program));
    assert.match(await storedText(db), /Customer Plaintext/);
  });
});
