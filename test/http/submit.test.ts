import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isoTimestamp } from '../../src/model/clock.ts';
import { ProjectSubmitResponse } from '../../src/wire/documents/projects.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, type Who } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER } from '../support/json-answers.ts';
import {
  COMPLETE, createProject, createSubmitted, dataPath, draftPath, fieldErrors, fieldValue, fieldValues, type MatrixRow, projectPath, projectState,
  send, setDraft, sharedHarness, submitPath, UNAUTHENTICATED,
} from './http-helpers.ts';

// SubmitProject: POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Submit
// (also accepted without the Draft segment, as the specification's example writes it)

const complete = () => ({ name: COMPLETE.name, size: [...COMPLETE.size], kw: COMPLETE.kw });

forEachDialect('HTTP SubmitProject', ({ dialect }) => {
  describe('access and effect', () => {
    const harness = sharedHarness(dialect);

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
      it(`submits the applicant's complete draft: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, complete());
        const before = await projectState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: submitPath(projectId) });
        if (row.code) {
          assertError(h, res, row.status, row.code);
          assert.deepEqual(await projectState(h, projectId), before, 'a refused submit changes nothing');
          return;
        }
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectSubmitResponse');
        assert.match(attr(res.body, 'Project', 'ProjectNumber') ?? '', /^SOL--\d{5}$/);
        const after = await projectState(h, projectId);
        assert.equal(after.project?.statusId, IDS.submitted);
        assert.equal(after.audit[0]?.action, 'project.submit');
        assert.equal(after.audit[0]?.actorId, h.who[row.who as Who].id);
      });
    }

    it('moves the project to Submitted, numbers it, copies the draft to the submitted data and records history and audit', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const created = h.clock.now();
      await setDraft(h, projectId, complete());
      const before = await projectState(h, projectId);
      const at = h.clock.advance();
      const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectSubmitResponse');
      const number = attr(res.body, 'Project', 'ProjectNumber')!;
      assert.equal(attr(res.body, 'Project', 'ProjectId'), projectId);
      assert.equal(attr(res.body, 'Project', 'ProgramId'), IDS.program);
      assert.equal(attr(res.body, 'Project', 'Url'), `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&amp;ProjectId=${projectId}`);
      assert.equal(attr(res.body, 'Project', 'LastChangeTimestamp'), isoTimestamp(at));
      assert.equal(attr(res.body, 'CurrentStatus', 'StatusId'), IDS.submitted);
      assert.equal(attr(res.body, 'CurrentStatus', 'CustomId'), 'submitted');
      assert.equal(attr(res.body, 'CurrentStatus', 'Name'), 'Submitted');
      assert.equal(attr(res.body, 'CurrentStatus', 'Timestamp'), isoTimestamp(at));

      const after = await projectState(h, projectId);
      assert.deepEqual(after.project, {
        ...before.project!, number, statusId: IDS.submitted, statusAt: at, updatedAt: at, updatedBy: h.who.applicant.id, version: before.project!.version + 1,
      });
      assert.deepEqual(after.values.map((v) => [v.fieldId, v.value, v.values]), before.draft.map((v) => [v.fieldId, v.value, v.values]), 'submitted = draft');
      // The draft's changes are settled: it holds none, and reads as the submitted values (one value per field).
      assert.deepEqual(after.draft, [], 'no change is left in the draft');
      const draft = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      assert.deepEqual([fieldValue(draft.body, IDS.name), fieldValues(draft.body, IDS.size), fieldValue(draft.body, IDS.kw)], ['********', ['S', 'M'], '7.5']);
      assert.deepEqual(after.history.map((e) => [e.statusId, e.changedAt, e.changedBy]), [
        [IDS.submitted, at, h.who.applicant.id],
        [IDS.draft, created, h.who.applicant.id],
      ]);
      assert.equal(after.audit.length, before.audit.length + 1);
      assert.deepEqual([after.audit[0]?.action, after.audit[0]?.actorId, after.audit[0]?.detail], [
        'project.submit', h.who.applicant.id, { formId: IDS.form, number, fromStatus: IDS.draft, toStatus: IDS.submitted, fields: after.audit[0]?.detail?.fields },
      ]);
      // The ids (never the values) of the fields the submission wrote: the field.changed triggers of automations.
      assert.deepEqual([...(after.audit[0]?.detail?.fields as string[])].sort(), ['FIELD0000001', 'FIELD0000002', 'FIELD0000003']);

      const read = await h.request({ method: 'GET', url: dataPath(projectId), as: 'applicant' });
      assert.equal(read.statusCode, 200, read.body);
      assert.equal(attr(read.body, 'Project', 'ProjectNumber'), number);
      assert.equal(fieldValue(read.body, IDS.name), '********');
      assert.deepEqual(fieldValues(read.body, IDS.size), ['S', 'M']);
      assert.equal(fieldValue(read.body, IDS.kw), '7.5');
    });

    it('refuses an incomplete draft with 422 FORM_INCOMPLETE listing the REQUIRED fields, and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { size: ['S'] });
      const before = await projectState(h, projectId);
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
      assertError(h, res, 422, 'FORM_INCOMPLETE');
      assert.deepEqual(fieldErrors(res), [`${IDS.kw}:REQUIRED`, `${IDS.name}:REQUIRED`].sort());
      const after = await projectState(h, projectId);
      assert.deepEqual(after, before);
      assert.equal(after.project?.number, null);
      assert.equal(after.project?.statusId, IDS.draft);
    });

    it('refuses a second submission with 409 FORM_NOT_AVAILABLE and changes nothing', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const before = await projectState(h, projectId);
      h.clock.advance();
      for (const who of ['applicant', 'admin'] as const) {
        assertError(h, await h.request({ method: 'POST', url: submitPath(projectId), as: who }), 409, 'FORM_NOT_AVAILABLE');
      }
      assert.deepEqual(await projectState(h, projectId), before);
    });

    it('answers at …/Forms/{FormId}/Submit too, and by generated form id', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, complete());
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: `${projectPath(projectId)}/Forms/${IDS.form}/Submit`, as: 'applicant' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectSubmitResponse');
      assert.equal((await h.store.projects.getProject(IDS.program, projectId))?.statusId, IDS.submitted);
    });

    it('answers in JSON when Accept asks for it, and refuses in JSON too', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, complete());
      const at = h.clock.advance();
      const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant', headers: JSON_ANSWER });
      const stored = (await h.store.projects.getProject(IDS.program, projectId))!;
      assert.deepEqual(assertJsonAnswer(res, ProjectSubmitResponse), {
        Project: {
          ProjectId: projectId, ProgramId: IDS.program, ProjectNumber: stored.number!,
          Url: `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`, LastChangeTimestamp: isoTimestamp(at),
          CurrentStatus: { StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted', Timestamp: isoTimestamp(at) },
        },
      });
      assert.equal(res.headers.etag, `"${projectId}.${stored.version}.json"`, 'the JSON representation has its own strong ETag');
      assertJsonError(await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant', headers: JSON_ANSWER }), 409, 'FORM_NOT_AVAILABLE');
    });

    it('answers 404 NOT_FOUND for an unknown form or project and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, complete());
      const before = await projectState(h, projectId);
      assertError(h, await h.request({ method: 'POST', url: submitPath(projectId, 'nosuchform'), as: 'applicant' }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'POST', url: submitPath('NOSUCHPROJCT'), as: 'applicant' }), 404, 'NOT_FOUND');
      assert.deepEqual(await projectState(h, projectId), before);
    });

    it('answers 405 METHOD_NOT_ALLOWED for GET and changes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, complete());
      const before = await projectState(h, projectId);
      const res = await h.request({ method: 'GET', url: submitPath(projectId), as: 'applicant' });
      assertError(h, res, 405, 'METHOD_NOT_ALLOWED');
      assert.equal(res.headers.allow, 'POST');
      assert.deepEqual(await projectState(h, projectId), before);
    });
  });

  describe('project numbers', () => {
    const harness = sharedHarness(dialect);

    it('numbers five submitted projects SOL--00001 … SOL--00005, in submission order, without gaps', async () => {
      const h = harness();
      const numbers: string[] = [];
      for (let i = 0; i < 5; i++) numbers.push((await createSubmitted(h, i % 2 === 0 ? 'applicant' : 'otherApplicant')).number);
      assert.deepEqual(numbers, ['SOL--00001', 'SOL--00002', 'SOL--00003', 'SOL--00004', 'SOL--00005']);
    });

    it('takes no number for a refused submission', async () => {
      const h = harness();
      const incomplete = await createProject(h, 'applicant');
      assertError(h, await h.request({ method: 'POST', url: submitPath(incomplete), as: 'applicant' }), 422, 'FORM_INCOMPLETE');
      assertError(h, await h.request({ method: 'POST', url: submitPath(incomplete), as: 'reader' }), 403, 'FORBIDDEN');
      assert.equal((await createSubmitted(h, 'applicant')).number, 'SOL--00006');
    });

    it('lets exactly one of ten parallel submissions of one project win; the others get 409 and take no number', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, complete());
      const before = await projectState(h, projectId);
      h.clock.advance();
      const answers = await Promise.all(Array.from({ length: 10 }, () => h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' })));
      const won = answers.filter((r) => r.statusCode === 200);
      assert.equal(won.length, 1, answers.map((r) => r.body).join('\n'));
      for (const lost of answers.filter((r) => r.statusCode !== 200)) {
        assert.equal(lost.statusCode, 409, lost.body);
        assertValidXml(h, lost, 'ErrorResponse');
        assert.match(lost.body, /Code="(CONFLICT|FORM_NOT_AVAILABLE)"/);
      }
      assert.equal(attr(won[0]!.body, 'Project', 'ProjectNumber'), 'SOL--00007');

      const after = await projectState(h, projectId);
      assert.equal(after.project?.number, 'SOL--00007');
      assert.equal(after.project?.version, before.project!.version + 1, 'changed exactly once');
      assert.deepEqual(after.history.map((e) => e.statusId), [IDS.submitted, IDS.draft], 'exactly one Submitted entry');
      assert.equal(after.audit.filter((e) => e.action === 'project.submit').length, 1);
      assert.equal((await createSubmitted(h, 'applicant')).number, 'SOL--00008', 'the next project gets the following number');
    });

    it('keeps numbers unique when different projects are submitted in parallel', async () => {
      const h = harness();
      const ids: string[] = [];
      for (let i = 0; i < 6; i++) {
        const id = await createProject(h, 'applicant');
        await setDraft(h, id, complete());
        ids.push(id);
      }
      h.clock.advance();
      const answers = await Promise.all(ids.map((id) => h.request({ method: 'POST', url: submitPath(id), as: 'applicant' })));
      for (const r of answers) assert.equal(r.statusCode, 200, r.body);
      const numbers = answers.map((r) => attr(r.body, 'Project', 'ProjectNumber')!).sort();
      assert.deepEqual(numbers, ['SOL--00009', 'SOL--00010', 'SOL--00011', 'SOL--00012', 'SOL--00013', 'SOL--00014']);
    });
  });
});
