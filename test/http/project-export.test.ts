import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { isoTimestamp } from '../../src/model/clock.ts';
import { AllProjectDataResponse } from '../../src/wire/documents/all-project-data.ts';
import { ProjectExportDataGetResponse, ProjectExportDataGetResponseV2 } from '../../src/wire/documents/project-export.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, authHeaders, dataRequest, type HttpHarness } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { WF } from '../support/workflow-fixtures.ts';
import {
  ADMIN_ONLY, createProject, dataPath, draftPath, rowLabel as label, projectPath, send, setDraft, submitPath,
} from './http-helpers.ts';
import { elements, elementWith, setStatus, sharedWorkflowHarness, urls, workflowState } from './workflow-helpers.ts';

// GetAllProjectData: GET /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Data[?reveal_sensitive_data=]  (admin only)
// GetExportProject:  GET /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Export?version=1|2|v1|v2       (admin only)

const MASK = '********';
/** The time format of the export: UTC, hyphens for colons, no fraction (2026-01-01T01-00-00). */
const exportTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replaceAll(':', '-');

const parser = new XMLParser({
  ignoreAttributes: false, attributeNamePrefix: '', parseTagValue: false, parseAttributeValue: false,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && ['Form', 'Group', 'Field', 'CurrentValue', 'Status', 'Attachment'].includes(name),
});
type Node = Record<string, unknown>;
const list = (v: unknown): Node[] => (Array.isArray(v) ? (v as Node[]) : []);

/** The Data part of an export as plain data: forms → groups → fields with their values and who changed them when. */
function exportData(xml: string) {
  const project = (parser.parse(xml) as Node).ProjectExportDataGetResponse as Node;
  const data = (project.Project as Node).Data as Node;
  return list(data.Form).map((form) => ({
    form: form.CustomId,
    groups: list(form.Group).map((group) => ({
      group: group.Name ?? null,
      fields: list(group.Field).map((f) => ({ field: f.CustomId, values: list(f.CurrentValue) as unknown as string[], at: f.ChangeTime, by: f.ChangedBy })),
    })),
  }));
}

/**
 * A project of the applicant with the application submitted (name, size, kw) and the staff-only review form
 * submitted by the editor (notes, verdict); tags never saved; the admin then wrote a draft value that stays a draft.
 */
const INSPECTION = Buffer.from('%PDF-1.4 inspection');

async function reviewedProject(h: HttpHarness) {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { name: 'Jane Doe', size: ['S', 'M'], kw: '7.5' });
  const submittedAt = h.clock.advance();
  const submit = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
  assert.equal(submit.statusCode, 200, submit.body);
  const reviewDraft = await h.request({ method: 'POST', url: draftPath(projectId, 'review'), as: 'editor', body: dataRequest({ notes: 'Checked on site', verdict: 'ok' }) });
  assert.equal(reviewDraft.statusCode, 200, reviewDraft.body);
  // The review form requires its inspection report.
  const uploadedAt = h.clock.now();
  const report = await h.app.inject({
    method: 'POST', url: `${projectPath(projectId)}/Forms/review/Attachments/inspection`, payload: INSPECTION,
    headers: { ...authHeaders(h.who.editor), 'content-type': 'application/pdf', 'content-disposition': 'attachment; filename="inspection.pdf"' },
  });
  assert.equal(report.statusCode, 200, report.body);
  const reviewedAt = h.clock.advance();
  const review = await h.request({ method: 'POST', url: submitPath(projectId, 'review'), as: 'editor' });
  assert.equal(review.statusCode, 200, review.body);
  assert.equal(attr(review.body, 'CurrentStatus', 'StatusId'), IDS.submitted, 'the review form leads nowhere');
  h.clock.advance();
  const draft = await h.request({ method: 'POST', url: draftPath(projectId), body: dataRequest({ tags: ['draft only'] }) });
  assert.equal(draft.statusCode, 200, draft.body);
  const project = (await h.store.projects.getProject(IDS.program, projectId))!;
  return { projectId, number: project.number!, submittedAt, reviewedAt, uploadedAt, project };
}

