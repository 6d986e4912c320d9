import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS, programRows, project, seedProgram, T0, value } from '../support/fixtures.ts';

forEachDialect('store: projects, values, history and audit', ({ open }) => {
  it('inserts a project and reads it back within its program only', async () => {
    const { store } = await open();
    await seedProgram(store);
    const p = project('PROJECT00001', { number: 'SOL-00001', assigneeId: IDS.admin });
    await store.transaction((tx) => tx.projects.insertProject(p));
    assert.deepEqual(await store.projects.getProject(IDS.program, p.id), p);
    assert.equal(await store.projects.getProject('PROGRAM00009', p.id), null);
    assert.equal(await store.projects.getProject(IDS.program, 'nope'), null);
  });

  it('updates a project only from the version it expects, bumping the version', async () => {
    const { store } = await open();
    await seedProgram(store);
    const p = project('PROJECT00001');
    await store.transaction((tx) => tx.projects.insertProject(p));
    const changes = { statusId: IDS.submitted, statusAt: T0 + 10, updatedAt: T0 + 10, updatedBy: IDS.admin, number: 'SOL-00001', assigneeId: IDS.admin };
    assert.equal(await store.transaction((tx) => tx.projects.updateProject(p.id, 0, changes)), true);
    const updated = { ...p, ...changes, version: 1 };
    assert.deepEqual(await store.projects.getProject(IDS.program, p.id), updated);

    const stale = { statusId: IDS.draft, updatedAt: T0 + 20, updatedBy: IDS.applicant, ownerId: IDS.admin };
    assert.equal(await store.transaction((tx) => tx.projects.updateProject(p.id, 0, stale)), false, 'version 0 is gone: a concurrent change won');
    assert.deepEqual(await store.projects.getProject(IDS.program, p.id), updated, 'a lost compare-and-set changes nothing');

    assert.equal(await store.transaction((tx) => tx.projects.updateProject(p.id, 1, { assigneeId: null, updatedAt: T0 + 30 })), true);
    assert.deepEqual(await store.projects.getProject(IDS.program, p.id), { ...updated, assigneeId: null, updatedAt: T0 + 30, version: 2 });
    assert.equal(await store.transaction((tx) => tx.projects.updateProject('nope', 0, { updatedAt: T0 })), false);
  });

  it('lists projects in creation order, by owner, changed since, and by number', async () => {
    const { store } = await open();
    await seedProgram(store);
    const a = project('PROJECT0000A', { createdAt: T0 + 3, updatedAt: T0 + 3, number: 'SOL-00003' });
    const b = project('PROJECT0000B', { createdAt: T0 + 1, updatedAt: T0 + 50, number: 'SOL-00001', ownerId: IDS.admin });
    const c = project('PROJECT0000C', { createdAt: T0 + 2, updatedAt: T0 + 2, number: null, statusId: IDS.submitted });
    await store.transaction(async (tx) => {
      for (const p of [a, b, c]) await tx.projects.insertProject(p);
    });
    const ids = (ps: { id: string }[]) => ps.map((p) => p.id);
    const query = { programId: IDS.program, limit: 10, offset: 0 };
    assert.deepEqual(ids(await store.projects.listProjects(query)), [b.id, c.id, a.id]);
    assert.deepEqual(ids(await store.projects.listProjects({ ...query, limit: 1, offset: 1 })), [c.id]);
    assert.deepEqual(ids(await store.projects.listProjects({ ...query, owner: { ownerId: IDS.applicant, organizationIds: [] } })), [c.id, a.id]);
    assert.deepEqual(ids(await store.projects.listProjects({ ...query, changedSince: T0 + 3 })), [b.id]);
    // A page's query is compiled once per shape and then bound: the same shapes again answer for their own values.
    assert.deepEqual(ids(await store.projects.listProjects({ ...query, owner: { ownerId: IDS.admin, organizationIds: [] } })), [b.id]);
    assert.deepEqual(ids(await store.projects.listProjects({ ...query, changedSince: T0 + 2 })), [b.id, a.id]);
    assert.deepEqual(ids(await store.projects.listProjectListings({ ...query, after: { createdAt: T0 + 1, id: b.id } })), [c.id, a.id]);
    assert.deepEqual(ids(await store.projects.listProjectListings({ ...query, after: { createdAt: T0 + 2, id: c.id } })), [a.id]);
    assert.deepEqual(await store.projects.listProjectListings({ ...query, programId: 'no-such-program' }), []);
    assert.deepEqual(ids(await store.projects.findProjectsByNumbers(IDS.program, ['SOL-00003', 'SOL-00001', 'SOL-00001', 'SOL-09999'])), [b.id, a.id]);
    assert.deepEqual(ids(await store.projects.findProjectsByNumbers(IDS.program, ['SOL-00003', 'SOL-00001'], { ownerId: IDS.admin, organizationIds: [] })), [b.id]);
    assert.deepEqual(await store.projects.findProjectsByNumbers(IDS.program, []), []);
    assert.equal(await store.projects.countProjectsInStatuses([IDS.draft]), 2);
    assert.equal(await store.projects.countProjectsInStatuses([IDS.draft, IDS.submitted]), 3);
    assert.equal(await store.projects.countProjectsInStatuses([]), 0);
  });

  it('upserts drafts per form and field, and submitted values per field', async () => {
    const { store } = await open();
    await seedProgram(store);
    const p = project('PROJECT00001');
    await store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.upsertDraft(p.id, IDS.form, [value(IDS.name, 'Jane'), value(IDS.size, ['S', 'M'])]);
    });
    const byField = <T extends { fieldId: string }>(vs: T[]) => [...vs].sort((x, y) => x.fieldId.localeCompare(y.fieldId));
    assert.deepEqual(byField(await store.projects.getDraft(p.id, IDS.form)), [value(IDS.name, 'Jane'), value(IDS.size, ['S', 'M'])]);

    await store.transaction((tx) => tx.projects.upsertDraft(p.id, IDS.form, [value(IDS.size, ['L'], T0 + 5, IDS.admin), value(IDS.kw, '7.5', T0 + 5)]));
    assert.deepEqual(byField(await store.projects.getDraft(p.id, IDS.form)), [
      value(IDS.name, 'Jane'), value(IDS.size, ['L'], T0 + 5, IDS.admin), value(IDS.kw, '7.5', T0 + 5),
    ]);
    assert.deepEqual(await store.projects.getDraft(p.id, 'FORM00000009'), []);

    await store.transaction((tx) => tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, 'Jane'), value(IDS.kw, '7.5')]));
    await store.transaction((tx) => tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, 'Jane Doe', T0 + 9), value(IDS.size, [])]));
    assert.deepEqual(byField(await store.projects.getValues(p.id, [IDS.name, IDS.size, IDS.kw])), [
      value(IDS.name, 'Jane Doe', T0 + 9), value(IDS.size, []), value(IDS.kw, '7.5'),
    ]);
    assert.deepEqual(await store.projects.getValues(p.id, [IDS.kw]), [value(IDS.kw, '7.5')]);
    assert.deepEqual(await store.projects.getValues(p.id, []), []);
  });

  it('reads a form\'s values (four fields or more, picked from the project\'s) without the values of other fields', async () => {
    const { store } = await open();
    await seedProgram(store);
    const p = project('PROJECT00001');
    await store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.upsertValues(p.id, IDS.form, [value(IDS.name, 'Jane'), value(IDS.size, ['S']), value(IDS.kw, '7.5')]);
    });
    // Four ids, two of them with no value: the size is the project's but not asked for.
    const asked = [IDS.kw, 'FIELD0000009', IDS.name, 'FIELD0000008'];
    assert.deepEqual(await store.projects.getValues(p.id, asked), [value(IDS.name, 'Jane'), value(IDS.kw, '7.5')]);
    assert.deepEqual(await store.projects.getValues(p.id, [...asked, IDS.size]), [value(IDS.name, 'Jane'), value(IDS.size, ['S']), value(IDS.kw, '7.5')]);
    assert.deepEqual(await store.projects.getValues('PROJECT00009', asked), []);
  });

  it('keeps and finds values of any allowed length (10,000 characters that do not compress)', async () => {
    const { store } = await open();
    await seedProgram(store);
    // The text field is the fixture's sensitive one, whose values are sealed and searched by blind index only: here it
    // is made an ordinary field, whose values the text indexes hold.
    const rows = programRows(T0 + 5);
    await store.transaction((tx) => tx.programs.saveProgramDefinition({ ...rows, fields: rows.fields.map((f) => ({ ...f, sensitive: false })) }));
    // Random text: PostgreSQL cannot put a value this long into a b-tree entry unless it compresses.
    const long = (seed: string) => Array.from({ length: 79 }, (_, i) => createHash('sha512').update(`${seed}${i}`).digest('hex')).join('').slice(0, 10_000);
    const [a, b] = [long('a'), long('b')];
    const [pa, pb, pc] = [project('PROJECT00001'), project('PROJECT00002', { createdAt: T0 + 1 }), project('PROJECT00003', { createdAt: T0 + 2 })];
    await store.transaction(async (tx) => {
      for (const p of [pa, pb, pc]) await tx.projects.insertProject(p);
      await tx.projects.upsertValues(pa.id, IDS.form, [value(IDS.name, a), value(IDS.size, [b, a])]);
      await tx.projects.upsertValues(pb.id, IDS.form, [value(IDS.name, b)]);
      // A value that is the start of a, one character shorter than the indexed prefix.
      await tx.projects.upsertValues(pc.id, IDS.form, [value(IDS.name, a.slice(0, 99))]);
    });
    assert.deepEqual(await store.projects.getValues(pa.id, [IDS.name]), [value(IDS.name, a)]);
    const search = async (kind: 'text' | 'multi', op: 'eq' | 'ne' | 'lt' | 'ge', content: string) => (await store.projects.searchProjects({
      programId: IDS.program, statusDates: [], fields: [{ fieldId: kind === 'text' ? IDS.name : IDS.size, kind, op, content, number: null }], limit: 10, offset: 0,
    })).map((p) => p.id);
    assert.deepEqual(await search('text', 'eq', a), [pa.id]);
    assert.deepEqual(await search('text', 'eq', `${a.slice(0, -1)}!`), []);
    // Around the length of the indexed prefix (100 characters): only whole values match.
    assert.deepEqual(await search('text', 'eq', a.slice(0, 99)), [pc.id]);
    assert.deepEqual(await search('text', 'eq', a.slice(0, 100)), []);
    assert.deepEqual(await search('text', 'eq', a.slice(0, 101)), []);
    assert.deepEqual(await search('text', 'ne', a), [pb.id, pc.id]);
    assert.deepEqual(await search('multi', 'eq', b), [pa.id]);
    // a.slice(0, 99) sorts before a; b is compared with both.
    const below = (x: string) => [[pa.id, a], [pb.id, b], [pc.id, a.slice(0, 99)]].filter(([, v]) => v! < x).map(([id]) => id);
    assert.deepEqual(await search('text', 'lt', b), below(b));
    assert.deepEqual(await search('text', 'ge', a), [pa.id, pb.id, pc.id].filter((id) => !below(a).includes(id)));
  });

  it('returns status history newest first', async () => {
    const { store } = await open();
    await seedProgram(store);
    const p = project('PROJECT00001');
    const entry = (id: string, statusId: string, changedAt: number) => ({ id, projectId: p.id, statusId, changedAt, changedBy: IDS.admin, reportAs: 'normal' });
    await store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.insertHistory(entry('HIST2', IDS.submitted, T0 + 20));
      await tx.projects.insertHistory(entry('HIST1', IDS.draft, T0));
      await tx.projects.insertHistory(entry('HIST3', IDS.draft, T0 + 30));
      await tx.projects.insertSubmission({ id: 'SUB1', projectId: p.id, formId: IDS.form, at: T0 + 20, by: IDS.applicant });
    });
    assert.deepEqual(await store.projects.getHistory(p.id), [entry('HIST3', IDS.draft, T0 + 30), entry('HIST2', IDS.submitted, T0 + 20), entry('HIST1', IDS.draft, T0)]);
    assert.deepEqual(await store.projects.getHistory('nope'), []);
  });

  it('orders history entries of the same millisecond by when they were written', async () => {
    const { store } = await open();
    await seedProgram(store);
    const p = project('PROJECT00001');
    const entry = (id: string, statusId: string) => ({ id, projectId: p.id, statusId, changedAt: T0, changedBy: IDS.admin, reportAs: 'normal' });
    await store.transaction(async (tx) => {
      await tx.projects.insertProject(p);
      await tx.projects.insertHistory(entry('HISTZ', IDS.draft));
      await tx.projects.insertHistory(entry('HISTA', IDS.submitted));
      await tx.projects.insertHistory(entry('HISTM', IDS.draft));
    });
    assert.deepEqual((await store.projects.getHistory(p.id)).map((h) => h.id), ['HISTM', 'HISTA', 'HISTZ']);
  });

  it('writes audit rows and lists them newest first, filtered by project or action', async () => {
    const { store } = await open();
    await seedProgram(store);
    await store.transaction(async (tx) => {
      await tx.audit.write({ action: 'project.create', actorId: IDS.applicant, agencyId: IDS.agency, programId: IDS.program, projectId: 'P1', requestId: 'req-1', detail: { number: 'SOL-00001', nested: { ok: true } } }, T0 + 1, 'AUD1');
      await tx.audit.write({ action: 'project.update', actorId: IDS.admin, projectId: 'P1' }, T0 + 2, 'AUD2');
      await tx.audit.write({ action: 'user.create', actorId: null }, T0 + 3, 'AUD3');
    });
    const all = await store.audit.list({});
    assert.deepEqual(all.map((a) => a.id), ['AUD3', 'AUD2', 'AUD1']);
    assert.deepEqual(all[2], {
      id: 'AUD1', at: T0 + 1, action: 'project.create', actorId: IDS.applicant, agencyId: IDS.agency, programId: IDS.program,
      projectId: 'P1', requestId: 'req-1', detail: { number: 'SOL-00001', nested: { ok: true } },
    });
    assert.deepEqual(all[0], { id: 'AUD3', at: T0 + 3, action: 'user.create', actorId: null, agencyId: null, programId: null, projectId: null, requestId: null, detail: {} });
    assert.deepEqual((await store.audit.list({ projectId: 'P1' })).map((a) => a.id), ['AUD2', 'AUD1']);
    assert.deepEqual((await store.audit.list({ action: 'project.update' })).map((a) => a.id), ['AUD2']);
    assert.deepEqual((await store.audit.list({ limit: 1 })).map((a) => a.id), ['AUD3']);
  });
});
