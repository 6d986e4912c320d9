import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { StatusListResponse } from '../../src/wire/documents/catalog.ts';
import { EventsResponse } from '../../src/wire/documents/events.ts';
import { ProjectStatusHistoryResponse, StatusSetResponse } from '../../src/wire/documents/workflow.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, type HttpHarness, NS } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, JSON_BODY, xmlAnswerValue } from '../support/json-answers.ts';
import { WF, workflowProgramRows } from '../support/workflow-fixtures.ts';
import { API, createSubmitted, PROGRAM } from './http-helpers.ts';
import { elements, setStatus, sharedWorkflowHarness, urls, workflowState } from './workflow-helpers.ts';

// SetProjectStatus with a reason and a message (apas): a move into a status that requires a reason is refused without
// one, or with one the status does not list, and changes nothing; a given reason and message are kept in the history,
// shown by GetProjectStatusHistory (XML and JSON), and the change feed carries the reason's key but never the message.

const INCOMPLETE = { customId: 'Incomplete', name: 'Documents missing' };

/** The workflow fixture with reasons: back to Draft (a return for correction) needs one; Approved lists one it may give. */
async function seedReasons(h: HttpHarness): Promise<void> {
  const rows = workflowProgramRows(Date.now());
  rows.statuses[0] = { ...rows.statuses[0]!, reasons: [INCOMPLETE, { customId: 'Unsigned', name: 'Not signed' }], reasonRequired: true };
  rows.statuses[2] = { ...rows.statuses[2]!, reasons: [{ customId: 'Fast', name: 'Fast track' }] };
  await h.store.transaction((tx) => tx.programs.saveProgramDefinition(rows));
}

function statusBody(statusRef: string, reasonId?: string, message?: string): string {
  const reason = reasonId === undefined ? '' : ` ReasonId="${reasonId}"`;
  return message === undefined
    ? `<SetProjectStatusRequest xmlns="${NS}" StatusId="${statusRef}"${reason}/>`
    : `<SetProjectStatusRequest xmlns="${NS}" StatusId="${statusRef}"${reason}><Message>${message}</Message></SetProjectStatusRequest>`;
}

const message = (res: LightMyRequestResponse) => (attr(res.body, 'ErrorResponse', 'Message') ?? '').replaceAll('&quot;', '"').replaceAll('&apos;', "'");