forEachDialect('HTTP project export', ({ dialect }) => {
  describe('GetAllProjectData', () => {
    const harness = sharedWorkflowHarness(dialect);
    let p = {} as Awaited<ReturnType<typeof reviewedProject>>;
    before(async () => {
      p = await reviewedProject(harness());
    });

    for (const row of ADMIN_ONLY) {
      it(`reads every saved value of the project: ${label(row)}`, async () => {
        const h = harness();
        const before = await workflowState(h, p.projectId);
        const res = await send(h, row.who, { method: 'GET', url: urls.allData(p.projectId) });
        if (row.code) assertError(h, res, row.status, row.code);
        else {
          assert.equal(res.statusCode, 200, res.body);
          assertValidXml(h, res, 'AllProjectDataResponse');
          assert.equal(attr(res.body, 'Project', 'ProjectId'), p.projectId);
        }
        assert.deepEqual(await workflowState(h, p.projectId), before, 'reading changes nothing');
      });
    }

    it('gives the latest submitted value of every field ever saved, across forms, with form, time and who; masks sensitive values', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: urls.allData(p.projectId) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'AllProjectDataResponse');
      assert.deepEqual(elements(res.body, 'Project'), [{
        ProjectId: p.projectId, ProgramId: IDS.program, ProjectNumber: p.number,
        Url: `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&amp;ProjectId=${p.projectId}`,
        LastChangeTimestamp: isoTimestamp(p.project.updatedAt),
      }]);
      assert.deepEqual(elements(res.body, 'CurrentStatus'), [{ StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted', Timestamp: isoTimestamp(p.submittedAt) }]);
      const applicant = h.who.applicant.email;
      const editor = h.who.editor.email;
      assert.deepEqual(elements(res.body, 'DataField'), [
        { DataFieldId: IDS.name, CustomId: 'name', Name: 'Applicant name', FormId: IDS.form, Value: MASK, ChangeTimestamp: isoTimestamp(p.submittedAt), ChangedBy: applicant },
        { DataFieldId: IDS.size, CustomId: 'size', Name: 'System size', FormId: IDS.form, ChangeTimestamp: isoTimestamp(p.submittedAt), ChangedBy: applicant },
        { DataFieldId: IDS.kw, CustomId: 'kw', Name: 'Capacity (kW)', FormId: IDS.form, Value: '7.5', ChangeTimestamp: isoTimestamp(p.submittedAt), ChangedBy: applicant },
        { DataFieldId: WF.notes, CustomId: 'notes', Name: 'Notes', FormId: WF.review, Value: 'Checked on site', ChangeTimestamp: isoTimestamp(p.reviewedAt), ChangedBy: editor },
        { DataFieldId: WF.verdict, CustomId: 'verdict', Name: 'Verdict', FormId: WF.review, Value: 'ok', ChangeTimestamp: isoTimestamp(p.reviewedAt), ChangedBy: editor },
      ], 'tags was never submitted (only drafted) and is left out');
      assert.deepEqual([...elementWith(res.body, 'DataField', 'DataFieldId', IDS.size).matchAll(/<Value>([^<]*)<\/Value>/g)].map((m) => m[1]), ['S', 'M']);
      assert.doesNotMatch(res.body, /Jane Doe|draft only/);
    });

    it('shows the admin who wrote submitted data directly, and the later value', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const at = h.clock.advance();
      const write = await h.request({ method: 'POST', url: dataPath(projectId), as: 'programAdmin', body: dataRequest({ name: 'X', kw: '2', tags: ['a', 'b'] }) });
      assert.equal(write.statusCode, 200, write.body);
      const res = await h.request({ method: 'GET', url: urls.allData(projectId) });
      assertValidXml(h, res, 'AllProjectDataResponse');
      assert.deepEqual(elements(res.body, 'DataField').map((f) => [f.CustomId, f.Value, f.FormId, f.ChangedBy, f.ChangeTimestamp]), [
        ['name', MASK, IDS.form, h.who.programAdmin.email, isoTimestamp(at)],
        ['kw', '2', IDS.form, h.who.programAdmin.email, isoTimestamp(at)],
        ['tags', undefined, IDS.form, h.who.programAdmin.email, isoTimestamp(at)],
      ]);
      assert.equal(attr(res.body, 'Project', 'ProjectNumber'), undefined, 'still unsubmitted');
    });

    it('answers an unsubmitted project with no data fields', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { kw: '4' });
      const res = await h.request({ method: 'GET', url: urls.allData(projectId), as: 'programAdmin' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'AllProjectDataResponse');
      assert.deepEqual(elements(res.body, 'DataField'), []);
    });

    for (const who of ['admin', 'programAdmin', 'editor', 'applicant', 'outsider'] as const) {
      const [status, code] = who === 'admin' || who === 'programAdmin' ? [403, 'SENSITIVE_DATA_NOT_ALLOWED'] : [403, 'FORBIDDEN'];
      it(`refuses reveal_sensitive_data=true for ${who} with ${status} ${code} (no multi-factor authentication)`, async () => {
        const h = harness();
        assertError(h, await h.request({ method: 'GET', url: `${urls.allData(p.projectId)}?reveal_sensitive_data=true`, as: who }), status, code);
      });
    }

    it('takes reveal_sensitive_data=false and still masks; refuses a value that is no boolean', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: `${urls.allData(p.projectId)}?reveal_sensitive_data=false` });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(attr(elementWith(res.body, 'DataField', 'DataFieldId', IDS.name), 'DataField', 'Value'), MASK);
      assertError(h, await h.request({ method: 'GET', url: `${urls.allData(p.projectId)}?reveal_sensitive_data=yes` }), 400, 'INVALID_PARAMETER');
    });

    it('answers 404 NOT_FOUND for an unknown project', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: urls.allData('NOSUCHPROJCT') }), 404, 'NOT_FOUND');
    });

    it('answers JSON when asked, with the values of the XML answer and an ETag of its own', async () => {
      const h = harness();
      const json = await h.request({ method: 'GET', url: urls.allData(p.projectId), headers: JSON_ANSWER });
      const value = assertJsonAnswer(json, AllProjectDataResponse);
      assert.equal(value.Project.ProjectId, p.projectId);
      assert.ok(value.Project.DataFields.DataField.some((f) => f.Values !== undefined), 'a multi-value field carries Values');
      const xml = await h.request({ method: 'GET', url: urls.allData(p.projectId) });
      assert.deepEqual(value, xmlAnswerValue(h, xml, AllProjectDataResponse));
      assert.equal(json.headers.etag, String(xml.headers.etag).replace(/"$/, '.json"'), 'the JSON representation has its own strong ETag');
    });
  });

  describe('GetExportProject', () => {
    const harness = sharedWorkflowHarness(dialect);
    let p = {} as Awaited<ReturnType<typeof reviewedProject>>;
    before(async () => {
      const h = harness();
      p = await reviewedProject(h);
      await setStatus(h, p.projectId, 'draft');
      await setStatus(h, p.projectId, 'submitted', 'programAdmin');
      p.project = (await h.store.projects.getProject(IDS.program, p.projectId))!;
    });

    for (const row of ADMIN_ONLY) {
      it(`exports the project: ${label(row)}`, async () => {
        const h = harness();
        const before = await workflowState(h, p.projectId);
        for (const version of ['1', '2']) {
          const res = await send(h, row.who, { method: 'GET', url: `${urls.export(p.projectId)}?version=${version}` });
          if (row.code) assertError(h, res, row.status, row.code);
          else {
            assert.equal(res.statusCode, 200, res.body);
            assertValidXml(h, res, version === '1' ? 'ProjectExportDataGetResponse' : 'ProjectExportDataGetResponseV2');
          }
        }
        assert.deepEqual(await workflowState(h, p.projectId), before, 'exporting changes nothing');
      });
    }

    it('describes the project: number, owner, status, created and last changed (UTC, hyphenated) and by whom', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: `${urls.export(p.projectId)}?version=2` });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectExportDataGetResponseV2');
      assert.equal(attr(res.body, 'ProjectExportDataGetResponse', 'SchemaVersion'), '2.0');
      assert.deepEqual(elements(res.body, 'Project'), [{
        ProjectId: p.projectId, ProgramId: IDS.program, Number: p.number, Owner: h.who.applicant.email, Status: 'Submitted',
        CreatedUTC: exportTime(p.project.createdAt), CreatedBy: h.who.applicant.email, LastChangedUTC: exportTime(p.project.updatedAt), LastChangedBy: h.who.programAdmin.email,
      }]);
      assert.match(elements(res.body, 'Project')[0]!.CreatedUTC!, /^2026-01-01T\d{2}-\d{2}-\d{2}$/);
    });

    it('holds the data by form and group with current values, change time and who; sensitive values masked; never saved fields bare', async () => {
      const h = harness();
      const applicant = h.who.applicant.email;
      const editor = h.who.editor.email;
      const app = { at: exportTime(p.submittedAt), by: applicant };
      const rev = { at: exportTime(p.reviewedAt), by: editor };
      const bare = { at: undefined, by: undefined };
      const expected = [
        {
          form: 'application', groups: [
            { group: 'Applicant', fields: [{ field: 'name', values: [MASK], ...app }] },
            { group: null, fields: [{ field: 'size', values: ['S', 'M'], ...app }, { field: 'tags', values: [], ...bare }] },
            { group: 'System', fields: [{ field: 'kw', values: ['7.5'], ...app }] },
            { group: 'Review', fields: [{ field: 'notes', values: ['Checked on site'], ...rev }] },
          ],
        },
        { form: 'review', groups: [{ group: 'Review', fields: [{ field: 'notes', values: ['Checked on site'], ...rev }, { field: 'verdict', values: ['ok'], ...rev }] }] },
        {
          form: 'archive', groups: [
            { group: 'System', fields: [{ field: 'kw', values: ['7.5'], ...app }] },
            { group: 'Completion', fields: [{ field: 'installed', values: [], ...bare }] },
          ],
        },
      ];
      for (const version of ['1', '2']) {
        const res = await h.request({ method: 'GET', url: `${urls.export(p.projectId)}?version=${version}` });
        assert.equal(res.statusCode, 200, res.body);
        assert.deepEqual(exportData(res.body), expected);
        assert.deepEqual(elements(res.body, 'Form').map((f) => [f.FormId, f.Name]), [[IDS.form, 'Application'], [WF.review, 'Review'], [WF.archive, 'Archive']]);
        assert.equal(attr(elementWith(res.body, 'Field', 'CustomId', 'kw'), 'Field', 'DataFieldId'), IDS.kw);
        assert.equal(attr(elementWith(res.body, 'Field', 'CustomId', 'kw'), 'Field', 'Name'), 'Capacity (kW)');
        assert.doesNotMatch(res.body, /Jane Doe|draft only/);
        assert.deepEqual(elements(res.body, 'Attachment'), [{
          AttachmentId: WF.reviewPhoto, CustomId: 'inspection', Name: 'Inspection report', FileName: 'inspection.pdf', FormId: WF.review,
          FileSize: String(INSPECTION.length), ContentType: 'application/pdf', Sha256: createHash('sha256').update(INSPECTION).digest('hex'),
          Version: '1', UploadedBy: editor, UploadedUTC: exportTime(p.uploadedAt), ApprovalStatus: 'Pending',
        }]);
      }
    });

    it('lists the history newest first; version 2 adds ChangedBy, which the version-1 schema rejects', async () => {
      const h = harness();
      const history = await h.store.projects.getHistory(p.projectId);
      const emails: Record<string, string> = Object.fromEntries(Object.values(h.who).map((w) => [w.id, w.email]));
      const names: Record<string, [string, string]> = { [IDS.draft]: ['draft', 'Draft'], [IDS.submitted]: ['submitted', 'Submitted'] };
      const v1Entries = history.map((e) => ({
        StatusId: e.statusId, CustomId: names[e.statusId]![0], Name: names[e.statusId]![1], Timestamp: isoTimestamp(e.changedAt), ReportAs: 'normal',
      }));
      const historyPart = (xml: string) => /<StatusHistory>.*<\/StatusHistory>/s.exec(xml)?.[0] ?? '';

      for (const url of [urls.export(p.projectId), `${urls.export(p.projectId)}?version=1`, `${urls.export(p.projectId)}?version=v1`]) {
        const v1 = await h.request({ method: 'GET', url });
        assert.equal(v1.statusCode, 200, v1.body);
        assertValidXml(h, v1, 'ProjectExportDataGetResponse');
        assert.equal(attr(v1.body, 'ProjectExportDataGetResponse', 'SchemaVersion'), '1.0');
        assert.deepEqual(elements(historyPart(v1.body), 'Status'), v1Entries);
      }
      for (const version of ['2', 'v2', 'V2']) {
        const v2 = await h.request({ method: 'GET', url: `${urls.export(p.projectId)}?version=${version}` });
        assert.equal(v2.statusCode, 200, v2.body);
        assertValidXml(h, v2, 'ProjectExportDataGetResponseV2');
        assert.deepEqual(elements(historyPart(v2.body), 'Status'), history.map((e, i) => ({ ...v1Entries[i]!, ChangedBy: emails[e.changedBy]! })));
        assert.deepEqual(elements(historyPart(v2.body), 'Status').map((s) => [s.Name, s.ChangedBy]), [
          ['Submitted', h.who.programAdmin.email], ['Draft', h.who.admin.email], ['Submitted', h.who.applicant.email], ['Draft', h.who.applicant.email],
        ]);
        const asV1 = v2.body.replace('SchemaVersion="2.0"', 'SchemaVersion="1.0"');
        const errors = h.schemas.validate('ProjectExportDataGetResponse', asV1);
        assert.ok(errors.some((e) => e.includes('ChangedBy')), `the V1 XSD must reject ChangedBy on history entries: ${errors.join('\n')}`);
      }
    });

    it('shows a suppressed history entry with ReportAs suppress', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setStatus(h, projectId, 'submitted');
      const [entry] = await h.store.projects.getHistory(projectId);
      const body = `<SetProjectStatusHistoryReportAs xmlns="${h.config.xmlNamespace}" StatusId="submitted" Timestamp="${isoTimestamp(entry!.changedAt)}" ReportAs="suppress"/>`;
      const set = await h.request({ method: 'POST', url: urls.reportAs(projectId), body });
      assert.equal(set.statusCode, 200, set.body);
      const res = await h.request({ method: 'GET', url: `${urls.export(projectId)}?version=2` });
      assertValidXml(h, res, 'ProjectExportDataGetResponseV2');
      assert.deepEqual(elements(res.body, 'Status').map((s) => [s.Name, s.ReportAs]), [['Submitted', 'suppress'], ['Draft', 'normal']]);
    });

    it('exports an unsubmitted project without Number and with bare fields', async () => {
      const h = harness();
      const projectId = await createProject(h, 'otherApplicant');
      const res = await h.request({ method: 'GET', url: urls.export(projectId), as: 'programAdmin' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectExportDataGetResponse');
      assert.equal(attr(res.body, 'Project', 'Number'), undefined);
      assert.equal(attr(res.body, 'Project', 'Owner'), h.who.otherApplicant.email);
      assert.equal(attr(res.body, 'Project', 'Status'), 'Draft');
      assert.doesNotMatch(res.body, /<CurrentValue>|ChangeTime=/);
    });

    for (const version of ['3', 'v3', '0', 'two', '']) {
      it(`refuses version=${version} with 400 INVALID_PARAMETER`, async () => {
        const h = harness();
        assertError(h, await h.request({ method: 'GET', url: `${urls.export(p.projectId)}?version=${version}` }), 400, 'INVALID_PARAMETER');
      });
    }

    it('answers 404 NOT_FOUND for an unknown project', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: urls.export('NOSUCHPROJCT') }), 404, 'NOT_FOUND');
    });

    it('answers JSON when asked: each version with the values of its XML answer; a bad version is a JSON error', async () => {
      const h = harness();
      for (const [version, doc] of [['1', ProjectExportDataGetResponse], ['2', ProjectExportDataGetResponseV2]] as const) {
        const url = `${urls.export(p.projectId)}?version=${version}`;
        const value = assertJsonAnswer(await h.request({ method: 'GET', url, headers: JSON_ANSWER }), doc);
        assert.equal(value.SchemaVersion, `${version}.0`);
        const history = value.Project.StatusHistory.Status;
        assert.ok(history.length > 0 && history.every((e) => ('ChangedBy' in e) === (version === '2')), 'ChangedBy in version 2 only');
        assert.deepEqual(value, xmlAnswerValue(h, await h.request({ method: 'GET', url }), doc));
      }
      const refused = await h.request({ method: 'GET', url: `${urls.export(p.projectId)}?version=3`, headers: JSON_ANSWER });
      assert.match(assertJsonError(refused, 400, 'INVALID_PARAMETER'), /version must be one of 1, 2/);
    });
  });
});
