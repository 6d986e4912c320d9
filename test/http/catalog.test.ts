import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CustomListChoicesResponse, FormSchemaResponseV2, FormsResponse, StatusListResponse } from '../../src/wire/documents/catalog.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs } from '../support/http-harness.ts';
import { assertJsonAnswer, assertJsonError, JSON_ANSWER, xmlAnswerValue } from '../support/json-answers.ts';
import { WF } from '../support/workflow-fixtures.ts';
import { ADMIN_ONLY, API, rowLabel as label, type MatrixRow, PROGRAM, programState, send, UNAUTHENTICATED } from './http-helpers.ts';
import { elements, elementWith, sharedWorkflowHarness } from './workflow-helpers.ts';

// GetForms:             GET /services/v2/Programs/{ProgramId}/Forms
// GetFormSchema:        GET /services/v2/Programs/{ProgramId}/Forms/{FormId}/Schema?version=1|2
// GetCustomListChoices: GET /services/v2/Programs/{ProgramId}/CustomLists/{ListId}/Choices
// GetStatusList:        GET /services/v2/Programs/{ProgramId}/Statuses (admin only)
//
// The program is the workflow fixture: forms application (every role), review (editors only, available in
// Submitted, leads nowhere) and archive (available in no status); statuses Draft → Submitted → Draft | Approved.

const ALL_FORMS = [IDS.form, WF.review, WF.archive];
const APPLICANT_FORMS = [IDS.form, WF.archive];

