import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attr, authHeaders, dataRequest, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { ORGANIZATION_MATRIX, type OrganizationWorld, removeFromA, seedOrganizations } from '../support/organization-access.ts';
import { copyProjectPath, filePath, formPagePath, myProjectsPath, projectPagePath, removeProjectPath } from '../../src/web/web-paths.ts';
import { draftPath, PROGRAM, programState, sharedHarness } from './http-helpers.ts';
import { setStatus } from './workflow-helpers.ts';
import { webGet, webPost } from './web-page-helpers.ts';
import { consumeOutbox } from '../../src/domain/events/outbox-consumer.ts';
import { mailNotifier } from '../../src/domain/mail/mail-notifier.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';

// Access follows the organization on every web page of a project: a member of A sees and acts on an A project as its
// owner does; a non-member, a removed member and a member of B get the page a project they cannot read gets (404),
// find it in none of their lists, and their posts change nothing.

const PNG = Buffer.from('\x89PNG\r\n\x1a\na tiny picture', 'latin1');

forEachDialect('Organizations: access on every web page of a project', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let world: OrganizationWorld;
  let projectId = '';
  // A draft of A's started by the member who is removed before the tests run.
  let removedOwns = '';
  const identity = (h: HttpHarness, who: (typeof ORGANIZATION_MATRIX)[number]['who'] | 'owner'): Identity =>
    who === 'owner' ? h.who.applicant : who === 'member' ? h.who.otherApplicant : world.ids[who];

  before(async () => {
    const h = harness();
    world = await seedOrganizations(h.store, { admin: IDS.applicant, member: h.who.otherApplicant.id });
    // A draft of A's with a file, started by A's admin (the harness's applicant) for the organization.
    const created = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`, as: 'applicant' });
    assert.equal(created.statusCode, 200, created.body);
    projectId = attr(created.body, 'Project', 'ProjectId')!;
    const saved = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ [IDS.kw]: '7.5' }), headers: { 'content-type': 'application/xml' } });
    assert.equal(saved.statusCode, 200, saved.body);
    const upload = await h.app.inject({
      method: 'POST', url: `${PROGRAM}/Projects/${projectId}/Forms/application/Attachments/photo`, payload: PNG,
      headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="roof.png"' },
    });
    assert.equal(upload.statusCode, 200, upload.body);
    const theirs = await h.app.inject({ method: 'POST', url: `${PROGRAM}/NewProject?OrganizationId=${world.orgA}`, headers: authHeaders(world.ids.removed) });
    assert.equal(theirs.statusCode, 200, theirs.body);
    removedOwns = attr(theirs.body, 'Project', 'ProjectId')!;
    await removeFromA(h.store, world);
  });

  const pages = () => [
    ['the project page', projectPagePath(IDS.program, projectId)],
    ['the form page', formPagePath(IDS.program, projectId, IDS.form)],
    ['the file download', filePath(IDS.program, projectId, IDS.photo)],
    ['the copy page', copyProjectPath(IDS.program, projectId)],
    ['the delete or withdraw page', removeProjectPath(IDS.program, projectId)],
  ] as const;

  describe('pages', () => {
    for (const row of ORGANIZATION_MATRIX) {
      it(`${row.why}: ${row.reads ? 'every page as the owner sees it' : '404 on every page'}`, async () => {
        const h = harness();
        for (const [name, url] of pages()) {
          const owner = await webGet(h, url, identity(h, 'owner'));
          assert.equal(owner.statusCode, 200, `${name} for the owner: ${owner.body.slice(0, 200)}`);
          const res = await webGet(h, url, identity(h, row.who));
          assert.equal(res.statusCode, row.reads ? 200 : 404, `${name}: ${res.body.slice(0, 200)}`);
          if (!row.reads) assert.ok(!res.body.includes('roof.png'), `${name} shows nothing of the project`);
        }
      });

      it(`${row.why}: My projects and the home page ${row.reads ? 'list' : 'do not list'} the project`, async () => {
        const h = harness();
        for (const url of [myProjectsPath(IDS.program), '/MvcProjects/']) {
          const res = await webGet(h, url, identity(h, row.who));
          assert.equal(res.statusCode, 200, res.body.slice(0, 200));
          assert.equal(res.body.includes(projectId), row.reads, url);
        }
      });
    }
  });

  describe('mail', () => {
    it('a status move of an A project mails its owner while a member, and not an owner removed from A', async () => {
      const h = harness();
      await setStatus(h, projectId, IDS.submitted);
      await setStatus(h, removedOwns, IDS.submitted);
      while ((await consumeOutbox(h.store, mailNotifier({ ids: new RandomIdGenerator(), publicUrl: h.config.publicUrl }))) > 0);
      const to = (await h.store.mail.listMail()).filter((m) => m.kind === 'statusChanged').map((m) => m.to);
      assert.ok(to.includes(h.who.applicant.email), 'the owner, a member of A, is told');
      assert.ok(!to.includes(world.ids.removed.email), 'the removed member is told nothing of a project they can no longer read');
    });
  });

  describe('posts', () => {
    for (const row of ORGANIZATION_MATRIX.filter((r) => !r.reads)) {
      it(`${row.why}: saving the form, copying, deleting and withdrawing are refused and change nothing`, async () => {
        const h = harness();
        const who = identity(h, row.who);
        const before = await programState(h);
        const refused: [string, string, Record<string, string>][] = [
          ['save the form', formPagePath(IDS.program, projectId, IDS.form), { [IDS.kw]: '9', action: 'save' }],
          ['copy', '/MvcProjects/CopyProject', { ProgramId: IDS.program, ProjectId: projectId, FormId: IDS.form }],
          ['delete', '/MvcProjects/DeleteDraft', { ProgramId: IDS.program, ProjectId: projectId }],
          ['withdraw', '/MvcProjects/WithdrawProject', { ProgramId: IDS.program, ProjectId: projectId }],
        ];
        for (const [name, url, form] of refused) {
          const res = await webPost(h, url, who, form);
          assert.equal(res.statusCode, 404, `${name}: ${res.statusCode} ${res.body.slice(0, 200)}`);
        }
        assert.deepEqual(await programState(h), before);
      });
    }

    it('a member of A copies the A project: the copy is a draft of A\'s, which the owner reads too', async () => {
      const h = harness();
      const res = await webPost(h, '/MvcProjects/CopyProject', h.who.otherApplicant, { ProgramId: IDS.program, ProjectId: projectId, FormId: IDS.form });
      assert.equal(res.statusCode, 303, res.body.slice(0, 300));
      const copy = /(?:\/Projects\/|ProjectId=)([A-Z0-9]+)/.exec(String(res.headers.location))?.[1];
      assert.ok(copy && copy !== projectId, String(res.headers.location));
      const stored = await h.store.projects.getProject(IDS.program, copy);
      assert.equal(stored?.ownerId, h.who.otherApplicant.id);
      assert.equal(stored?.organizationId, world.orgA);
      assert.equal((await webGet(h, projectPagePath(IDS.program, copy), h.who.applicant)).statusCode, 200);
      assert.equal((await webGet(h, projectPagePath(IDS.program, copy), world.ids.orgB)).statusCode, 404);
    });
  });
});
