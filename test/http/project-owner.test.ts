import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { SetProjectOwnerResponse } from '../../src/wire/documents/projects.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0, user } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, dataRequest, NS, type Who } from '../support/http-harness.ts';
import { assertJsonError, assertSameAnswer, JSON_BODY } from '../support/json-answers.ts';
import {
  createProject, draftPath, listedIds, type MatrixRow, ownerRequest, projectPath, projectState, send, sharedHarness, UNAUTHENTICATED,
} from './http-helpers.ts';

// SetProjectOwner: POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Owner
// body <SetProjectOwnerRequest xmlns="…"><OwnerEmail>…</OwnerEmail></SetProjectOwnerRequest>

const DISABLED = 'USER00000009';

forEachDialect('HTTP SetProjectOwner', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  before(async () => {
    // A disabled user who still holds a grant in the program.
    await harness().store.transaction(async (tx) => {
      await tx.accounts.insertUser(user(DISABLED, { disabled: true }), 'hash-disabled', T0);
      await tx.accounts.setGrant({ userId: DISABLED, programId: IDS.program, role: 'applicant', sensitive: false });
    });
  });

  const ownerUrl = (projectId: string) => `${projectPath(projectId)}/Owner`;

  // Every row works on a fresh project of the applicant and hands it to the program admin.
  const matrix: MatrixRow[] = [
    { who: 'admin', status: 200 },
    { who: 'programAdmin', status: 200 },
    { who: 'editor', status: 200 },
    { who: 'reader', status: 403, code: 'FORBIDDEN' },
    { who: 'applicant', status: 200 },
    { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' },
    { who: 'outsider', status: 403, code: 'FORBIDDEN' },
    ...UNAUTHENTICATED,
  ];
  for (const row of matrix) {
    it(`sets the owner of the applicant's project: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      h.clock.advance();
      const res = await send(h, row.who, { method: 'POST', url: ownerUrl(projectId), body: ownerRequest(h.who.programAdmin.email) });
      if (row.code) {
        assertError(h, res, row.status, row.code);
        assert.deepEqual(await projectState(h, projectId), before, 'a refused SetProjectOwner changes nothing');
        return;
      }
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'SetProjectOwnerResponse');
      assert.equal(attr(res.body, 'Owner', 'Email'), h.who.programAdmin.email);
      assert.equal(attr(res.body, 'Owner', 'Name'), `User ${h.who.programAdmin.id}`);
      const after = await projectState(h, projectId);
      const actor = h.who[row.who as Who].id;
      assert.deepEqual(after.project, { ...before.project!, ownerId: h.who.programAdmin.id, updatedAt: h.clock.now(), updatedBy: actor, version: 1 });
      assert.deepEqual(after.history, before.history, 'a new owner is no status change');
      assert.deepEqual(after.audit.slice(0, 1).map((e) => [e.action, e.actorId, e.detail]), [
        ['project.owner.set', actor, { from: h.who.applicant.id, to: h.who.programAdmin.id }],
      ]);
      assert.equal(after.audit.length, before.audit.length + 1);
    });
  }

  it('hands the project over: the old applicant owner loses it, the new one gets it', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const res = await h.request({ method: 'POST', url: ownerUrl(projectId), as: 'applicant', body: ownerRequest(h.who.otherApplicant.email) });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'SetProjectOwnerResponse');
    assert.equal(attr(res.body, 'Owner', 'Email'), h.who.otherApplicant.email);

    assert.ok(!(await listedIds(h, 'applicant')).includes(projectId));
    assertError(h, await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' }), 404, 'NOT_FOUND');
    assertError(h, await h.request({ method: 'POST', url: ownerUrl(projectId), as: 'applicant', body: ownerRequest(h.who.applicant.email) }), 404, 'NOT_FOUND');
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.ownerId, h.who.otherApplicant.id, 'the refused take-back changed nothing');

    assert.ok((await listedIds(h, 'otherApplicant')).includes(projectId));
    const read = await h.request({ method: 'GET', url: draftPath(projectId), as: 'otherApplicant' });
    assert.equal(read.statusCode, 200, read.body);
    const write = await h.request({ method: 'POST', url: draftPath(projectId), as: 'otherApplicant', body: dataRequest({ kw: '3' }) });
    assert.equal(write.statusCode, 200, write.body);
  });

  it('matches the e-mail address case-insensitively and trims it', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const res = await h.request({ method: 'POST', url: ownerUrl(projectId), body: ownerRequest(`  ${h.who.editor.email.toUpperCase()}\n`) });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(attr(res.body, 'Owner', 'Email'), h.who.editor.email);
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.ownerId, h.who.editor.id);
  });

  const unknownOwners: [string, (who: Record<Who, { email: string }>) => string][] = [
    ['an unknown e-mail address', () => 'nobody@example.org'],
    ['a user of the agency without access to the program (outsider)', (who) => who.outsider.email],
    ['a disabled user', () => `${DISABLED.toLowerCase()}@example.org`],
  ];
  for (const [what, email] of unknownOwners) {
    it(`refuses ${what} with 422 UNKNOWN_USER and changes nothing`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      h.clock.advance();
      assertError(h, await h.request({ method: 'POST', url: ownerUrl(projectId), body: ownerRequest(email(h.who)) }), 422, 'UNKNOWN_USER');
      assert.deepEqual(await projectState(h, projectId), before);
    });
  }

  const badBodies: [string, string | undefined, Record<string, string>, number, string][] = [
    ['malformed XML', `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>x</SetProjectOwnerRequest>`, {}, 400, 'MALFORMED_XML'],
    ['no OwnerEmail', `<SetProjectOwnerRequest xmlns="${NS}"/>`, {}, 400, 'INVALID_REQUEST'],
    ['an empty OwnerEmail', `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail> </OwnerEmail></SetProjectOwnerRequest>`, {}, 400, 'INVALID_REQUEST'],
    ['no namespace', '<SetProjectOwnerRequest><OwnerEmail>a@example.org</OwnerEmail></SetProjectOwnerRequest>', {}, 400, 'WRONG_NAMESPACE'],
    ['text/plain', 'a@example.org', { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['no body', undefined, {}, 400, 'INVALID_REQUEST'],
  ];
  for (const [what, body, headers, status, code] of badBodies) {
    it(`refuses ${what} with ${status} ${code} and changes nothing`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      assertError(h, await h.request({ method: 'POST', url: ownerUrl(projectId), body, headers }), status, code);
      assert.deepEqual(await projectState(h, projectId), before);
    });
  }

  it('reads a JSON request and answers in JSON with the values of the XML answer', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    const body = JSON.stringify({ OwnerEmail: `  ${h.who.editor.email.toUpperCase()} ` });
    const json = await h.request({ method: 'POST', url: ownerUrl(projectId), body, headers: JSON_BODY });
    assert.equal(json.headers.etag, `"${projectId}.1.json"`);
    const xml = await h.request({ method: 'POST', url: ownerUrl(projectId), body: ownerRequest(h.who.editor.email) });
    const value = assertSameAnswer(h, xml, json, SetProjectOwnerResponse);
    assert.deepEqual(value, { Owner: { Name: `User ${h.who.editor.id}`, Email: h.who.editor.email } });
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.ownerId, h.who.editor.id);
  });

  for (const [what, body] of [['a blank OwnerEmail', '{"OwnerEmail":" \\n "}'], ['no OwnerEmail', '{}'], ['an OwnerEmail list', '{"OwnerEmail":["a@example.org"]}']]) {
    it(`refuses a JSON request with ${what} with 400 INVALID_REQUEST, in JSON, and changes nothing`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      assert.match(assertJsonError(await h.request({ method: 'POST', url: ownerUrl(projectId), body, headers: JSON_BODY }), 400, 'INVALID_REQUEST'), /SetProjectOwnerRequest/);
      assert.deepEqual(await projectState(h, projectId), before);
    });
  }

  it('answers 404 NOT_FOUND for an unknown project', async () => {
    const h = harness();
    assertError(h, await h.request({ method: 'POST', url: ownerUrl('NOSUCHPROJCT'), body: ownerRequest(h.who.editor.email) }), 404, 'NOT_FOUND');
  });
});