forEachDialect('status reasons', ({ dialect }) => {
  describe('SetProjectStatus with ReasonId and Message', () => {
    const harness = sharedWorkflowHarness(dialect);
    before(async () => {
      await seedReasons(harness());
    });

    const refusals = [
      { label: 'no reason where the status requires one', body: statusBody('draft'), pattern: /A move to "Draft" needs a reason \(ReasonId\): one of Incomplete \(Documents missing\), Unsigned \(Not signed\)\./ },
      { label: 'a blank reason with a message', body: statusBody('draft', ' ', 'See the list'), pattern: /attribute 'ReasonId'.*minimum length/ },
      { label: 'a reason the status does not list', body: statusBody('draft', 'Fast'), pattern: /"Fast" is not a reason of status "Draft"; its reasons are Incomplete \(Documents missing\), Unsigned \(Not signed\)\./ },
      { label: 'a reason in the wrong letter case', body: statusBody('draft', 'incomplete'), pattern: /"incomplete" is not a reason of status "Draft"/ },
    ];
    for (const row of refusals) {
      it(`refuses ${row.label} with 400 INVALID_REQUEST and changes nothing`, async () => {
        const h = harness();
        const { projectId } = await createSubmitted(h, 'applicant');
        const before = await workflowState(h, projectId);
        h.clock.advance();
        const res = await h.request({ method: 'POST', url: urls.status(projectId), body: row.body });
        assertError(h, res, 400, 'INVALID_REQUEST');
        assert.match(message(res), row.pattern);
        assert.deepEqual(await workflowState(h, projectId), before);
      });
    }

    it('refuses a reason for a status that lists none, in JSON too, and changes nothing', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const before = await workflowState(h, projectId);
      await setStatus(h, projectId, 'approved');
      const approved = await workflowState(h, projectId);
      assert.notDeepEqual(approved, before);
      const submittedOnly = await createSubmitted(h, 'applicant');
      const state = await workflowState(h, submittedOnly.projectId);
      const res = await h.request({ method: 'POST', url: urls.status(submittedOnly.projectId), headers: JSON_BODY, body: JSON.stringify({ StatusId: 'approved', ReasonId: 'Incomplete' }) });
      assert.match(assertJsonError(res, 400, 'INVALID_REQUEST'), /"Incomplete" is not a reason of status "Approved"; its reasons are Fast \(Fast track\)/);
      assert.deepEqual(await workflowState(h, submittedOnly.projectId), state);
      const none = await h.request({ method: 'POST', url: urls.status(submittedOnly.projectId), headers: JSON_BODY, body: JSON.stringify({ StatusId: 'submitted', ReasonId: 'Fast' }) });
      assert.match(assertJsonError(none, 400, 'INVALID_REQUEST'), /Status "Submitted" lists no reasons; send the move without ReasonId\./);
      assert.deepEqual(await workflowState(h, submittedOnly.projectId), state);
    });

    it('keeps the reason and message in the history, shows them in XML and JSON, and the feed carries only the reason key', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      h.clock.advance();
      const text = 'Please sign page 2 &amp; upload the plan.\nThank you.';
      const res = await h.request({ method: 'POST', url: urls.status(projectId), body: statusBody('draft', 'Incomplete', text) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'StatusSetResponse');
      const history = await h.store.projects.getHistory(projectId);
      assert.deepEqual([history[0]!.statusId, history[0]!.reasonId, history[0]!.message], [IDS.draft, 'Incomplete', 'Please sign page 2 & upload the plan.\nThank you.']);
      assert.equal(history[1]!.reasonId, undefined, 'a move without a reason keeps none');

      const xml = await h.request({ method: 'GET', url: urls.history(projectId) });
      assertValidXml(h, xml, 'ProjectStatusHistoryResponse');
      assert.deepEqual(elements(xml.body, 'Status').map((s) => [s.StatusId, s.ReasonId, s.Reason]), [[IDS.draft, 'Incomplete', 'Documents missing'], [IDS.submitted, undefined, undefined], [IDS.draft, undefined, undefined]]);
      const json = await h.request({ method: 'GET', url: urls.history(projectId), headers: JSON_ANSWER });
      const value = assertJsonAnswer(json, ProjectStatusHistoryResponse);
      assert.deepEqual(value, xmlAnswerValue(h, xml, ProjectStatusHistoryResponse));
      assert.equal(value.Project.StatusHistory.Status[0]!.Message, 'Please sign page 2 & upload the plan.\nThank you.');

      const events = await h.request({ method: 'GET', url: `${API}/Events?type=project.status_changed&limit=1000`, headers: JSON_ANSWER });
      const mine = assertJsonAnswer(events, EventsResponse).Event.filter((e) => e.ProjectId === projectId);
      assert.deepEqual(mine.map((e) => [e.ToStatusId, e.ReasonId]), [[IDS.submitted, undefined], [IDS.draft, 'Incomplete']]);
      assert.doesNotMatch(events.body, /Please sign/, 'the message stays out of the feed');
      const audit = await h.store.audit.list({ projectId });
      assert.doesNotMatch(JSON.stringify(audit), /Please sign/, 'and out of the audit log');
      assert.ok(audit.some((a) => a.action === 'project.status.set' && (a.detail as { reasonId?: string }).reasonId === 'Incomplete'));
    });

    it('takes a reason and message in JSON, and an optional reason may be left out', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: urls.status(projectId), headers: JSON_BODY, body: JSON.stringify({ StatusId: 'draft', ReasonId: 'Unsigned', Message: 'Sign it' }) });
      assertJsonAnswer(res, StatusSetResponse);
      await setStatus(h, projectId, IDS.submitted);
      await setStatus(h, projectId, WF.approved);
      const history = await h.store.projects.getHistory(projectId);
      assert.deepEqual(history.slice(0, 3).map((e) => [e.statusId, e.reasonId ?? null, e.message ?? null]),
        [[WF.approved, null, null], [IDS.submitted, null, null], [IDS.draft, 'Unsigned', 'Sign it']]);
    });

    it('GetStatusList lists each status\'s reasons and whether a move must give one, in XML and JSON', async () => {
      const h = harness();
      const xml = await h.request({ method: 'GET', url: `${PROGRAM}/Statuses` });
      assertValidXml(h, xml, 'StatusListResponse');
      assert.deepEqual(elements(xml.body, 'Reasons'), [{ Required: 'true' }, { Required: 'false' }]);
      assert.deepEqual(elements(xml.body, 'Reason'), [{ ReasonId: 'Incomplete', Name: 'Documents missing' }, { ReasonId: 'Unsigned', Name: 'Not signed' }, { ReasonId: 'Fast', Name: 'Fast track' }]);
      const json = await h.request({ method: 'GET', url: `${PROGRAM}/Statuses`, headers: JSON_ANSWER });
      const value = assertJsonAnswer(json, StatusListResponse);
      assert.deepEqual(value, xmlAnswerValue(h, xml, StatusListResponse));
      assert.deepEqual(value.Status.map((s) => s.Reasons?.Reason.map((r) => r.ReasonId) ?? null), [['Incomplete', 'Unsigned'], null, ['Fast']]);
    });

    it('refuses a message longer than 4000 characters', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const before = await workflowState(h, projectId);
      const res = await h.request({ method: 'POST', url: urls.status(projectId), headers: JSON_BODY, body: JSON.stringify({ StatusId: 'draft', ReasonId: 'Unsigned', Message: 'x'.repeat(4001) }) });
      assert.equal(res.statusCode, 400, res.body);
      assert.deepEqual(await workflowState(h, projectId), before);
    });
  });
});
