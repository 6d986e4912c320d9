import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { SetAssigneeResponse } from '../../src/wire/documents/workflow.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0, user } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_BODY } from '../support/json-answers.ts';
import { createProject, createSubmitted, type MatrixRow, send, UNAUTHENTICATED } from './http-helpers.ts';
import { assigneeRequest, elements, sharedWorkflowHarness, urls, workflowState } from './workflow-helpers.ts';

// SetAssignee: POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Assignee
//   body <SetAssigneeRequest xmlns="…"><AssigneeEmail>…</AssigneeEmail></SetAssigneeRequest> (absent or empty clears)

/** A disabled user who still holds an editor grant in the program. */
const DISABLED_EDITOR = 'USER00000009';

forEachDialect('HTTP SetAssignee', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect);

  before(async () => {
    await harness().store.transaction(async (tx) => {
      await tx.accounts.insertUser(user(DISABLED_EDITOR, { disabled: true }), 'hash-disabled', T0);
      await tx.accounts.setGrant({ userId: DISABLED_EDITOR, programId: IDS.program, role: 'editor', sensitive: false });
    });
  });

  /** Assigns `email` as admin and expects 200. */
  async function assign(h: HttpHarness, projectId: string, email: string | null, who: Who = 'admin') {
    h.clock.advance();
    const res = await h.request({ method: 'POST', url: urls.assignee(projectId), as: who, body: assigneeRequest(email) });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'SetAssigneeResponse');
    return res;
  }

  // Every row works on a fresh project of the applicant and assigns the reader.
  const matrix: MatrixRow[] = [
    { who: 'admin', status: 200 },
    { who: 'programAdmin', status: 200 },
    { who: 'editor', status: 200 },
    { who: 'reader', status: 403, code: 'FORBIDDEN' },
    { who: 'applicant', status: 403, code: 'FORBIDDEN' },
    { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' },
    { who: 'outsider', status: 403, code: 'FORBIDDEN' },
    ...UNAUTHENTICATED,
  ];
  for (const row of matrix) {
    it(`assigns a staff member to the applicant's project: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await workflowState(h, projectId);
      const at = h.clock.advance();
      const res = await send(h, row.who, { method: 'POST', url: urls.assignee(projectId), body: assigneeRequest(h.who.reader.email) });
      const after = await workflowState(h, projectId);
      if (row.code) {
        assertError(h, res, row.status, row.code);
        assert.deepEqual(after, before, 'a refused SetAssignee changes nothing');
        return;
      }
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'SetAssigneeResponse');
      assert.deepEqual(elements(res.body, 'Assignee'), [{ Name: `User ${h.who.reader.id}`, Email: h.who.reader.email }]);
      const actor = h.who[row.who as Who].id;
      assert.deepEqual(after.project, { ...before.project!, assigneeId: h.who.reader.id, updatedAt: at, updatedBy: actor, version: before.project!.version + 1 });
      assert.deepEqual(after.history, before.history, 'an assignment is no status change');
      assert.deepEqual([after.drafts, after.values], [before.drafts, before.values]);
      assert.equal(after.audit.length, before.audit.length + 1);
      assert.deepEqual([after.audit[0]?.action, after.audit[0]?.actorId, after.audit[0]?.detail], [
        'project.assignee.set', actor, { from: null, to: h.who.reader.id },
      ]);
    });
  }

  for (const staff of ['reader', 'editor', 'programAdmin', 'admin'] as const) {
    it(`accepts ${staff} as assignee (staff of the program${staff === 'admin' ? ' through the agency' : ''})`, async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const res = await assign(h, projectId, h.who[staff].email, 'editor');
      assert.equal(attr(res.body, 'Assignee', 'Email'), h.who[staff].email);
      assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.assigneeId, h.who[staff].id);
    });
  }

  it('replaces the assignee, and clears it with an empty or absent AssigneeEmail', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    await assign(h, projectId, h.who.editor.email);
    await assign(h, projectId, h.who.reader.email, 'programAdmin');
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.assigneeId, h.who.reader.id);

    for (const body of [assigneeRequest(''), assigneeRequest('   '), assigneeRequest(null)]) {
      await assign(h, projectId, h.who.reader.email);
      const before = await workflowState(h, projectId);
      const at = h.clock.advance();
      const res = await h.request({ method: 'POST', url: urls.assignee(projectId), as: 'editor', body });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'SetAssigneeResponse');
      assert.deepEqual(elements(res.body, 'Assignee'), [], 'no Assignee when cleared');
      const after = await workflowState(h, projectId);
      assert.deepEqual(after.project, { ...before.project!, assigneeId: null, updatedAt: at, updatedBy: h.who.editor.id, version: before.project!.version + 1 });
      assert.deepEqual(after.audit[0]?.detail, { from: h.who.reader.id, to: null });
    }
    const audit = await h.store.audit.list({ projectId, action: 'project.assignee.set' });
    assert.deepEqual(audit.slice(-2).reverse().map((e) => e.detail), [{ from: null, to: h.who.editor.id }, { from: h.who.editor.id, to: h.who.reader.id }]);
  });

  it('matches the e-mail address case-insensitively and trims it', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const res = await assign(h, projectId, `  ${h.who.editor.email.toUpperCase()}\n`);
    assert.equal(attr(res.body, 'Assignee', 'Email'), h.who.editor.email);
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.assigneeId, h.who.editor.id);
  });

  const notStaff: [string, (h: HttpHarness) => string][] = [
    ['the applicant (the owner)', (h) => h.who.applicant.email],
    ['another applicant', (h) => h.who.otherApplicant.email],
    ['a user of the agency without access to the program (outsider)', (h) => h.who.outsider.email],
    ['an unknown e-mail address', () => 'nobody@example.org'],
    ['a disabled editor', () => `${DISABLED_EDITOR.toLowerCase()}@example.org`],
  ];
  for (const [what, email] of notStaff) {
    it(`refuses ${what} with 422 UNKNOWN_USER and changes nothing (the old assignee stays)`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await assign(h, projectId, h.who.editor.email);
      const before = await workflowState(h, projectId);
      h.clock.advance();
      for (const who of ['admin', 'editor'] as const) {
        assertError(h, await h.request({ method: 'POST', url: urls.assignee(projectId), as: who, body: assigneeRequest(email(h)) }), 422, 'UNKNOWN_USER');
      }
      assert.deepEqual(await workflowState(h, projectId), before);
      assert.equal(before.project?.assigneeId, h.who.editor.id);
    });
  }

  const badBodies: [string, string | undefined, Record<string, string>, number, string][] = [
    ['malformed XML', `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>x</SetAssigneeRequest>`, {}, 400, 'MALFORMED_XML'],
    ['no namespace', '<SetAssigneeRequest><AssigneeEmail>a@example.org</AssigneeEmail></SetAssigneeRequest>', {}, 400, 'WRONG_NAMESPACE'],
    ['another root element', `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>a@example.org</OwnerEmail></SetProjectOwnerRequest>`, {}, 400, 'INVALID_REQUEST'],
    ['two AssigneeEmail elements', `<SetAssigneeRequest xmlns="${NS}"><AssigneeEmail>a@example.org</AssigneeEmail><AssigneeEmail>b@example.org</AssigneeEmail></SetAssigneeRequest>`, {}, 400, 'INVALID_REQUEST'],
    ['an e-mail address longer than 320 characters', assigneeRequest(`${'a'.repeat(320)}@example.org`), {}, 400, 'INVALID_REQUEST'],
    ['text/plain', 'a@example.org', { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['no body', undefined, {}, 400, 'INVALID_REQUEST'],
  ];
  for (const [what, body, headers, status, code] of badBodies) {
    it(`refuses ${what} with ${status} ${code} and changes nothing`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await assign(h, projectId, h.who.editor.email);
      const before = await workflowState(h, projectId);
      assertError(h, await h.request({ method: 'POST', url: urls.assignee(projectId), body, headers }), status, code);
      assert.deepEqual(await workflowState(h, projectId), before);
    });
  }

  it('reads JSON bodies (an empty object clears) and answers in JSON; refuses a JSON body its schema does not accept', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const post = (body: string) => {
      h.clock.advance();
      return h.request({ method: 'POST', url: urls.assignee(projectId), body, headers: JSON_BODY });
    };
    const set = assertJsonAnswer(await post(JSON.stringify({ AssigneeEmail: ` ${h.who.editor.email} ` })), SetAssigneeResponse);
    assert.deepEqual(set, { Assignee: { Name: `User ${h.who.editor.id}`, Email: h.who.editor.email } });
    const before = await workflowState(h, projectId);
    for (const body of ['{"AssigneeEmail":5}', '{"OwnerEmail":"a@example.org"}', JSON.stringify({ AssigneeEmail: `${'a'.repeat(320)}@x` }), '[]']) {
      assertJsonError(await post(body), 400, 'INVALID_REQUEST');
    }
    assertJsonError(await post('{"AssigneeEmail":'), 400, 'MALFORMED_JSON');
    assert.deepEqual(await workflowState(h, projectId), before);
    assert.deepEqual(assertJsonAnswer(await post('{}'), SetAssigneeResponse), {});
    assert.deepEqual(assertJsonAnswer(await post('{"AssigneeEmail":null}'), SetAssigneeResponse), {});
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.assigneeId, null);
  });

  it('answers 404 NOT_FOUND for an unknown project', async () => {
    const h = harness();
    assertError(h, await h.request({ method: 'POST', url: urls.assignee('NOSUCHPROJCT'), body: assigneeRequest(h.who.editor.email) }), 404, 'NOT_FOUND');
  });
});
