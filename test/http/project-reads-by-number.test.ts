import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, dataRequest } from '../support/http-harness.ts';
import { createSubmitted, dataPath, draftPath, type MatrixRow, projectPath, projectState, send, sharedHarness } from './http-helpers.ts';

// The project reads take a project number in place of the ProjectId (the commercial product's V2 reads a project by
// number): GetProjectData (submitted and draft), GetAllProjectData, GetExportProject, GetProjectStatusHistory,
// GetInquiryThreads, GetProjectDeadlines. A number of a project the caller cannot read is 404 like an unknown id; a
// reference that is one project's id and another's number is refused; writes still need the id.

forEachDialect('HTTP project reads by project number', ({ dialect }) => {
  describe('reads', () => {
    const harness = sharedHarness(dialect);
    // SOL--00001 is the applicant's project, SOL--00002 the other applicant's.
    let mine = { projectId: '', number: '' };
    let theirs = { projectId: '', number: '' };

    before(async () => {
      const h = harness();
      mine = await createSubmitted(h, 'applicant');
      theirs = await createSubmitted(h, 'otherApplicant');
      assert.deepEqual([mine.number, theirs.number], ['SOL--00001', 'SOL--00002']);
    });

    const matrix: (MatrixRow & { sees?: 'mine' })[] = [
      { who: 'admin', status: 200, sees: 'mine' },
      { who: 'reader', status: 200, sees: 'mine' },
      { who: 'applicant', status: 200, sees: 'mine' },
      { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' },
      { who: 'outsider', status: 403, code: 'FORBIDDEN' },
    ];
    for (const row of matrix) {
      it(`GetProjectData by number: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const h = harness();
        const res = await send(h, row.who, { method: 'GET', url: dataPath('SOL--00001') });
        if (row.code) return assertError(h, res, row.status, row.code);
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectDataGetResponse');
        // The answer names the project by its id, as a read by id does, and is the same answer.
        assert.equal(attr(res.body, 'Project', 'ProjectId'), mine.projectId);
        const byId = await send(h, row.who, { method: 'GET', url: dataPath(mine.projectId) });
        assert.equal(res.body.replace(/RequestTimestamp="[^"]*"/, ''), byId.body.replace(/RequestTimestamp="[^"]*"/, ''));
        assert.equal(res.headers.etag, byId.headers.etag);
      });
    }

    it('the other reads take the number too and answer about the project it names', async () => {
      const h = harness();
      for (const path of ['Data', 'Export', 'StatusHistory', 'InquiryThreads', 'Deadlines', 'Forms/application/Draft/Data']) {
        const res = await h.request({ method: 'GET', url: `${projectPath(mine.number)}/${path}` });
        assert.equal(res.statusCode, 200, `${path}: ${res.body}`);
        assert.ok(res.body.includes(mine.projectId), `${path} names the project's id: ${res.body}`);
        assert.ok(!res.body.includes(theirs.projectId), path);
      }
    });

    it('a number of a project the caller cannot read is 404 like an unknown number or id', async () => {
      const h = harness();
      for (const ref of [theirs.number, 'SOL--09999', 'NOPROJECT123']) {
        const res = await h.request({ method: 'GET', url: draftPath(ref), as: 'applicant' });
        assertError(h, res, 404, 'NOT_FOUND');
      }
      const { body } = await h.request({ method: 'GET', url: draftPath(theirs.number), as: 'applicant' });
      const unknown = await h.request({ method: 'GET', url: draftPath('SOL--09999'), as: 'applicant' });
      const same = (text: string) => text.replace(/SOL--0000\d|SOL--09999/, 'N').replace(/RequestId="[^"]*"/, '');
      assert.equal(same(body), same(unknown.body));
    });

    it('a reference that cannot be an id is 400, and one that is an id of one project and the number of another is refused', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: dataPath('SOL%20--00001') }), 400, 'INVALID_PARAMETER');
      // A project whose id reads like the other applicant's number (no generated id has a hyphen; an imported one might).
      const base = (await h.store.projects.getProject(IDS.program, mine.projectId))!;
      await h.store.transaction((tx) => tx.projects.insertProject({ ...base, id: theirs.number, number: null, version: 1 }));
      const res = await h.request({ method: 'GET', url: dataPath(theirs.number) });
      assertError(h, res, 400, 'INVALID_PARAMETER');
      assert.match(res.body, /id of one project and the number of another/);
      // By its own id the other applicant's project still reads.
      assert.equal((await h.request({ method: 'GET', url: dataPath(theirs.projectId) })).statusCode, 200);
    });

    it('writes need the id: a number in place of it changes nothing', async () => {
      const h = harness();
      const before = await projectState(h, mine.projectId);
      const res = await h.request({ method: 'POST', url: draftPath(mine.number), as: 'applicant', body: dataRequest({ name: 'Changed' }) });
      assertError(h, res, 404, 'NOT_FOUND');
      assert.deepEqual(await projectState(h, mine.projectId), before);
      // By id the same write reaches the project (and its rules: the form closed once it was submitted).
      assertError(h, await h.request({ method: 'POST', url: draftPath(mine.projectId), as: 'applicant', body: dataRequest({ name: 'Changed' }) }), 409, 'FORM_NOT_AVAILABLE');
    });
  });
});
