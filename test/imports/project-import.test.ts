import assert from 'node:assert/strict';
import { before, after, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import type { Caller } from '../../src/domain/caller.ts';
import { type ImportRequest, ProjectImportService } from '../../src/domain/imports/project-import-service.ts';
import { changeReactions } from '../../src/domain/wiring/change-reactions.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect, openTestStore, type TestStore } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { type HttpHarness, startHttp, type Who } from '../support/http-harness.ts';

// Data import (issue 34, §5) against the fixture program (fields name (required, sensitive), size (multi-value choice
// S/M/L), kw (required number 0.5–1000.25); statuses Draft → Submitted), on both databases.

const csv = (text: string) => new TextEncoder().encode(text);

function importer(store: Store, h: HttpHarness, bounds?: ConstructorParameters<typeof ProjectImportService>[1], rowsPerCommit?: number) {
  return new ProjectImportService({ store, clock: h.clock, ids: new RandomIdGenerator(), publicUrl: 'http://apas.test', maxNumbersPerRequest: 100, reactions: changeReactions() }, bounds, rowsPerCommit);
}

async function callerOf(h: HttpHarness, who: Who): Promise<Caller> {
  const user = (await h.store.accounts.findUserById(h.who[who].id))!;
  return { user, apiKeyId: '', grants: await h.store.accounts.listGrants(user.id) };
}

async function projectCount(h: HttpHarness): Promise<number> {
  return (await h.store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 })).length;
}

const FILE = [
  'ExternalId,Applicant name,size,kw,Owner,Status',
  'A-1,Ada Lovelace,S;M,7.5,user00000002@example.org,Submitted',
  'A-2,"Grace ""Amazing"" Hopper",,12,,',
  'A-3,"Line one',
  'line two",L,3,,draft',
].join('\r\n');

