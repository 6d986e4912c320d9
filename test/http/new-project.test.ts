import assert from 'node:assert/strict';
import { it } from 'node:test';
import { isoTimestamp } from '../../src/model/clock.ts';
import { NewProjectResponse } from '../../src/wire/documents/projects.ts';
import { wireFromXml } from '../../src/wire/wire-xml-reader.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER } from '../support/json-answers.ts';
import { readBack } from '../xml/xml-test-helpers.ts';
import { API, listedIds, type MatrixRow, PROGRAM, programState, send, sharedHarness, UNAUTHENTICATED } from './http-helpers.ts';

// CreateNewProject: POST /services/v2/Programs/{ProgramId}/NewProject (no body)

forEachDialect('HTTP CreateNewProject', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  const matrix: MatrixRow[] = [
    { who: 'admin', status: 200 },
    { who: 'programAdmin', status: 200 },
    { who: 'editor', status: 200 },
    { who: 'reader', status: 403, code: 'FORBIDDEN' },
    { who: 'applicant', status: 200 },
    { who: 'otherApplicant', status: 200 },
    { who: 'outsider', status: 403, code: 'FORBIDDEN' },
    ...UNAUTHENTICATED,
  ];
  for (const row of matrix) {
    it(`creates an empty Draft project owned by the caller: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const h = harness();
      h.clock.advance();
      const before = await programState(h);
      const res = await send(h, row.who, { method: 'POST', url: `${PROGRAM}/NewProject` });
      if (row.code) {
        assertError(h, res, row.status, row.code);
        assert.deepEqual(await programState(h), before, 'a refused CreateNewProject creates nothing');
        return;
      }
      const who = row.who as Exclude<typeof row.who, 'anonymous' | 'badKey'>;
      const userId = h.who[who].id;
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'NewProjectResponse');
      const projectId = attr(res.body, 'Project', 'ProjectId')!;
      assert.match(projectId, /^[0-9A-Z]{12}$/);
      assert.equal(attr(res.body, 'Project', 'ProgramId'), IDS.program);
      assert.equal(attr(res.body, 'Project', 'ProjectNumber'), undefined, 'no number before the first submission');
      assert.equal(attr(res.body, 'Project', 'Url'), `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&amp;ProjectId=${projectId}`);
      assert.equal(attr(res.body, 'Project', 'LastChangeTimestamp'), isoTimestamp(h.clock.now()));
      assert.equal(attr(res.body, 'CurrentStatus', 'StatusId'), IDS.draft);
      assert.equal(attr(res.body, 'CurrentStatus', 'CustomId'), 'draft');
      assert.equal(attr(res.body, 'CurrentStatus', 'Name'), 'Draft');
      assert.equal(attr(res.body, 'CurrentStatus', 'Timestamp'), isoTimestamp(h.clock.now()));

      // Read back: one new project, owned by and created by the caller, with one Draft history entry and one audit row.
      const after = await programState(h);
      assert.deepEqual(after.projects.map((p) => p.id), [...before.projects.map((p) => p.id), projectId]);
      assert.deepEqual(await h.store.projects.getProject(IDS.program, projectId), {
        id: projectId, programId: IDS.program, number: null, statusId: IDS.draft, statusAt: h.clock.now(),
        createdAt: h.clock.now(), createdBy: userId, updatedAt: h.clock.now(), updatedBy: userId,
        ownerId: userId, assigneeId: null, version: 0,
      });
      const history = await h.store.projects.getHistory(projectId);
      assert.deepEqual(history.map((e) => [e.statusId, e.changedAt, e.changedBy]), [[IDS.draft, h.clock.now(), userId]]);
      const audit = await h.store.audit.list({ projectId });
      assert.deepEqual(audit.map((e) => [e.action, e.actorId, e.programId]), [['project.create', userId, IDS.program]]);
      assert.match(audit[0]?.requestId ?? '', /^[0-9A-Z]{12,32}$/, 'the audit row names the request');
      assert.ok((await listedIds(h, who)).includes(projectId), 'the creator sees the new project');
    });
  }

  it('lists the forms of the program with the statuses they are available in and lead to', async () => {
    const h = harness();
    const res = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject` });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'NewProjectResponse');
    assert.deepEqual(attrs(res.body, 'Form', 'FormId'), [IDS.form]);
    assert.equal(attr(res.body, 'Form', 'CustomId'), 'application');
    assert.equal(attr(res.body, 'Form', 'Name'), 'Application');
    assert.equal(attr(res.body, 'Form', 'ProgramId'), IDS.program);
    const available = /<AvailableInStatuses>(.*?)<\/AvailableInStatuses>/s.exec(res.body)?.[1] ?? '';
    assert.deepEqual(attrs(available, 'Status', 'StatusId'), [IDS.draft]);
    assert.deepEqual(attrs(available, 'Status', 'Name'), ['Draft']);
    assert.equal(attr(res.body, 'LeadsToStatus', 'StatusId'), IDS.submitted);
    assert.equal(attr(res.body, 'LeadsToStatus', 'CustomId'), 'submitted');
    assert.equal(attr(res.body, 'LeadsToStatus', 'Name'), 'Submitted');
  });

  it('answers in JSON when Accept asks for it, as the XML answer does but for the new project\'s id', async () => {
    const h = harness();
    const xml = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject` });
    const json = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, headers: JSON_ANSWER });
    const value = assertJsonAnswer(json, NewProjectResponse);
    const fromXml = wireFromXml(NewProjectResponse, readBack(xml.body)).Project;
    const { ProjectId } = value.Project;
    assert.equal(json.headers.etag, `"${ProjectId}.0.json"`, 'the JSON representation has a strong ETag of its own');
    assert.deepEqual(value.Project, { ...fromXml, ProjectId, Url: fromXml.Url.replace(fromXml.ProjectId, ProjectId) });
    assert.deepEqual(value.Project.Forms.Form[0]?.AvailableInStatuses.Status, [{ StatusId: IDS.draft, CustomId: 'draft', Name: 'Draft' }]);
    assertJsonError(await h.request({ method: 'POST', url: `${API}/Programs/nowhere/NewProject`, headers: JSON_ANSWER }), 404, 'NOT_FOUND');
  });

  it('creates a distinct project on every call and accepts the program by generated id', async () => {
    const h = harness();
    const first = await h.request({ method: 'POST', url: `${API}/Programs/${IDS.program}/NewProject`, as: 'editor' });
    const second = await h.request({ method: 'POST', url: `${API}/Programs/${IDS.program}/NewProject`, as: 'editor' });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(second.statusCode, 200, second.body);
    assert.notEqual(attr(first.body, 'Project', 'ProjectId'), attr(second.body, 'Project', 'ProjectId'));
  });

  it('answers 404 NOT_FOUND for an unknown program and creates nothing', async () => {
    const h = harness();
    const before = await programState(h);
    assertError(h, await h.request({ method: 'POST', url: `${API}/Programs/nowhere/NewProject` }), 404, 'NOT_FOUND');
    assert.deepEqual(await programState(h), before);
  });

  it('answers 405 METHOD_NOT_ALLOWED for GET and creates nothing', async () => {
    const h = harness();
    const before = await programState(h);
    const res = await h.request({ method: 'GET', url: `${PROGRAM}/NewProject` });
    assertError(h, res, 405, 'METHOD_NOT_ALLOWED');
    assert.equal(res.headers.allow, 'POST');
    assert.deepEqual(await programState(h), before);
  });
});
