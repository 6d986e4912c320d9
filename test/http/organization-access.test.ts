import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, attr, attrs, authHeaders, dataRequest, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { ORGANIZATION_MATRIX, type OrganizationSubject, type OrganizationWorld, removeFromA, seedOrganizations } from '../support/organization-access.ts';
import { API, COMPLETE, draftPath, PROGRAM, projectPath, sharedHarness, submitPath } from './http-helpers.ts';
import { addNote, noteRequest } from './inquiry-helpers.ts';

// Access follows the organization, on every operation of the API: the OpenAPI description is walked, so an operation
// added later is covered without a change here. A member of A answers exactly as the project's owner does; a
// non-member, a removed member and a member of B exactly as another applicant does on a project that is not theirs
// (404, as for any unreadable project), and change nothing.

type Json = Record<string, Record<string, { operationId: string; requestBody?: unknown }>>;

const PNG = Buffer.from('\x89PNG\r\n\x1a\na tiny picture', 'latin1');

// What each operation with a body is sent (refused requests must be refused for access, not for a bad body).
function bodyOf(operationId: string): { payload: string | Buffer; type: string } | undefined {
  const xml = (payload: string) => ({ payload, type: 'application/xml' });
  switch (operationId) {
    case 'SetProjectData': case 'SetProjectDraftData': return xml(dataRequest({ [IDS.name]: 'Changed by someone' }));
    case 'SetProjectOwner': return xml(`<SetProjectOwnerRequest xmlns="http://service.powerclerk.com/api/v1/"><OwnerEmail>${IDS.admin.toLowerCase()}@example.org</OwnerEmail></SetProjectOwnerRequest>`);
    case 'SetInquiryNote': return xml(noteRequest({ subject: 'Hello', text: 'A note' }));
    case 'SetProjectAttachment': return { payload: PNG, type: 'image/png' };
    default: return undefined;
  }
}

