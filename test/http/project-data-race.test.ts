import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, dataRequest, NS } from '../support/http-harness.ts';
import { createProject, draftPath, ownerRequest, projectPath, projectState, slowHarness } from './http-helpers.ts';
import { addNote, inquiryState, postReply } from './inquiry-helpers.ts';

// Every change checks access and its rules again on the project it locked inside its transaction; a change of the
// project after the caller's first read (owner, status) must not let the write land on rules that no longer hold.

forEachDialect('HTTP SetProjectData racing other changes of the project', ({ open }) => {
  const races = [
    {
      name: 'SetProjectOwner hands the project to someone else',
      // The applicant may no longer read the project, and is told exactly what anyone without access is told.
      refused: { status: 404, code: 'NOT_FOUND' },
      change: (projectId: string, email: string) => ({ url: `${projectPath(projectId)}/Owner`, body: ownerRequest(email) }),
    },
    {
      name: 'SetProjectStatus moves it to a status where the form is not available',
      refused: { status: 409, code: 'FORM_NOT_AVAILABLE' },
      change: (projectId: string) => ({ url: `${projectPath(projectId)}/Status`, body: `<SetProjectStatusRequest xmlns="${NS}" StatusId="submitted"/>` }),
    },
  ];
  for (const race of races) {
    it(`refuses an applicant's draft write with ${race.refused.status} ${race.refused.code} when, between its first read and its transaction, ${race.name}`, async () => {
      const { h, setBefore } = await slowHarness(open);
      try {
        const projectId = await createProject(h, 'applicant');
        const change = race.change(projectId, h.who.otherApplicant.email);
        let changed: Awaited<ReturnType<typeof projectState>> | undefined;
        setBefore(async () => {
          const res = await h.request({ method: 'POST', url: change.url, as: 'admin', body: change.body });
          assert.equal(res.statusCode, 200, res.body);
          changed = await projectState(h, projectId);
        });
        h.clock.advance();
        const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ name: 'Too Late' }) });
        assertError(h, res, race.refused.status, race.refused.code);
        assert.ok(changed, 'the other change ran between the read and the write');
        assert.deepEqual(await projectState(h, projectId), changed, 'the refused draft write changed nothing');
      } finally {
        await h.close();
      }
    });
  }

  it('refuses a landing-page reply of an applicant who, between its read and its write, lost the project to another owner', async () => {
    const { h, setBefore } = await slowHarness(open);
    try {
      const projectId = await createProject(h, 'applicant');
      const { threadId } = await addNote(h, projectId, { subject: 'Roof plan', text: 'Please send the roof plan.', visible: true });
      let changed: Awaited<ReturnType<typeof inquiryState>> | undefined;
      setBefore(async () => {
        const res = await h.request({ method: 'POST', url: `${projectPath(projectId)}/Owner`, as: 'admin', body: ownerRequest(h.who.otherApplicant.email) });
        assert.equal(res.statusCode, 200, res.body);
        changed = await inquiryState(h, projectId);
      });
      h.clock.advance();
      const res = await postReply(h, 'applicant', { ProgramId: IDS.program, ProjectId: projectId, ThreadId: threadId, Text: 'Too late' });
      assert.equal(res.statusCode, 404, res.body);
      assert.ok(changed, 'the owner changed between the read and the write');
      assert.deepEqual(await inquiryState(h, projectId), changed, 'the refused reply added nothing');
    } finally {
      await h.close();
    }
  });
});
