import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { isoTimestamp } from '../../src/model/clock.ts';
import type { HistoryEntry } from '../../src/model/model.ts';
import { ProjectStatusHistoryResponse, StatusHistoryReportAsResponse, StatusSetResponse } from '../../src/wire/documents/workflow.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, JSON_BODY, xmlAnswerValue } from '../support/json-answers.ts';
import { WF } from '../support/workflow-fixtures.ts';
import {
  ADMIN_ONLY, COMPLETE, createProject, createSubmitted, rowLabel as label, PROGRAM, send, setDraft, submitPath,
} from './http-helpers.ts';
import {
  changedSince, elements, reportAsRequest, setStatus, sharedWorkflowHarness, statusRequest, urls, workflowState,
} from './workflow-helpers.ts';

// GetProjectStatusHistory:  GET  /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/StatusHistory            (admin only)
// SetProjectStatus:         POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Status                   (admin only)
//   body <SetProjectStatusRequest xmlns="…" StatusId="…"/>
// SetProjectStatusReportAs: POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/StatusHistory/ReportAs   (admin only)
//   body <SetProjectStatusHistoryReportAs xmlns="…" StatusId="…" Timestamp="…" ReportAs="normal|suppress"/>
//
// Workflow fixture: Draft (initial) → Submitted → Draft | Approved (final).


const email = (h: HttpHarness, who: Who) => h.who[who].email;

/** A history entry without its generated id. */
const entry = (e: HistoryEntry) => ({ statusId: e.statusId, changedAt: e.changedAt, changedBy: e.changedBy, reportAs: e.reportAs });

/** The error message of an error answer. */
const message = (res: LightMyRequestResponse) => (attr(res.body, 'ErrorResponse', 'Message') ?? '').replaceAll('&quot;', '"');

/** The statuses a project may move to from each status (the fixture's workflow, SubmitProject included). */
const ALLOWED: Record<string, string[]> = { [IDS.draft]: [IDS.submitted], [IDS.submitted]: [IDS.draft, WF.approved], [WF.approved]: [] };