forEachDialect('Data import', ({ dialect }) => {
  let db: TestStore;
  let h: HttpHarness;
  before(async () => {
    db = await openTestStore(dialect);
    h = await startHttp(db);
  });
  after(async () => {
    await h?.close();
    await db?.close();
  });

  const run = async (request: Partial<ImportRequest> & { csv: Uint8Array }, who: Who = 'admin', store: Store = h.store) =>
    importer(store, h).importProjects(await callerOf(h, who), { programRef: 'solar', dryRun: false, ...request });

  it('refuses everyone but an agency admin and the program\'s admins, changing nothing', async () => {
    for (const who of ['editor', 'reader', 'applicant', 'otherApplicant', 'outsider'] as const) {
      await assert.rejects(run({ csv: csv(FILE) }, who), (e: ApiError) => e.code === 'FORBIDDEN', who);
      assert.equal(await projectCount(h), 0, `${who}: nothing was created`);
    }
    const dry = await run({ csv: csv(FILE), dryRun: true }, 'programAdmin');
    assert.deepEqual(dry.counts, { created: 3, updated: 0, unchanged: 0, refused: 0 });
    assert.equal(await projectCount(h), 0, 'a dry run keeps nothing');
    assert.equal((await h.store.audit.list({ action: 'project.create' })).length, 0);
  });

  it(`a dry run lists every row's problems by line and column and keeps nothing`, async () => {
    const bad = [
      'ExternalId,name,size,kw,Owner,Status',
      'B-1,Ann,XL,7,,',
      'B-2,Bob,,-3,nobody@example.org,Nowhere',
      ',Cy,,5,,',
      'B-1,Dee,,5,,',
      'B-5,Eve,,5',
      'B-6,,,5,,',
    ].join('\n');
    const report = await run({ csv: csv(bad), dryRun: true });
    assert.deepEqual(report.problems, []);
    const byLine = Object.fromEntries(report.rows.map((r) => [r.line, r.problems.map((p) => `${p.column}: ${p.message}`)]));
    assert.match(byLine[2]![0]!, /^size: .*XL/);
    assert.equal(byLine[3]!.length, 3);
    assert.match(byLine[3]!.join('\n'), /Owner: No active user .*nobody@example.org/);
    assert.match(byLine[3]!.join('\n'), /Status: Status "Nowhere" is no status/);
    assert.match(byLine[3]!.join('\n'), /kw: /);
    assert.match(byLine[4]![0]!, /ExternalId: The external id is empty/);
    assert.match(byLine[5]![0]!, /ExternalId: External id "B-1" is on line 2 already/);
    assert.match(byLine[6]![0]!, /null: The row has 4 cells; the header has 6/);
    // The rules of the change step itself: a required field left empty refuses the row (FORM_INCOMPLETE).
    assert.match(byLine[7]![0]!, /name: /);
    assert.deepEqual(report.counts, { created: 0, updated: 0, unchanged: 0, refused: 6 });
    assert.equal(await projectCount(h), 0);
  });

  it('refuses a header it cannot map, before any row, and a mapping makes it importable', async () => {
    const text = 'Ref,Who,Capacity,Comment\nC-1,Ann,4,hello\n';
    const refused = await run({ csv: csv(text) });
    assert.deepEqual(refused.rows, []);
    assert.deepEqual(refused.problems.map((p) => p.column), ['Ref', 'Who', 'Capacity', 'Comment', null]);
    assert.match(refused.problems.at(-1)!.message, /no external id column/);
    const mapped = await run({ csv: csv(text), mapping: 'Ref = externalId\nWho=name\n# a comment\nCapacity = kw\nComment = -', dryRun: true });
    assert.deepEqual(mapped.problems, []);
    assert.deepEqual(mapped.columns.map((c) => c.target), ['externalId', 'field name', 'field kw', 'left out']);
    assert.equal(mapped.counts.created, 1);
    await assert.rejects(run({ csv: csv(text), mapping: 'Ref externalId' }), /Line 1 of the mapping/);
  });

  it('creates through the change step, then a second run finds every row unchanged, and a changed file updates', async () => {
    const first = await run({ csv: csv(FILE) });
    assert.deepEqual(first.rows.map((r) => [r.line, r.outcome]), [[2, 'created'], [3, 'created'], [4, 'created']]);
    const ids = await h.store.imports.findExternalIds(IDS.program, ['A-1', 'A-2', 'A-3']);
    assert.equal(ids.size, 3);
    const a1 = (await h.store.projects.getProject(IDS.program, ids.get('A-1')!))!;
    assert.deepEqual([a1.ownerId, a1.statusId, a1.number, a1.createdBy], [IDS.applicant, IDS.submitted, 'SOL--00001', IDS.admin]);
    const a3 = (await h.store.projects.getProject(IDS.program, ids.get('A-3')!))!;
    assert.deepEqual([a3.ownerId, a3.statusId, a3.number], [IDS.admin, IDS.draft, null]);
    const values = await h.store.projects.getValues(a1.id, [IDS.name, IDS.size, IDS.kw]);
    assert.deepEqual(values.map((v) => [v.fieldId, v.value, v.values]).sort(), [[IDS.name, 'Ada Lovelace', null], [IDS.size, null, ['S', 'M']], [IDS.kw, '7.5', null]]);
    const a2name = await h.store.projects.getValues(ids.get('A-2')!, [IDS.name]);
    assert.equal(a2name[0]!.value, 'Grace "Amazing" Hopper');
    const a3name = await h.store.projects.getValues(a3.id, [IDS.name]);
    assert.equal(a3name[0]!.value, 'Line one\r\nline two', 'a quoted cell is kept as written, its line break too');
    // Audited and evented like any creation, by the importing admin.
    const audit = await h.store.audit.list({ projectId: a1.id });
    assert.deepEqual(audit.map((a) => [a.action, a.actorId]), [['project.create', IDS.admin]]);
    assert.equal(audit[0]!.detail?.externalId, 'A-1');
    assert.deepEqual((await h.store.events.listProjectEvents(a1.id)).map((e) => e.type), ['project.created']);

    const again = await run({ csv: csv(FILE) });
    assert.deepEqual(again.rows.map((r) => r.outcome), ['unchanged', 'unchanged', 'unchanged']);
    assert.equal(await projectCount(h), 3);
    assert.equal((await h.store.audit.list({ projectId: a1.id })).length, 1, 'an unchanged row writes nothing');

    const changed = FILE.replace('7.5', '8').replace('A-2,"Grace ""Amazing"" Hopper",,12,,', 'A-2,"Grace ""Amazing"" Hopper",,12,user00000002@example.org,Submitted');
    h.clock.advance();
    const third = await run({ csv: csv(changed) });
    assert.deepEqual(third.rows.map((r) => r.outcome), ['updated', 'updated', 'unchanged']);
    assert.match(third.rows[1]!.notes[0]!, /Status kept: the project is in Draft/);
    assert.equal((await h.store.projects.getValues(a1.id, [IDS.kw]))[0]!.value, '8');
    assert.deepEqual((await h.store.audit.list({ projectId: a1.id })).map((a) => a.action), ['project.data.set', 'project.create']);
    const a2 = (await h.store.projects.getProject(IDS.program, ids.get('A-2')!))!;
    assert.deepEqual([a2.ownerId, a2.statusId], [IDS.applicant, IDS.draft]);
    assert.equal(await projectCount(h), 3);
  });

  it('an import stopped part way is run again: what was committed is unchanged, the rest is created, nothing twice', async () => {
    const rows = ['ExternalId,name,kw', ...Array.from({ length: 6 }, (_, i) => `R-${i},Name ${i},${i + 1}`)].join('\n');
    let steps = 0;
    // Two rows a commit; the database goes away at the fourth row, so the second commit (rows 3 and 4) never happens.
    const failing: Store = {
      ...h.store,
      batch: (work) => h.store.batch((step, tx) => work((inner) => (++steps === 4 ? Promise.reject(new Error('connection lost')) : step(inner)), tx)),
    };
    const told: string[] = [];
    await assert.rejects(importer(failing, h, undefined, 2).importProjects(await callerOf(h, 'admin'), { programRef: 'solar', csv: csv(rows), dryRun: false }, (r) => told.push(`${r.externalId} ${r.outcome}`)),
      /connection lost/);
    assert.deepEqual(told, ['R-0 created', 'R-1 created'], 'only rows whose commit is done are reported');
    assert.deepEqual([...(await h.store.imports.findExternalIds(IDS.program, ['R-0', 'R-1', 'R-2', 'R-3'])).keys()].sort(), ['R-0', 'R-1']);
    assert.equal(await projectCount(h), 5);
    const resumed = await importer(h.store, h, undefined, 2).importProjects(await callerOf(h, 'admin'), { programRef: 'solar', csv: csv(rows), dryRun: false });
    assert.deepEqual(resumed.rows.map((r) => r.outcome), ['unchanged', 'unchanged', 'created', 'created', 'created', 'created']);
    assert.equal((await h.store.imports.findExternalIds(IDS.program, rows.split('\n').slice(1).map((r) => r.split(',')[0]!))).size, 6);
    assert.equal(await projectCount(h), 9);
  });

  it('a refused row in a shared commit is rolled back alone: the rows around it are kept, with their events', async () => {
    const rows = 'ExternalId,name,kw\nS-1,Ann,1\nS-2,,2\nS-3,Cy,3\n';
    const before = await projectCount(h);
    const report = await importer(h.store, h, undefined, 50).importProjects(await callerOf(h, 'admin'), { programRef: 'solar', csv: csv(rows), dryRun: false });
    assert.deepEqual(report.rows.map((r) => r.outcome), ['created', 'refused', 'created']);
    const ids = await h.store.imports.findExternalIds(IDS.program, ['S-1', 'S-2', 'S-3']);
    assert.deepEqual([...ids.keys()].sort(), ['S-1', 'S-3']);
    assert.equal(await projectCount(h), before + 2);
    for (const id of ids.values()) assert.deepEqual((await h.store.events.listProjectEvents(id)).map((e) => e.type), ['project.created']);
    // The dashboards' counts, refreshed once at the batch's end, count every project kept and none rolled back.
    const { totals } = await h.store.dashboards.statusCounts(IDS.program, '9999-12-31');
    assert.equal(totals.reduce((sum, t) => sum + t.n, 0), await projectCount(h));
  });

  it('refuses a bad file of any kind with a clear error, and changes nothing', async () => {
    const before = await projectCount(h);
    const small = importer(h.store, h, { maxBytes: 200, maxRows: 2, maxColumns: 4, maxCellChars: 20 });
    const admin = await callerOf(h, 'admin');
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array([0x45, 0x78, 0x74, 0x0a, 0xff, 0xfe, 0x41]), /not UTF-8 \(from line 2\)/],
      [new Uint8Array([0xff, 0xfe, 0x45, 0x00]), /UTF-16/],
      [csv('ExternalId,name\n"X-1,Ann\n'), /quote opened on line 2 is never closed/],
      [csv('ExternalId,name\n"X-1"a,Ann\n'), /line 2 has text after a closing quote/],
      [csv('ExternalId,name\nX-"1,Ann\n'), /quote inside an unquoted cell/],
      [csv('ExternalId,name\nX-1,Ann\nX-2,Bo\nX-3,Cy\n'), /more than 2 rows|has 3 rows/],
      [csv('a,b,c,d,e\n'), /more than 4 cells/],
      [csv(`ExternalId,name\nX-1,${'n'.repeat(30)}\n`), /30 characters/],
      [csv('x'.repeat(300)), /300 bytes/],
      [csv('\n\n'), /no header line/],
      [csv('ExternalId\0,name\n'), /NUL/],
    ];
    for (const [bytes, message] of cases) {
      await assert.rejects(small.importProjects(admin, { programRef: 'solar', csv: bytes, dryRun: false }), (e: ApiError) => e instanceof ApiError && e.code === 'INVALID_REQUEST' && message.test(e.message), String(message));
    }
    assert.equal(await projectCount(h), before);
  });
});