forEachDialect('Organizations: access on every API operation', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let world: OrganizationWorld;
  const as = (h: HttpHarness, subject: OrganizationSubject | 'owner' | 'otherApplicant'): Identity => {
    if (subject === 'owner') return h.who.applicant;
    if (subject === 'member' || subject === 'otherApplicant') return h.who.otherApplicant;
    return world.ids[subject];
  };
  const send = (h: HttpHarness, who: Identity, method: string, url: string, body?: { payload: string | Buffer; type: string }): Promise<LightMyRequestResponse> =>
    h.app.inject({
      method: method as 'GET', url, headers: { ...authHeaders(who), ...(body ? { 'content-type': body.type, 'content-disposition': 'attachment; filename="a.png"' } : {}) },
      ...(body ? { payload: body.payload } : {}),
    });

  // A project with a draft, a file, a submitted form and a question: every operation finds something to act on.
  async function richProject(h: HttpHarness, organizationId?: string): Promise<{ projectId: string; attachmentId: string; threadId: string }> {
    h.clock.advance();
    const query = organizationId ? `?OrganizationId=${organizationId}` : '';
    const created = await send(h, h.who.applicant, 'POST', `${PROGRAM}/NewProject${query}`);
    assert.equal(created.statusCode, 200, created.body);
    const projectId = attr(created.body, 'Project', 'ProjectId')!;
    const draft = await send(h, h.who.applicant, 'POST', draftPath(projectId), { payload: dataRequest({ ...COMPLETE, size: [...COMPLETE.size] }), type: 'application/xml' });
    assert.equal(draft.statusCode, 200, draft.body);
    const upload = await send(h, h.who.applicant, 'POST', `${projectPath(projectId)}/Forms/application/Attachments/photo`, { payload: PNG, type: 'image/png' });
    assert.equal(upload.statusCode, 200, upload.body);
    const submitted = await send(h, h.who.applicant, 'POST', submitPath(projectId));
    assert.equal(submitted.statusCode, 200, submitted.body);
    const { threadId } = await addNote(h, projectId, { subject: 'A question', text: 'Please check.', visible: true });
    return { projectId, attachmentId: attr(upload.body, 'Attachment', 'AttachmentId') ?? attr(upload.body, 'AttachmentMetadata', 'AttachmentId') ?? 'NOSUCHATTACH', threadId };
  }

  function urlOf(path: string, p: { projectId: string; attachmentId: string; threadId: string }): string {
    return path.replace('{ProgramId}', 'solar').replace('{ProjectId}', p.projectId).replace('{FormId}', 'application')
      .replace('{AttachmentId}', path.includes('/Forms/') ? 'photo' : p.attachmentId).replace('{ThreadId}', p.threadId)
      .replace('{Version}', '1').replace('{DeadlineId}', 'NOSUCHDEADLN');
  }

  async function operations(h: HttpHarness): Promise<{ method: string; path: string; operationId: string }[]> {
    const spec = JSON.parse((await h.request({ method: 'GET', url: '/openapi.json', as: null })).body) as { paths: Json };
    return Object.entries(spec.paths).filter(([path]) => path.includes('{ProjectId}'))
      .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, operationId: op.operationId })));
  }

  before(async () => {
    world = await seedOrganizations(harness().store, { admin: IDS.applicant, member: harness().who.otherApplicant.id });
  });

  it('a member of A reads an A project before being removed, and nothing of it after (same credentials)', async () => {
    const h = harness();
    const { projectId } = await richProject(h, world.orgA);
    const url = `${projectPath(projectId)}/Forms/application/Data`;
    assert.equal((await send(h, world.ids.removed, 'GET', url)).statusCode, 200);
    await removeFromA(h.store, world);
    const after = await send(h, world.ids.removed, 'GET', url);
    assert.equal(after.statusCode, 404, after.body);
  });

  it('every project operation: members answer as the owner, everyone else as a stranger, and changes nothing', async () => {
    const h = harness();
    const ops = await operations(h);
    assert.ok(ops.length >= 20, `only ${ops.length} project operations found`);
    for (const op of ops) {
      const body = bodyOf(op.operationId);
      // Parity with the owner: fresh projects, so that one's change does not decide the other's answer.
      const [mine, theirs] = [await richProject(h, world.orgA), await richProject(h, world.orgA)];
      const owner = await send(h, as(h, 'owner'), op.method, urlOf(op.path, mine), body);
      const member = await send(h, as(h, 'member'), op.method, urlOf(op.path, theirs), body);
      assert.equal(member.statusCode, owner.statusCode, `${op.operationId}: member ${member.statusCode} vs owner ${owner.statusCode}\n${member.body.slice(0, 400)}`);
      // Parity with a stranger on a personal project of the applicant's.
      const personal = await richProject(h);
      const stranger = await send(h, as(h, 'otherApplicant'), op.method, urlOf(op.path, personal), body);
      assert.ok(stranger.statusCode >= 400, `${op.operationId}: another applicant got ${stranger.statusCode}`);
      const target = await richProject(h, world.orgA);
      const before = await h.store.projects.getProject(IDS.program, target.projectId);
      const draftBefore = await h.store.projects.getDraft(target.projectId, IDS.form);
      for (const row of ORGANIZATION_MATRIX.filter((r) => !r.reads)) {
        const res = await send(h, as(h, row.who), op.method, urlOf(op.path, target), body);
        assert.equal(res.statusCode, stranger.statusCode, `${op.operationId} as ${row.who} (${row.why}): ${res.statusCode}, a stranger gets ${stranger.statusCode}\n${res.body.slice(0, 400)}`);
      }
      assert.deepEqual(await h.store.projects.getProject(IDS.program, target.projectId), before, `${op.operationId} changed the project`);
      assert.deepEqual(await h.store.projects.getDraft(target.projectId, IDS.form), draftBefore, `${op.operationId} changed the draft`);
    }
  });

  it('lists, searches and looks up by number: A projects for members of A only', async () => {
    const h = harness();
    const { projectId } = await richProject(h, world.orgA);
    const number = attr((await send(h, h.who.applicant, 'GET', `${projectPath(projectId)}/Forms/application/Data`)).body, 'Project', 'ProjectNumber')!;
    const byNumber = `<ProjectByNumberRequest xmlns="http://service.powerclerk.com/api/v1/"><Project ProjectNumber="${number}"/></ProjectByNumberRequest>`;
    const byData = '<ProjectByDataRequest xmlns="http://service.powerclerk.com/api/v1/"><DataFields><Field Id="kw" Content="1" Operator="gt"/></DataFields></ProjectByDataRequest>';
    for (const row of [{ who: 'owner' as const, reads: true }, ...ORGANIZATION_MATRIX]) {
      const who = as(h, row.who);
      const listed = attrs((await send(h, who, 'GET', `${PROGRAM}/Projects`)).body, 'Project', 'ProjectId');
      const found = attrs((await send(h, who, 'POST', `${PROGRAM}/Projects/ByNumber`, { payload: byNumber, type: 'application/xml' })).body, 'Project', 'ProjectId');
      const searched = attrs((await send(h, who, 'POST', `${PROGRAM}/Projects/ByData`, { payload: byData, type: 'application/xml' })).body, 'Project', 'ProjectId');
      for (const [what, ids] of [['GetProjects', listed], ['GetProjectsByNumber', found], ['GetProjectsByData', searched]] as const) {
        assert.equal(ids.includes(projectId), row.reads, `${what} as ${row.who}`);
      }
    }
  });

  it('the change feed: events of A projects reach members of A only', async () => {
    const h = harness();
    const { projectId } = await richProject(h, world.orgA);
    for (const row of [{ who: 'owner' as const, reads: true }, ...ORGANIZATION_MATRIX]) {
      for (const url of [`${API}/Events?after=0&limit=1000`, `${API}/Events?after=0&limit=1000&ProgramId=solar`]) {
        const res = await send(h, as(h, row.who), 'GET', url);
        assert.equal(res.statusCode, 200, res.body);
        assert.equal(res.body.includes(projectId), row.reads, `${url} as ${row.who}`);
      }
    }
  });

  it('CreateNewProject for an organization: members only (404 otherwise, nothing created); a bad id is 400', async () => {
    const h = harness();
    const count = async () => (await h.store.projects.listProjects({ programId: IDS.program, limit: 100_000, offset: 0 })).length;
    const n = await count();
    assertError(h, await send(h, world.ids.nonMember, 'POST', `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`), 404, 'NOT_FOUND');
    assertError(h, await send(h, world.ids.orgB, 'POST', `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`), 404, 'NOT_FOUND');
    assertError(h, await send(h, world.ids.removed, 'POST', `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`), 404, 'NOT_FOUND');
    assertError(h, await send(h, h.who.applicant, 'POST', `${PROGRAM}/NewProject?OrganizationId=${encodeURIComponent('bad id!')}`), 400, 'INVALID_PARAMETER');
    assert.equal(await count(), n);
    const created = await send(h, h.who.otherApplicant, 'POST', `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`);
    assert.equal(created.statusCode, 200, created.body);
    const stored = await h.store.projects.getProject(IDS.program, attr(created.body, 'Project', 'ProjectId')!);
    assert.equal(stored?.organizationId, world.orgA);
    assert.equal(stored?.ownerId, h.who.otherApplicant.id);
  });
});