forEachDialect('HTTP workflow', ({ dialect }) => {
  describe('GetProjectStatusHistory', () => {
    const harness = sharedWorkflowHarness(dialect);

    for (const row of ADMIN_ONLY) {
      it(`lists the applicant's project history: ${label(row)}`, async () => {
        const h = harness();
        const { projectId } = await createSubmitted(h, 'applicant');
        const before = await workflowState(h, projectId);
        const res = await send(h, row.who, { method: 'GET', url: urls.history(projectId) });
        if (row.code) assertError(h, res, row.status, row.code);
        else {
          assert.equal(res.statusCode, 200, res.body);
          assertValidXml(h, res, 'ProjectStatusHistoryResponse');
          assert.deepEqual(elements(res.body, 'Status').map((s) => s.StatusId), [IDS.submitted, IDS.draft]);
        }
        assert.deepEqual(await workflowState(h, projectId), before, 'reading the history changes nothing');
      });
    }

    it('lists every entry newest first with status ids, name, who (e-mail), when and ReportAs; a status may recur', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      await setStatus(h, projectId, 'draft', 'admin');
      await setStatus(h, projectId, IDS.submitted, 'programAdmin');
      await setStatus(h, projectId, 'approved', 'admin');
      const history = await h.store.projects.getHistory(projectId);
      assert.equal(history.length, 5);

      const res = await h.request({ method: 'GET', url: urls.history(projectId) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectStatusHistoryResponse');
      assert.deepEqual(elements(res.body, 'Project'), [{ ProjectId: projectId, ProgramId: IDS.program, ProjectNumber: number }]);
      const name: Record<string, [string, string]> = {
        [IDS.draft]: ['draft', 'Draft'], [IDS.submitted]: ['submitted', 'Submitted'], [WF.approved]: ['approved', 'Approved'],
      };
      const emails: Record<string, string> = Object.fromEntries(Object.values(h.who).map((w) => [w.id, w.email]));
      assert.deepEqual(elements(res.body, 'Status'), history.map((e) => ({
        StatusId: e.statusId, CustomId: name[e.statusId]![0], Name: name[e.statusId]![1], ChangedBy: emails[e.changedBy]!,
        Timestamp: isoTimestamp(e.changedAt), ReportAs: 'normal',
      })));
      assert.deepEqual(elements(res.body, 'Status').map((s) => [s.Name, s.ChangedBy]), [
        ['Approved', email(h, 'admin')], ['Submitted', email(h, 'programAdmin')], ['Draft', email(h, 'admin')],
        ['Submitted', email(h, 'applicant')], ['Draft', email(h, 'applicant')],
      ]);
      const times = elements(res.body, 'Status').map((s) => Date.parse(s.Timestamp!));
      assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');
    });

    it('leaves out ProjectNumber for an unsubmitted project and lists its one entry', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const res = await h.request({ method: 'GET', url: urls.history(projectId), as: 'programAdmin' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectStatusHistoryResponse');
      assert.equal(attr(res.body, 'Project', 'ProjectNumber'), undefined);
      assert.deepEqual(elements(res.body, 'Status').map((s) => [s.StatusId, s.ChangedBy]), [[IDS.draft, email(h, 'applicant')]]);
    });

    it('answers 404 NOT_FOUND for an unknown project', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: urls.history('NOSUCHPROJCT') }), 404, 'NOT_FOUND');
    });
  });

  describe('GetProjectStatusHistory in JSON', () => {
    const harness = sharedWorkflowHarness(dialect);

    it('answers in JSON with the values of the XML answer and an ETag of its own', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const json = await h.request({ method: 'GET', url: urls.history(projectId), headers: JSON_ANSWER });
      const xml = await h.request({ method: 'GET', url: urls.history(projectId) });
      const value = assertJsonAnswer(json, ProjectStatusHistoryResponse);
      assert.deepEqual(value, xmlAnswerValue(h, xml, ProjectStatusHistoryResponse));
      assert.deepEqual(value.Project.StatusHistory.Status.map((s) => [s.StatusId, s.ReportAs]), [[IDS.submitted, 'normal'], [IDS.draft, 'normal']]);
      assert.equal(json.headers.etag, String(xml.headers.etag).replace(/"$/, '.json"'), 'the JSON representation has its own strong ETag');
    });
  });

  describe('SetProjectStatus', () => {
    const harness = sharedWorkflowHarness(dialect);

    it('reads a JSON body and answers in JSON; a JSON body its schema refuses is 400 INVALID_REQUEST in JSON and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await workflowState(h, projectId);
      for (const body of ['{"StatusId":""}', '{"Status":"submitted"}', '{"StatusId":7}']) {
        const message = assertJsonError(await h.request({ method: 'POST', url: urls.status(projectId), body, headers: JSON_BODY }), 400, 'INVALID_REQUEST');
        assert.match(message, /SetProjectStatusRequest JSON Schema/);
      }
      assert.deepEqual(await workflowState(h, projectId), before);
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: urls.status(projectId), body: '{"StatusId":"  submitted "}', headers: JSON_BODY });
      const value = assertJsonAnswer(res, StatusSetResponse);
      assert.deepEqual(value.Status, { StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted', Timestamp: isoTimestamp(h.clock.now()) });
      assert.match(value.Url.Value, new RegExp(projectId));
      assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.statusId, IDS.submitted);
    });

    for (const row of ADMIN_ONLY) {
      it(`moves the applicant's project from Draft to Submitted: ${label(row)}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const before = await workflowState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: urls.status(projectId), body: statusRequest('submitted') });
        const after = await workflowState(h, projectId);
        if (row.code) {
          assertError(h, res, row.status, row.code);
          assert.deepEqual(after, before, 'a refused SetProjectStatus changes nothing');
          return;
        }
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'StatusSetResponse');
        assert.equal(after.project?.statusId, IDS.submitted);
        assert.equal(after.history.length, before.history.length + 1);
        assert.equal(after.audit[0]?.actorId, h.who[row.who as Who].id);
      });
    }

    it('numbers an unsubmitted project that staff move on, and keeps the number when it comes back to the initial status', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const numbersBefore = (await h.store.projects.listProjects({ programId: IDS.program, limit: 1000, offset: 0 })).map((p) => p.number).filter((n) => n !== null);
      h.clock.advance();
      assert.equal((await setStatus(h, projectId, 'submitted')).statusCode, 200);
      const moved = await h.store.projects.getProject(IDS.program, projectId);
      assert.match(moved?.number ?? '', /^SOL--\d{5}$/, 'a project without a number is Unsubmitted, so one moved on gets its number');
      assert.ok(!numbersBefore.includes(moved!.number ?? ''), 'the number is a new one');
      const audit = (await h.store.audit.list({ projectId, action: 'project.status.set' }))[0];
      assert.equal(audit?.detail?.['number'], moved?.number, 'the audit row records the number it gave');
      h.clock.advance();
      assert.equal((await setStatus(h, projectId, 'draft')).statusCode, 200);
      assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.number, moved?.number, 'numbers are never taken back');
    });

    it('moves the project, answers the new status and address, records one history entry and an audit row, and polling sees it', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      await setDraft(h, projectId, { kw: '3' }, 'admin');
      const { requestTimestamp: mark } = await changedSince(h, '2026-01-01');
      const before = await workflowState(h, projectId);
      const at = h.clock.advance();
      const res = await h.request({ method: 'POST', url: urls.status(projectId), body: statusRequest('approved') });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'StatusSetResponse');
      assert.deepEqual(elements(res.body, 'Status'), [{ StatusId: WF.approved, CustomId: 'approved', Name: 'Approved', Timestamp: isoTimestamp(at) }]);
      assert.equal(attr(res.body, 'Url', 'Value'), `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&amp;ProjectId=${projectId}`);

      const after = await workflowState(h, projectId);
      assert.deepEqual(after.project, {
        ...before.project!, statusId: WF.approved, statusAt: at, updatedAt: at, updatedBy: h.who.admin.id, version: before.project!.version + 1,
      }, 'status, times and version move; number, owner and assignee stay');
      assert.deepEqual(after.history.map(entry), [
        { statusId: WF.approved, changedAt: at, changedBy: h.who.admin.id, reportAs: 'normal' }, ...before.history.map(entry),
      ]);
      assert.deepEqual(after.history.slice(1), before.history, 'the earlier entries stay as they were');
      assert.deepEqual([after.drafts, after.values], [before.drafts, before.values], 'no data changes');
      assert.equal(after.audit.length, before.audit.length + 1);
      assert.deepEqual([after.audit[0]?.action, after.audit[0]?.actorId, after.audit[0]?.detail], [
        'project.status.set', h.who.admin.id, { from: IDS.submitted, to: WF.approved },
      ]);

      const poll = await h.request({ method: 'GET', url: `${PROGRAM}/Projects?changed_since=${encodeURIComponent(mark)}&version=2` });
      assertValidXml(h, poll, 'ProjectsResponseExtended');
      assert.deepEqual(elements(poll.body, 'Project').filter((p) => p.ProjectId === projectId).map((p) => [p.Status, p.StatusCustomId, p.StatusTimestamp, p.LastChangeTimestamp]), [
        ['Approved', 'approved', isoTimestamp(at), isoTimestamp(at)],
      ]);
      assert.ok(!(await changedSince(h, isoTimestamp(at))).ids.includes(projectId), 'nothing changed after the status was set');
    });

    it('takes the status by generated id and walks the workflow to its final status', async () => {
      const h = harness();
      const { projectId, number } = await createSubmitted(h, 'applicant');
      await setStatus(h, projectId, IDS.draft);
      await setStatus(h, projectId, IDS.submitted, 'programAdmin');
      const res = await setStatus(h, projectId, WF.approved);
      assertValidXml(h, res, 'StatusSetResponse');
      assert.equal(attr(res.body, 'Status', 'Name'), 'Approved');
      const project = await h.store.projects.getProject(IDS.program, projectId);
      assert.deepEqual([project?.statusId, project?.number], [WF.approved, number], 'the number stays');
      assert.deepEqual((await h.store.projects.getHistory(projectId)).map((e) => e.statusId), [WF.approved, IDS.submitted, IDS.draft, IDS.submitted, IDS.draft]);
    });

    const illegal: [string, string[], string, RegExp][] = [
      ['Draft to Approved', [], 'approved', /"Draft".*"Approved".*allowed next: Submitted\./],
      ['Draft to Draft (the current status)', [], IDS.draft, /"Draft".*"Draft".*allowed next: Submitted\./],
      ['Submitted to Submitted', ['submitted'], 'submitted', /"Submitted".*allowed next: Draft, Approved\./],
      ['Approved (final) to Draft', ['submitted', 'approved'], 'draft', /"Approved".*"Draft".*allowed next: none \(final status\)\./],
    ];
    for (const [what, path, target, names] of illegal) {
      it(`refuses ${what} with 409 TRANSITION_NOT_ALLOWED naming the allowed statuses, and changes nothing`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        for (const step of path) await setStatus(h, projectId, step);
        const before = await workflowState(h, projectId);
        h.clock.advance();
        for (const who of ['admin', 'programAdmin'] as const) {
          const res = await h.request({ method: 'POST', url: urls.status(projectId), as: who, body: statusRequest(target) });
          assertError(h, res, 409, 'TRANSITION_NOT_ALLOWED');
          assert.match(message(res), names);
        }
        assert.deepEqual(await workflowState(h, projectId), before);
      });
    }

    it('answers 404 NOT_FOUND for an unknown status (also a form or field id) or project, and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await workflowState(h, projectId);
      for (const ref of ['nosuchstatus', 'application', IDS.kw, 'Submitted', 'SUBMITTED']) {
        assertError(h, await h.request({ method: 'POST', url: urls.status(projectId), body: statusRequest(ref) }), 404, 'NOT_FOUND');
      }
      assertError(h, await h.request({ method: 'POST', url: urls.status('NOSUCHPROJCT'), body: statusRequest('submitted') }), 404, 'NOT_FOUND');
      assert.deepEqual(await workflowState(h, projectId), before);
    });

    const badBodies: [string, string | undefined, Record<string, string>, number, string][] = [
      ['malformed XML', `<SetProjectStatusRequest xmlns="${NS}" StatusId="submitted">`, {}, 400, 'MALFORMED_XML'],
      ['no namespace', '<SetProjectStatusRequest StatusId="submitted"/>', {}, 400, 'WRONG_NAMESPACE'],
      ['another namespace', statusRequest('submitted', 'http://example.org/other'), {}, 400, 'WRONG_NAMESPACE'],
      ['another root element', `<SetProjectOwnerRequest xmlns="${NS}" StatusId="submitted"/>`, {}, 400, 'INVALID_REQUEST'],
      ['no StatusId', `<SetProjectStatusRequest xmlns="${NS}"/>`, {}, 400, 'INVALID_REQUEST'],
      ['an empty StatusId', statusRequest('  '), {}, 400, 'INVALID_REQUEST'],
      ['text/plain', statusRequest('submitted'), { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['no body', undefined, {}, 400, 'INVALID_REQUEST'],
    ];
    for (const [what, body, headers, status, code] of badBodies) {
      it(`refuses ${what} with ${status} ${code} and changes nothing`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        const before = await workflowState(h, projectId);
        assertError(h, await h.request({ method: 'POST', url: urls.status(projectId), body, headers }), status, code);
        assert.deepEqual(await workflowState(h, projectId), before);
      });
    }

    it('lets exactly one of 15 parallel SetProjectStatus calls win; the others get 409 and leave no trace', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await workflowState(h, projectId);
      const at = h.clock.advance();
      const answers = await Promise.all(Array.from({ length: 15 }, (_, i) =>
        h.request({ method: 'POST', url: urls.status(projectId), as: i % 2 === 0 ? 'admin' : 'programAdmin', body: statusRequest('submitted') })));
      const won = answers.filter((r) => r.statusCode === 200);
      assert.equal(won.length, 1, answers.map((r) => r.body).join('\n'));
      assertValidXml(h, won[0]!, 'StatusSetResponse');
      for (const lost of answers.filter((r) => r.statusCode !== 200)) {
        assert.equal(lost.statusCode, 409, lost.body);
        assertValidXml(h, lost, 'ErrorResponse');
        assert.match(lost.body, /Code="(CONFLICT|TRANSITION_NOT_ALLOWED)"/);
      }
      const after = await workflowState(h, projectId);
      assert.equal(after.project?.version, before.project!.version + 1, 'changed exactly once');
      assert.deepEqual(after.history.map(entry), [
        { statusId: IDS.submitted, changedAt: at, changedBy: after.project!.updatedBy, reportAs: 'normal' }, ...before.history.map(entry),
      ], 'exactly one new entry');
      assert.equal(after.audit.filter((e) => e.action === 'project.status.set').length, 1);
    });

    it('keeps the history exact under parallel SubmitProject and SetProjectStatus calls: one entry per 200, none lost or doubled', async () => {
      const h = harness();
      for (let round = 0; round < 3; round++) {
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { name: COMPLETE.name, size: [...COMPLETE.size], kw: COMPLETE.kw });
        const before = await workflowState(h, projectId);
        h.clock.advance();
        const calls: (() => Promise<LightMyRequestResponse>)[] = [];
        for (let i = 0; i < 6; i++) {
          calls.push(() => h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' }));
          calls.push(() => h.request({ method: 'POST', url: urls.status(projectId), body: statusRequest('submitted') }));
          calls.push(() => h.request({ method: 'POST', url: urls.status(projectId), as: 'programAdmin', body: statusRequest('draft') }));
        }
        const answers = await Promise.all(calls.map((call) => call()));
        const won = answers.filter((r) => r.statusCode === 200);
        assert.ok(won.length >= 1, 'the first call to reach the database wins');
        for (const lost of answers.filter((r) => r.statusCode !== 200)) {
          assert.equal(lost.statusCode, 409, lost.body);
          assertValidXml(h, lost, 'ErrorResponse');
          assert.match(lost.body, /Code="(CONFLICT|TRANSITION_NOT_ALLOWED|FORM_NOT_AVAILABLE)"/);
        }
        const wonStatuses = won.map((r) => attr(r.body, 'CurrentStatus', 'StatusId') ?? attr(r.body, 'Status', 'StatusId')).sort();

        const after = await workflowState(h, projectId);
        const added = after.history.slice(0, after.history.length - before.history.length);
        assert.deepEqual(after.history.slice(added.length), before.history, 'the earlier entries stay');
        assert.deepEqual(added.map((e) => e.statusId).sort(), wonStatuses, 'one new entry per 200 answer, with its status');
        assert.equal(new Set(added.map((e) => e.id)).size, added.length);
        const path = [...after.history].reverse().map((e) => e.statusId);
        for (let i = 1; i < path.length; i++) assert.ok(ALLOWED[path[i - 1]!]!.includes(path[i]!), `a legal path: ${path.join(' → ')}`);
        assert.equal(after.project?.statusId, after.history[0]?.statusId, 'the current status is the newest entry');
        assert.equal(after.project?.version, before.project!.version + won.length);
        const moves = after.audit.filter((e) => e.action === 'project.status.set' || e.action === 'project.submit');
        assert.equal(moves.length, won.length, 'one audit row per 200 answer');
      }
    });
  });

  describe('SetProjectStatusReportAs', () => {
    const harness = sharedWorkflowHarness(dialect);

    /** The Timestamp GetProjectStatusHistory shows for the newest entry of a status. */
    async function shownTimestamp(h: HttpHarness, projectId: string, statusId: string): Promise<string> {
      const res = await h.request({ method: 'GET', url: urls.history(projectId) });
      assert.equal(res.statusCode, 200, res.body);
      const shown = elements(res.body, 'Status').find((s) => s.StatusId === statusId);
      assert.ok(shown?.Timestamp, res.body);
      return shown.Timestamp;
    }

    for (const row of ADMIN_ONLY) {
      it(`suppresses the Submitted entry of the applicant's project: ${label(row)}`, async () => {
        const h = harness();
        const { projectId } = await createSubmitted(h, 'applicant');
        const timestamp = await shownTimestamp(h, projectId, IDS.submitted);
        const before = await workflowState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest('submitted', timestamp, 'suppress') });
        const after = await workflowState(h, projectId);
        if (row.code) {
          assertError(h, res, row.status, row.code);
          assert.deepEqual(after, before, 'a refused SetProjectStatusReportAs changes nothing');
          return;
        }
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'StatusHistoryReportAsResponse');
        assert.deepEqual(after.history.map((e) => e.reportAs), ['suppress', 'normal']);
      });
    }

    it('changes how the entry is reported and nothing else of the history; normal sets it back', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      await setStatus(h, projectId, 'draft');
      const timestamp = await shownTimestamp(h, projectId, IDS.submitted);
      const before = await workflowState(h, projectId);
      const submitted = before.history[1]!;
      assert.equal(submitted.statusId, IDS.submitted);
      const at = h.clock.advance();

      const res = await h.request({ method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest('submitted', timestamp, 'suppress') });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'StatusHistoryReportAsResponse');
      assert.deepEqual(elements(res.body, 'Status'), [{
        StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted', ChangedBy: email(h, 'applicant'), Timestamp: timestamp, ReportAs: 'suppress',
      }], 'the entry keeps its original time and who set it');

      const after = await workflowState(h, projectId);
      assert.deepEqual(after.history, before.history.map((e) => (e.id === submitted.id ? { ...e, reportAs: 'suppress' } : e)));
      assert.deepEqual(after.project, { ...before.project!, updatedAt: at, updatedBy: h.who.admin.id, version: before.project!.version + 1 },
        'the status stays; the project counts as changed');
      assert.deepEqual([after.drafts, after.values], [before.drafts, before.values]);
      assert.equal(after.audit.length, before.audit.length + 1);
      assert.deepEqual([after.audit[0]?.action, after.audit[0]?.actorId, after.audit[0]?.detail], [
        'project.history.report_as', h.who.admin.id, { entryId: submitted.id, from: 'normal', to: 'suppress' },
      ]);

      const shown = await h.request({ method: 'GET', url: urls.history(projectId) });
      assertValidXml(h, shown, 'ProjectStatusHistoryResponse');
      assert.deepEqual(elements(shown.body, 'Status').map((s) => [s.StatusId, s.ReportAs]), [
        [IDS.draft, 'normal'], [IDS.submitted, 'suppress'], [IDS.draft, 'normal'],
      ]);

      const back = await h.request({ method: 'POST', url: urls.reportAs(projectId), as: 'programAdmin', body: reportAsRequest(IDS.submitted, timestamp, 'NORMAL') });
      assert.equal(back.statusCode, 200, back.body);
      assertValidXml(h, back, 'StatusHistoryReportAsResponse');
      assert.equal(attr(back.body, 'Status', 'ReportAs'), 'normal');
      assert.deepEqual((await workflowState(h, projectId)).history, before.history, 'back as it was');
    });

    it('matches a Timestamp without milliseconds within that second, and one with another offset', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const at = h.clock.advance(1500); // an entry at …:ss.500
      await h.request({ method: 'POST', url: urls.status(projectId), body: statusRequest('submitted') });
      h.clock.advance(500);
      assert.equal((await h.store.projects.getHistory(projectId))[0]?.changedAt, at);
      const shown = await shownTimestamp(h, projectId, IDS.submitted);
      assert.equal(shown, isoTimestamp(at));
      assert.match(shown, /\.500\+00:00$/);

      const seconds = `${shown.slice(0, 19)}+00:00`;
      const local = new Date(at - 7 * 3_600_000).toISOString().slice(0, 19) + '-07:00';
      const cases: [string, string][] = [[seconds, 'suppress'], [shown.slice(0, 19), 'normal'], [`${shown.slice(0, 19)}Z`, 'suppress'], [local, 'normal']];
      for (const [timestamp, reportAs] of cases) {
        const res = await h.request({ method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest('submitted', timestamp, reportAs) });
        assert.equal(res.statusCode, 200, `${timestamp}: ${res.body}`);
        assert.equal(attr(res.body, 'Status', 'Timestamp'), shown);
        assert.equal((await h.store.projects.getHistory(projectId))[0]?.reportAs, reportAs);
      }

      const before = await workflowState(h, projectId);
      const other = `${shown.slice(0, 19)}.400+00:00`;
      assertError(h, await h.request({ method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest('submitted', other, 'suppress') }), 404, 'NOT_FOUND');
      assert.deepEqual(await workflowState(h, projectId), before, 'milliseconds given must match exactly');
    });

    it('refuses a seconds-only Timestamp that matches two entries with 400 INVALID_REQUEST, and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      // Draft (created), Submitted and Draft again within one second.
      await h.request({ method: 'POST', url: urls.status(projectId), body: statusRequest('submitted') });
      await h.request({ method: 'POST', url: urls.status(projectId), body: statusRequest('draft') });
      const history = await h.store.projects.getHistory(projectId);
      assert.deepEqual(history.map((e) => e.statusId), [IDS.draft, IDS.submitted, IDS.draft]);
      const before = await workflowState(h, projectId);
      const seconds = `${isoTimestamp(history[0]!.changedAt).slice(0, 19)}+00:00`;
      assertError(h, await h.request({ method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest('draft', seconds, 'suppress') }), 400, 'INVALID_REQUEST');
      assert.deepEqual(await workflowState(h, projectId), before);
      const one = await h.request({ method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest('submitted', seconds, 'suppress') });
      assert.equal(one.statusCode, 200, 'the only Submitted entry of that second is found');
    });

    it('answers 404 NOT_FOUND when no entry matches (wrong time, status never set, unknown status or project) and changes nothing', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const timestamp = await shownTimestamp(h, projectId, IDS.submitted);
      const draftTime = await shownTimestamp(h, projectId, IDS.draft);
      const before = await workflowState(h, projectId);
      const later = isoTimestamp(Date.parse(timestamp) + 1000);
      const refused: [string, string][] = [['submitted', later], ['submitted', draftTime], ['approved', timestamp], ['nosuchstatus', timestamp]];
      for (const [status, time] of refused) {
        assertError(h, await h.request({ method: 'POST', url: urls.reportAs(projectId), body: reportAsRequest(status, time, 'suppress') }), 404, 'NOT_FOUND');
      }
      assertError(h, await h.request({ method: 'POST', url: urls.reportAs('NOSUCHPROJCT'), body: reportAsRequest('submitted', timestamp, 'suppress') }), 404, 'NOT_FOUND');
      assert.deepEqual(await workflowState(h, projectId), before);
    });

    it('reads a JSON body (ReportAs in any letter case) and answers in JSON; refuses ReportAs "hide" in JSON', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const timestamp = await shownTimestamp(h, projectId, IDS.submitted);
      const before = await workflowState(h, projectId);
      const refused = await h.request({ method: 'POST', url: urls.reportAs(projectId), headers: JSON_BODY, body: JSON.stringify({ StatusId: 'submitted', Timestamp: timestamp, ReportAs: 'hide' }) });
      assert.match(assertJsonError(refused, 400, 'INVALID_REQUEST'), /ReportAs/);
      assert.deepEqual(await workflowState(h, projectId), before);
      const res = await h.request({ method: 'POST', url: urls.reportAs(projectId), headers: JSON_BODY, body: JSON.stringify({ StatusId: 'submitted', Timestamp: timestamp, ReportAs: 'Suppress' }) });
      assert.deepEqual(assertJsonAnswer(res, StatusHistoryReportAsResponse).Status, {
        StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted', ChangedBy: email(h, 'applicant'), Timestamp: timestamp, ReportAs: 'suppress',
      });
    });

    const badBodies: [string, (timestamp: string) => string | undefined, number, string][] = [
      ['ReportAs="hide"', (t) => reportAsRequest('submitted', t, 'hide'), 400, 'INVALID_REQUEST'],
      ['an empty ReportAs', (t) => reportAsRequest('submitted', t, ''), 400, 'INVALID_REQUEST'],
      ['no ReportAs', (t) => `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="submitted" Timestamp="${t}"/>`, 400, 'INVALID_REQUEST'],
      ['no Timestamp', () => `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="submitted" ReportAs="suppress"/>`, 400, 'INVALID_REQUEST'],
      ['Timestamp="yesterday"', () => reportAsRequest('submitted', 'yesterday', 'suppress'), 400, 'INVALID_REQUEST'],
      ['no StatusId', (t) => `<SetProjectStatusHistoryReportAs xmlns="${NS}" Timestamp="${t}" ReportAs="suppress"/>`, 400, 'INVALID_REQUEST'],
      ['malformed XML', (t) => `<SetProjectStatusHistoryReportAs xmlns="${NS}" StatusId="submitted" Timestamp="${t}" ReportAs="suppress">`, 400, 'MALFORMED_XML'],
      ['no namespace', (t) => `<SetProjectStatusHistoryReportAs StatusId="submitted" Timestamp="${t}" ReportAs="suppress"/>`, 400, 'WRONG_NAMESPACE'],
      ['no body', () => undefined, 400, 'INVALID_REQUEST'],
    ];
    for (const [what, body, status, code] of badBodies) {
      it(`refuses ${what} with ${status} ${code} and changes nothing`, async () => {
        const h = harness();
        const { projectId } = await createSubmitted(h, 'applicant');
        const timestamp = await shownTimestamp(h, projectId, IDS.submitted);
        const before = await workflowState(h, projectId);
        assertError(h, await h.request({ method: 'POST', url: urls.reportAs(projectId), body: body(timestamp) }), status, code);
        assert.deepEqual(await workflowState(h, projectId), before);
      });
    }
  });
});
