import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { Automation } from '../../src/model/automation.ts';
import { ProjectAutomationRunsResponse } from '../../src/wire/documents/automations.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, authHeaders, type HttpHarness, type Identity, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { roleWith, roleWithout, seedProgramRoles } from '../support/program-roles.ts';
import { workflowProgramRows } from '../support/workflow-fixtures.ts';
import { createProject, createSubmitted, projectPath } from './http-helpers.ts';
import { sharedWorkflowHarness } from './workflow-helpers.ts';

// GetProjectAutomationRuns (docs/interface.md): what the program's automations did on a project, skipped actions and
// their reasons included — what the review page shows, for staff (privilege readProjects), in XML and JSON.

const when = { formId: null, statusId: null, fieldId: null, attachmentId: null, approval: null, by: null } as const;
const submittedWhen = { ...when, trigger: 'form.submitted' } as const;

/** On every submission: one automation runs, one stops at an action that cannot run, one's condition is not met. */
export const RUNS_AUTOMATIONS: Automation[] = [
  { customId: 'tag-it', name: 'Tell integrations', when: submittedWhen, if: null, actions: [{ do: 'emitEvent', name: 'submitted' }] },
  {
    customId: 'hand-over', name: 'Hand over to a colleague who left', when: submittedWhen, if: null,
    actions: [{ do: 'assign', user: 'nobody@example.org', role: null, pick: null }, { do: 'emitEvent', name: 'handed-over' }],
  },
  { customId: 'huge', name: 'Huge systems', when: submittedWhen, if: 'kw > 900.0', actions: [{ do: 'emitEvent', name: 'huge' }] },
];

const runsPath = (projectId: string) => `${projectPath(projectId)}/AutomationRuns`;

forEachDialect('GetProjectAutomationRuns', ({ dialect }) => {
  const harness = sharedWorkflowHarness(dialect);
  let roles: Record<string, Identity>;
  before(async () => {
    const rows = workflowProgramRows();
    roles = await seedProgramRoles(harness().store, { ...rows, program: { ...rows.program, automations: RUNS_AUTOMATIONS } }, [
      { customId: 'with-readProjects', privileges: roleWith('readProjects') },
      { customId: 'without-readProjects', privileges: roleWithout('readProjects') },
    ]);
  });
  const get = (h: HttpHarness, projectId: string, as: Identity, headers: Record<string, string> = {}) => {
    h.clock.advance();
    return h.app.inject({ method: 'GET', url: runsPath(projectId), headers: { ...authHeaders(as), ...headers } });
  };

  describe('what a submission\'s automations did', () => {
    it('lists each run in the order they ran: ran, partly ran with the skipped actions and why, skipped for its condition (XML)', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const res = await get(h, projectId, h.who.reader);
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectAutomationRunsResponse');
      const project = await h.store.projects.getProject(IDS.program, projectId);
      assert.equal(res.headers.etag, `"${projectId}.${project!.version}"`, 'the project\'s ETag');
      assert.equal(attr(res.body, 'Project', 'ProjectId'), projectId);
      assert.deepEqual(attrs(res.body, 'AutomationRun', 'AutomationId'), ['tag-it', 'hand-over', 'huge']);
      assert.deepEqual(attrs(res.body, 'AutomationRun', 'Outcome'), ['ran', 'partly ran', 'skipped']);
      assert.deepEqual(attrs(res.body, 'AutomationRun', 'Depth'), ['1', '1', '1']);
      assert.match(res.body, /<AutomationRun AutomationId="huge"[^>]* Reason="the condition is not met"\/>/);
      assert.deepEqual(attrs(res.body, 'Action', 'Do'), ['emitEvent', 'assign', 'emitEvent']);
      assert.deepEqual(attrs(res.body, 'Action', 'Outcome'), ['ran', 'skipped', 'skipped']);
      assert.match(res.body, /<Action Do="assign" Outcome="skipped" Reason="no active staff member of the program has the e-mail address &quot;nobody@example\.org&quot;"\/>/);
      assert.match(res.body, /<Action Do="emitEvent" Outcome="skipped" Reason="an earlier action could not run \(assign\)"\/>/);
    });

    it('answers the same in JSON, and 304 to a client whose copy is current', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const xml = await get(h, projectId, h.who.editor);
      const json = assertJsonAnswer(await get(h, projectId, h.who.editor, JSON_ANSWER), ProjectAutomationRunsResponse);
      assert.deepEqual(json, xmlAnswerValue(h, xml, ProjectAutomationRunsResponse));
      assert.equal(json.Project.AutomationRun[1]!.Action[0]!.Reason, 'no active staff member of the program has the e-mail address "nobody@example.org"');
      const again = await get(h, projectId, h.who.editor, { 'if-none-match': String(xml.headers.etag) });
      assert.equal(again.statusCode, 304);
    });

    it('a project nothing triggered an automation on has none', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const res = await get(h, projectId, h.who.reader);
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(attrs(res.body, 'AutomationRun', 'AutomationId'), []);
    });
  });

  describe('who may read them', () => {
    const allowed: Who[] = ['admin', 'programAdmin', 'editor', 'reader'];
    const refused: Who[] = ['applicant', 'otherApplicant', 'outsider'];

    it('staff (privilege readProjects) read them; the owner applicant, other applicants and outsiders are refused 403, in XML and JSON; nothing changes', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const before = { project: await h.store.projects.getProject(IDS.program, projectId), audit: await h.store.audit.list({ projectId }) };
      for (const who of allowed) assert.equal((await get(h, projectId, h.who[who])).statusCode, 200, who);
      assert.equal((await get(h, projectId, roles['with-readProjects']!)).statusCode, 200, 'a role of the program with readProjects');
      for (const who of refused) {
        assertError(h, await get(h, projectId, h.who[who]), 403, 'FORBIDDEN');
        assertJsonError(await get(h, projectId, h.who[who], JSON_ANSWER), 403, 'FORBIDDEN');
      }
      const without = await get(h, projectId, roles['without-readProjects']!, JSON_ANSWER);
      assert.match(assertJsonError(without, 403, 'FORBIDDEN'), /GetProjectAutomationRuns needs the privilege readProjects/);
      assert.deepEqual({ project: await h.store.projects.getProject(IDS.program, projectId), audit: await h.store.audit.list({ projectId }) }, before);
    });

    it('a project that does not exist is 404', async () => {
      const h = harness();
      assertError(h, await get(h, 'NOSUCHPROJECT', h.who.reader), 404, 'NOT_FOUND');
    });
  });
});
