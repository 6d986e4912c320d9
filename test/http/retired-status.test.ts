import assert from 'node:assert/strict';
import { it } from 'node:test';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { sampleProgram } from '../cli/sample-program.ts';
import { forEachDialect } from '../support/databases.ts';
import { assertError, assertValidXml, attr, authHeaders, dataRequest, type HttpHarness } from '../support/http-harness.ts';
import { API, projectState, slowHarness } from './http-helpers.ts';
import { elementWith, statusRequest } from './workflow-helpers.ts';
import { programCheckers } from '../../src/domain/wiring/program-checkers.ts';

// A status (or field) that `apas program import` retired stays in the history (and values) of the projects that
// went through it: every answer that shows them still names it.

const PV = `${API}/Programs/PV`;

/** Imports a program file into the harness's agency (acme), as `apas program import` does. */
async function importFile(h: HttpHarness, program: ReturnType<typeof sampleProgram>): Promise<string> {
  const report = await importProgram({ store: h.store, clock: h.clock, ids: new RandomIdGenerator(), checkers: programCheckers() }, 'acme', validateProgramFile(program));
  return report.programId;
}

/** The sample program without the status "Review" (In review) and the field "Size" (System size). */
function withoutReviewAndSize(): ReturnType<typeof sampleProgram> {
  const program = sampleProgram();
  program.statuses.splice(1, 1);
  program.statuses[0]!.next = ['Approved', 'Rejected'];
  program.fields.splice(1, 1);
  program.forms[0]!.leadsTo = 'Approved';
  program.forms[0]!.fields = [{ field: 'Customer', required: true }, 'Make', 'Account'];
  return program;
}

async function ok(h: HttpHarness, method: 'GET' | 'POST', url: string, body?: string): Promise<string> {
  h.clock.advance();
  const res = await h.request({ method, url, as: 'admin', body });
  assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
  return res.body;
}

forEachDialect('HTTP answers about statuses and fields an import retired', ({ open }) => {
  it('shows a retired status in the landing page, the history, the export and GetProjects, and a retired field\'s value in GetAllProjectData', async () => {
    const { h } = await slowHarness(open);
    try {
      const programId = await importFile(h, sampleProgram());
      const projectId = attr(await ok(h, 'POST', `${PV}/NewProject`), 'Project', 'ProjectId')!;
      const project = `${PV}/Projects/${projectId}`;
      await ok(h, 'POST', `${project}/Forms/Apply/Data`, dataRequest({ Customer: 'Jane Doe', Size: '5' }));
      await ok(h, 'POST', `${project}/Status`, statusRequest('Review'));
      await ok(h, 'POST', `${project}/Status`, statusRequest('Approved'));
      await importFile(h, withoutReviewAndSize());
      const model = await h.store.programs.loadProgramModel((await h.store.programs.findProgram(programId))!);
      assert.ok(!model.statuses.some((s) => s.customId === 'Review') && !model.fields.some((f) => f.customId === 'Size'), 'Review and Size are retired');

      const page = await h.app.inject({
        method: 'GET', url: `/MvcProjects/LandingPage?ProgramId=${programId}&ProjectId=${projectId}`,
        headers: { authorization: authHeaders(h.who.admin).authorization! },
      });
      assert.equal(page.statusCode, 200, page.body);
      assert.match(page.body, /In review/);

      const history = await h.request({ method: 'GET', url: `${project}/StatusHistory`, as: 'admin' });
      assert.equal(history.statusCode, 200, history.body);
      assertValidXml(h, history);
      const review = elementWith(history.body, 'Status', 'Name', 'In review');
      assert.equal(attr(review, 'Status', 'CustomId'), 'Review');

      const exported = await h.request({ method: 'GET', url: `${project}/Export?version=2`, as: 'admin' });
      assert.equal(exported.statusCode, 200, exported.body);
      assertValidXml(h, exported, 'ProjectExportDataGetResponseV2');
      assert.match(exported.body, /In review/);

      const all = await h.request({ method: 'GET', url: `${project}/Data`, as: 'admin' });
      assert.equal(all.statusCode, 200, all.body);
      assertValidXml(h, all, 'AllProjectDataResponse');
      const size = elementWith(all.body, 'DataField', 'CustomId', 'Size');
      assert.equal(attr(size, 'DataField', 'Name'), 'System size');
      assert.equal(attr(size, 'DataField', 'Value'), '5');

      const listed = await h.request({ method: 'GET', url: `${PV}/Projects?version=2`, as: 'admin' });
      assert.equal(listed.statusCode, 200, listed.body);
      assert.equal(attr(listed.body, 'Project', 'Status'), 'Approved');
    } finally {
      await h.close();
    }
  });

  it('refuses SetProjectStatus with 409 CONFLICT when an import retires the target status between its read and its write', async () => {
    const { h, setBefore } = await slowHarness(open);
    try {
      await importFile(h, sampleProgram());
      const projectId = attr(await ok(h, 'POST', `${PV}/NewProject`), 'Project', 'ProjectId')!;
      let changed: Awaited<ReturnType<typeof projectState>> | undefined;
      setBefore(async () => {
        h.clock.advance();
        await importFile(h, withoutReviewAndSize());
        changed = await projectState(h, projectId);
      });
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: `${PV}/Projects/${projectId}/Status`, as: 'admin', body: statusRequest('Review') });
      assertError(h, res, 409, 'CONFLICT');
      assert.ok(changed, 'the import ran between the read and the write');
      assert.deepEqual(await projectState(h, projectId), changed, 'the refused status change changed nothing');
    } finally {
      await h.close();
    }
  });
});