forEachDialect('HTTP catalog', ({ dialect }) => {
  // Every operation here only reads; one harness serves the whole file.
  const harness = sharedWorkflowHarness(dialect);

  describe('GetForms', () => {
    const matrix: (MatrixRow & { sees?: string[] })[] = [
      { who: 'admin', status: 200, sees: ALL_FORMS },
      { who: 'programAdmin', status: 200, sees: ALL_FORMS },
      { who: 'editor', status: 200, sees: ALL_FORMS },
      { who: 'reader', status: 200, sees: ALL_FORMS },
      { who: 'applicant', status: 200, sees: APPLICANT_FORMS },
      { who: 'otherApplicant', status: 200, sees: APPLICANT_FORMS },
      { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const row of matrix) {
      it(`lists the forms the caller may read, in program order: ${label(row)}`, async () => {
        const h = harness();
        const res = await send(h, row.who, { method: 'GET', url: `${PROGRAM}/Forms` });
        if (row.code) return assertError(h, res, row.status, row.code);
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'FormsResponse');
        assert.equal(attr(res.body, 'FormsResponse', 'ProgramId'), IDS.program);
        assert.deepEqual(attrs(res.body, 'Form', 'FormId'), row.sees);
      });
    }

    it('describes each form with the statuses it is available in and the status it leads to', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: `${API}/Programs/${IDS.program}/Forms` });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'FormsResponse');

      const application = elementWith(res.body, 'Form', 'FormId', IDS.form);
      assert.deepEqual(elements(application, 'Form'), [{ FormId: IDS.form, CustomId: 'application', ProgramId: IDS.program, Name: 'Application' }]);
      assert.deepEqual(elements(application, 'Status'), [{ StatusId: IDS.draft, CustomId: 'draft', Name: 'Draft' }]);
      assert.deepEqual(elements(application, 'LeadsToStatus'), [{ StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted' }]);

      const review = elementWith(res.body, 'Form', 'FormId', WF.review);
      assert.equal(attr(review, 'Form', 'Name'), 'Review');
      assert.deepEqual(elements(review, 'Status'), [{ StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted' }]);
      assert.deepEqual(elements(review, 'LeadsToStatus'), [], 'a form that moves no project has no LeadsToStatus');

      const archive = elementWith(res.body, 'Form', 'FormId', WF.archive);
      assert.deepEqual(elements(archive, 'Status'), [], 'available in no status');
      assert.match(archive, /<AvailableInStatuses\s*\/>|<AvailableInStatuses><\/AvailableInStatuses>/);
    });

    it('answers 404 NOT_FOUND for an unknown program', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${API}/Programs/nosuchprogram/Forms` }), 404, 'NOT_FOUND');
    });
  });

  describe('GetFormSchema', () => {
    const schemaUrl = (form: string, query = '') => `${PROGRAM}/Forms/${form}/Schema${query}`;

    // application: roles null; review: editors only (admins always); archive: available in no status.
    const matrices: [string, string, MatrixRow[]][] = [
      ['application (every role)', 'application', [
        { who: 'admin', status: 200 },
        { who: 'programAdmin', status: 200 },
        { who: 'editor', status: 200 },
        { who: 'reader', status: 200 },
        { who: 'applicant', status: 200 },
        { who: 'otherApplicant', status: 200 },
        { who: 'outsider', status: 403, code: 'FORBIDDEN' },
        ...UNAUTHENTICATED,
      ]],
      ['review (editors only)', 'review', [
        { who: 'admin', status: 200 },
        { who: 'programAdmin', status: 200 },
        { who: 'editor', status: 200 },
        { who: 'reader', status: 403, code: 'FORBIDDEN' },
        { who: 'applicant', status: 403, code: 'FORBIDDEN' },
        { who: 'otherApplicant', status: 403, code: 'FORBIDDEN' },
        { who: 'outsider', status: 403, code: 'FORBIDDEN' },
        ...UNAUTHENTICATED,
      ]],
      ['archive (available in no status)', 'archive', [
        { who: 'admin', status: 403, code: 'FORBIDDEN' },
        { who: 'programAdmin', status: 403, code: 'FORBIDDEN' },
        { who: 'editor', status: 403, code: 'FORBIDDEN' },
        { who: 'reader', status: 403, code: 'FORBIDDEN' },
        { who: 'applicant', status: 403, code: 'FORBIDDEN' },
        { who: 'otherApplicant', status: 403, code: 'FORBIDDEN' },
        { who: 'outsider', status: 403, code: 'FORBIDDEN' },
        ...UNAUTHENTICATED,
      ]],
    ];
    for (const [what, form, matrix] of matrices) {
      for (const row of matrix) {
        it(`describes form ${what}: ${label(row)}`, async () => {
          const h = harness();
          for (const version of ['1', '2']) {
            const res = await send(h, row.who, { method: 'GET', url: schemaUrl(form, `?version=${version}`) });
            if (row.code) {
              assertError(h, res, row.status, row.code);
              continue;
            }
            assert.equal(res.statusCode, 200, res.body);
            assertValidXml(h, res, version === '1' ? 'FormSchemaResponse' : 'FormSchemaResponseV2');
            assert.equal(attr(res.body, 'Form', 'CustomId'), form);
          }
        });
      }
    }

    it('version 1 lists the fields in form order with type, flags and limits, and the attachments', async () => {
      const h = harness();
      for (const url of [schemaUrl('application'), schemaUrl('application', '?version=1'), schemaUrl(IDS.form, '?version=1')]) {
        const res = await h.request({ method: 'GET', url, as: 'applicant' });
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'FormSchemaResponse');
        assert.equal(attr(res.body, 'FormSchemaResponse', 'SchemaVersion'), '1.0');
        assert.deepEqual(elements(res.body, 'Form'), [{ FormId: IDS.form, CustomId: 'application', ProgramId: IDS.program, Name: 'Application' }]);
        assert.deepEqual(elements(res.body, 'DataField'), [
          { DataFieldId: IDS.name, CustomId: 'name', Name: 'Applicant name', Type: 'text', Required: 'true', MultiValue: 'false', Sensitive: 'true', MaxLength: '100' },
          {
            DataFieldId: IDS.size, CustomId: 'size', Name: 'System size', Type: 'choice', Required: 'false', MultiValue: 'true', Sensitive: 'false',
            CustomListId: IDS.sizes, CustomListCustomId: 'sizes',
          },
          {
            DataFieldId: IDS.kw, CustomId: 'kw', Name: 'Capacity (kW)', Type: 'number', Required: 'true', MultiValue: 'false', Sensitive: 'false',
            MinValue: '0.5', MaxValue: '1000.25',
          },
          { DataFieldId: WF.notes, CustomId: 'notes', Name: 'Notes', Type: 'text', Required: 'false', MultiValue: 'false', Sensitive: 'false', MaxLength: '500' },
          { DataFieldId: WF.tags, CustomId: 'tags', Name: 'Tags', Type: 'text', Required: 'false', MultiValue: 'true', Sensitive: 'false', MaxLength: '50' },
        ], 'no Group and no Choices in version 1');
        assert.doesNotMatch(res.body, /<Choices|Group=/);
        assert.deepEqual(elements(res.body, 'Attachment'), [
          { AttachmentId: IDS.photo, CustomId: 'photo', Name: 'Site photo', Required: 'false', MaxSizeBytes: String(5 * 1024 * 1024) },
        ]);
        assert.deepEqual([...res.body.matchAll(/<Type>([^<]*)<\/Type>/g)].map((m) => m[1]), ['image/jpeg', 'image/png']);
      }
    });

    it('version 2 adds the Group of each field and the choices of list fields inline', async () => {
      const h = harness();
      for (const version of ['2', 'v2', '2.0']) {
        const res = await h.request({ method: 'GET', url: schemaUrl('application', `?version=${version}`), as: 'reader' });
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'FormSchemaResponseV2');
        assert.equal(attr(res.body, 'FormSchemaResponse', 'SchemaVersion'), '2.0');
        const fields = elements(res.body, 'DataField');
        assert.deepEqual(fields.map((f) => [f.DataFieldId, f.Group]), [
          [IDS.name, 'Applicant'], [IDS.size, undefined], [IDS.kw, 'System'], [WF.notes, 'Review'], [WF.tags, undefined],
        ]);
        assert.equal(fields[2]!.MinValue, '0.5');
        const size = elementWith(res.body, 'DataField', 'DataFieldId', IDS.size);
        assert.deepEqual(elements(size, 'Choice'), [{ Value: 'S', Label: 'Small' }, { Value: 'M', Label: 'Medium' }, { Value: 'L', Label: 'Large' }]);
        assert.equal([...res.body.matchAll(/<Choices>/g)].length, 1, 'only the list field carries Choices');
      }
    });

    it('describes the staff-only form to an editor: its fields and its attachment', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: schemaUrl(WF.review, '?version=2'), as: 'editor' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'FormSchemaResponseV2');
      assert.deepEqual(elements(res.body, 'DataField'), [
        { DataFieldId: WF.notes, CustomId: 'notes', Name: 'Notes', Type: 'text', Required: 'true', MultiValue: 'false', Sensitive: 'false', MaxLength: '500', Group: 'Review' },
        { DataFieldId: WF.verdict, CustomId: 'verdict', Name: 'Verdict', Type: 'text', Required: 'false', MultiValue: 'false', Sensitive: 'false', MaxLength: '50', Group: 'Review' },
      ]);
      assert.deepEqual(elements(res.body, 'Attachment'), [
        { AttachmentId: WF.reviewPhoto, CustomId: 'inspection', Name: 'Inspection report', Required: 'true', MaxSizeBytes: '1024' },
      ]);
    });

    for (const version of ['3', '0', 'abc', '', '1&version=2']) {
      it(`refuses version=${version} with 400 INVALID_PARAMETER`, async () => {
        const h = harness();
        assertError(h, await h.request({ method: 'GET', url: schemaUrl('application', `?version=${version}`) }), 400, 'INVALID_PARAMETER');
      });
    }

    it('answers 404 NOT_FOUND for an unknown form or program', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: schemaUrl('nosuchform') }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: schemaUrl('nosuchform'), as: 'applicant' }), 404, 'NOT_FOUND');
      assertError(h, await h.request({ method: 'GET', url: `${API}/Programs/nosuchprogram/Forms/application/Schema` }), 404, 'NOT_FOUND');
    });
  });

  describe('GetCustomListChoices', () => {
    const listUrl = (list: string) => `${PROGRAM}/CustomLists/${list}/Choices`;
    const matrix: MatrixRow[] = [
      { who: 'admin', status: 200 },
      { who: 'programAdmin', status: 200 },
      { who: 'editor', status: 200 },
      { who: 'reader', status: 200 },
      { who: 'applicant', status: 200 },
      { who: 'otherApplicant', status: 200 },
      { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const row of matrix) {
      it(`lists the choices of a custom list: ${label(row)}`, async () => {
        const h = harness();
        const res = await send(h, row.who, { method: 'GET', url: listUrl('sizes') });
        if (row.code) return assertError(h, res, row.status, row.code);
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'CustomListChoicesResponse');
        assert.equal(attr(res.body, 'CustomList', 'CustomListId'), IDS.sizes);
      });
    }

    it('addresses the list by generated or custom id and gives its choices in order', async () => {
      const h = harness();
      for (const ref of ['sizes', IDS.sizes]) {
        const res = await h.request({ method: 'GET', url: listUrl(ref), as: 'applicant' });
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'CustomListChoicesResponse');
        assert.deepEqual(elements(res.body, 'CustomList'), [{ CustomListId: IDS.sizes, CustomId: 'sizes', Name: 'System sizes' }]);
        assert.deepEqual(elements(res.body, 'Choice'), [{ Value: 'S', Label: 'Small' }, { Value: 'M', Label: 'Medium' }, { Value: 'L', Label: 'Large' }]);
      }
    });

    it('answers 404 NOT_FOUND for an unknown list (also for a field or form id used as list id)', async () => {
      const h = harness();
      for (const ref of ['nosuchlist', 'size', IDS.form]) {
        assertError(h, await h.request({ method: 'GET', url: listUrl(ref) }), 404, 'NOT_FOUND');
      }
    });
  });

  describe('GetStatusList', () => {
    const statusesUrl = `${PROGRAM}/Statuses`;
    const matrix = ADMIN_ONLY;
    for (const row of matrix) {
      it(`lists the workflow (admin only): ${label(row)}`, async () => {
        const h = harness();
        const res = await send(h, row.who, { method: 'GET', url: statusesUrl });
        if (row.code) return assertError(h, res, row.status, row.code);
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'StatusListResponse');
        assert.equal(attr(res.body, 'StatusListResponse', 'ProgramId'), IDS.program);
      });
    }

    it('gives every status in order with PublicId, Initial and the statuses allowed next', async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: `${API}/Programs/${IDS.program}/Statuses`, as: 'programAdmin' });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'StatusListResponse');
      // Each top-level Status (the ones with a PublicId) is followed by its NextStatuses/Status references.
      const top = res.body.split(/(?=<Status [^>]*PublicId=)/).slice(1);
      assert.equal(top.length, 3, res.body);
      const described = top.map((s) => ({ ...elements(s, 'Status')[0], next: elements(s, 'Status').slice(1) }));
      assert.deepEqual(described, [
        {
          StatusId: IDS.draft, CustomId: 'draft', PublicId: 'DRAFT', Name: 'Draft', Initial: 'true',
          next: [{ StatusId: IDS.submitted, CustomId: 'submitted', Name: 'Submitted' }],
        },
        {
          StatusId: IDS.submitted, CustomId: 'submitted', PublicId: 'SUBMITTED', Name: 'Submitted', Initial: 'false',
          next: [{ StatusId: IDS.draft, CustomId: 'draft', Name: 'Draft' }, { StatusId: WF.approved, CustomId: 'approved', Name: 'Approved' }],
        },
        { StatusId: WF.approved, CustomId: 'approved', PublicId: 'APPROVED', Name: 'Approved', Initial: 'false', next: [] },
      ]);
    });

    it('answers 404 NOT_FOUND for an unknown program', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${API}/Programs/nosuchprogram/Statuses` }), 404, 'NOT_FOUND');
    });
  });

  describe('JSON', () => {
    it('answers GetForms, GetCustomListChoices and GetStatusList in JSON with the values of the XML answer', async () => {
      const h = harness();
      for (const [url, doc] of [[`${PROGRAM}/Forms`, FormsResponse], [`${PROGRAM}/CustomLists/sizes/Choices`, CustomListChoicesResponse], [`${PROGRAM}/Statuses`, StatusListResponse]] as const) {
        const json = assertJsonAnswer(await h.request({ method: 'GET', url, headers: JSON_ANSWER }), doc);
        assert.deepEqual(json, xmlAnswerValue(h, await h.request({ method: 'GET', url }), doc), url);
      }
    });

    it('answers GetFormSchema version 2 in JSON: typed flags and limits, Group, inline Choices', async () => {
      const h = harness();
      const schema = assertJsonAnswer(await h.request({ method: 'GET', url: `${PROGRAM}/Forms/application/Schema?version=2`, headers: JSON_ANSWER }), FormSchemaResponseV2);
      assert.equal(schema.SchemaVersion, '2.0');
      const [name, size, kw] = schema.Form.DataFields.DataField;
      assert.deepEqual(name, {
        DataFieldId: IDS.name, CustomId: 'name', Name: 'Applicant name', Type: 'text', Required: true, MultiValue: false, Sensitive: true, MaxLength: 100, Group: 'Applicant',
      });
      assert.deepEqual(size?.Choices?.Choice.map((c) => c.Value), ['S', 'M', 'L']);
      assert.deepEqual([kw?.MinValue, kw?.MaxValue, kw?.Choices], ['0.5', '1000.25', undefined]);
      assert.deepEqual(schema.Form.Attachments.Attachment[0]?.AllowedTypes, { Type: ['image/jpeg', 'image/png'] });
      assertJsonError(await h.request({ method: 'GET', url: `${PROGRAM}/Forms/application/Schema?version=3`, headers: JSON_ANSWER }), 400, 'INVALID_PARAMETER');
    });
  });

  it('changes nothing: no projects and no audit rows after all these reads', async () => {
    const h = harness();
    const state = await programState(h);
    assert.deepEqual(state.projects, []);
    assert.deepEqual(state.audit.filter((e) => e.action.startsWith('project.')), []);
  });
});
