import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, dataRequest, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import {
  COMPLETE, createProject, createSubmitted, dataPath, draftPath, fieldErrors, fieldValue, fieldValues, type MatrixRow, projectState,
  send, setDraft, sharedHarness, UNAUTHENTICATED,
} from './http-helpers.ts';

// SetProjectData: POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data  (draft)
//                 POST /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Data        (submitted, admin only)

/** A ProjectDataRequest with the DataField elements written out by hand. */
function rawRequest(dataFields: string): string {
  return `<ProjectDataRequest xmlns="${NS}"><Project><DataFields>${dataFields}</DataFields></Project></ProjectDataRequest>`;
}

/** The draft of a project as stored, by field custom id: Value, or Values for the multi-value field. */
async function storedDraft(h: HttpHarness, projectId: string): Promise<Record<string, string | string[] | null>> {
  const names: Record<string, string> = { [IDS.name]: 'name', [IDS.size]: 'size', [IDS.kw]: 'kw' };
  const out: Record<string, string | string[] | null> = {};
  for (const v of await h.store.projects.getDraft(projectId, IDS.form)) out[names[v.fieldId]!] = v.values ?? v.value;
  return out;
}

const complete = () => ({ name: COMPLETE.name, size: [...COMPLETE.size], kw: COMPLETE.kw });

forEachDialect('HTTP SetProjectData', ({ dialect }) => {
  const harness = sharedHarness(dialect);

  describe('draft', () => {
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
      it(`writes the draft of the applicant's project: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { name: 'First' });
        const before = await projectState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: draftPath(projectId), body: dataRequest({ kw: '5' }) });
        if (row.code) {
          assertError(h, res, row.status, row.code);
          assert.deepEqual(await projectState(h, projectId), before, 'a refused draft write changes nothing');
          return;
        }
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectDataSetResponse');
        assert.equal(attr(res.body, 'Project', 'DataView'), 'Draft');
        assert.equal(fieldValue(res.body, IDS.kw), '5');
        assert.equal(fieldValue(res.body, IDS.name), '********');
        const actor = h.who[row.who as Who].id;
        const after = await projectState(h, projectId);
        assert.deepEqual(await storedDraft(h, projectId), { name: 'First', kw: '5' });
        assert.deepEqual(after.project, { ...before.project!, updatedAt: h.clock.now(), updatedBy: actor, version: before.project!.version + 1 });
        assert.deepEqual(after.values, [], 'a draft write leaves the submitted data alone');
        assert.deepEqual(after.history, before.history);
        assert.deepEqual(after.audit[0] && [after.audit[0].action, after.audit[0].actorId, after.audit[0].detail], [
          'project.draft.set', actor, { formId: IDS.form, fields: [IDS.kw] },
        ]);
      });
    }

    it('updates only the fields sent, and a DataField without Value clears its field', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, complete());
      await setDraft(h, projectId, { size: ['L'] });
      assert.deepEqual(await storedDraft(h, projectId), { name: 'Jane Doe', size: ['L'], kw: '7.5' });

      h.clock.advance();
      const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ kw: null }) });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectDataSetResponse');
      assert.equal(fieldValue(res.body, IDS.kw), undefined);
      assert.equal(attr(res.body, 'Project', 'CanSubmit'), 'false', 'kw is required');

      const read = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
      assert.equal(fieldValue(read.body, IDS.name), '********');
      assert.deepEqual(fieldValues(read.body, IDS.size), ['L']);
      assert.equal(fieldValue(read.body, IDS.kw), undefined);
      assert.deepEqual(await storedDraft(h, projectId), { name: 'Jane Doe', size: ['L'], kw: null });
    });

    it('accepts generated field ids, values at the limits and an empty Values list', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { [IDS.name]: 'é'.repeat(100), [IDS.size]: ['M'], [IDS.kw]: '0.5' });
      assert.deepEqual(await storedDraft(h, projectId), { name: 'é'.repeat(100), size: ['M'], kw: '0.5' });
      await setDraft(h, projectId, { [IDS.name]: 'By id', [IDS.kw]: '1000.25' });
      assert.deepEqual(await storedDraft(h, projectId), { name: 'By id', size: ['M'], kw: '1000.25' });
      await setDraft(h, projectId, { size: [] });
      assert.deepEqual(await storedDraft(h, projectId), { name: 'By id', size: [], kw: '1000.25' });
    });

    it('merges the legacy Instance="0"/"1" repeats into Values, in Instance order', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const body = rawRequest('<DataField DataFieldId="size" Instance="1" Value="M"/><DataField DataFieldId="kw" Value="2"/><DataField DataFieldId="size" Instance="0" Value="S"/>');
      const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body });
      assert.equal(res.statusCode, 200, res.body);
      assert.deepEqual(fieldValues(res.body, IDS.size), ['S', 'M']);
      assert.deepEqual(await storedDraft(h, projectId), { size: ['S', 'M'], kw: '2' });
    });

    it('reports every problem of a request at once with 422 VALIDATION_FAILED and writes nothing, not even the valid fields', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      await setDraft(h, projectId, { name: 'Kept', kw: '9' });
      const before = await projectState(h, projectId);
      const body = dataRequest({ name: 'x'.repeat(101), size: ['S', 'XL'], kw: 'abc', colour: 'red' });
      const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body });
      assertError(h, res, 422, 'VALIDATION_FAILED');
      assert.deepEqual(fieldErrors(res), [`${IDS.kw}:INVALID_TYPE`, `${IDS.name}:TOO_LONG`, `${IDS.size}:NOT_IN_LIST`, 'colour:UNKNOWN_FIELD'].sort());
      assert.deepEqual(await projectState(h, projectId), before);
    });

    const problems: [string, string, string][] = [
      ['kw="abc"', '<DataField DataFieldId="kw" Value="abc"/>', `${IDS.kw}:INVALID_TYPE`],
      ['kw="0.1" (below 0.5)', '<DataField DataFieldId="kw" Value="0.1"/>', `${IDS.kw}:OUT_OF_RANGE`],
      ['kw="1000.26" (above 1000.25)', '<DataField DataFieldId="kw" Value="1000.26"/>', `${IDS.kw}:OUT_OF_RANGE`],
      ['size Values containing "XL"', '<DataField DataFieldId="size"><Values><Value>S</Value><Value>XL</Value></Values></DataField>', `${IDS.size}:NOT_IN_LIST`],
      ['name of 101 characters', `<DataField DataFieldId="name" Value="${'é'.repeat(101)}"/>`, `${IDS.name}:TOO_LONG`],
      ['an unknown field', '<DataField DataFieldId="nosuchfield" Value="1"/>', 'nosuchfield:UNKNOWN_FIELD'],
      ['an attachment id as a field', '<DataField DataFieldId="photo" Value="1"/>', 'photo:UNKNOWN_FIELD'],
      ['a Value on the multi-value field', '<DataField DataFieldId="size" Value="S"/>', `${IDS.size}:MULTI_VALUE_EXPECTED`],
      ['Values on a single-value field', '<DataField DataFieldId="name"><Values><Value>A</Value></Values></DataField>', `${IDS.name}:NOT_MULTI_VALUE`],
    ];
    for (const [what, field, expected] of problems) {
      it(`refuses ${what} with 422 VALIDATION_FAILED (${expected}) and writes nothing`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { name: 'Kept' });
        const before = await projectState(h, projectId);
        // A valid change of another field rides along and must not be written either.
        const valid = field.includes('"kw"') ? '<DataField DataFieldId="name" Value="Changed"/>' : '<DataField DataFieldId="kw" Value="3"/>';
        const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: rawRequest(`${valid}${field}`) });
        assertError(h, res, 422, 'VALIDATION_FAILED');
        assert.deepEqual(fieldErrors(res), [expected]);
        assert.deepEqual(await projectState(h, projectId), before);
      });
    }

    const badBodies: [string, string | undefined, Record<string, string>, number, string][] = [
      ['malformed XML', `<ProjectDataRequest xmlns="${NS}"><Project>`, {}, 400, 'MALFORMED_XML'],
      ['a DOCTYPE', `<!DOCTYPE ProjectDataRequest><ProjectDataRequest xmlns="${NS}"><Project/></ProjectDataRequest>`, {}, 400, 'MALFORMED_XML'],
      ['no namespace', '<ProjectDataRequest><Project><DataFields><DataField DataFieldId="kw" Value="3"/></DataFields></Project></ProjectDataRequest>', {}, 400, 'WRONG_NAMESPACE'],
      ['Value and Values together', rawRequest('<DataField DataFieldId="size" Value="S"><Values><Value>S</Value></Values></DataField>'), {}, 400, 'INVALID_REQUEST'],
      ['one field twice', rawRequest('<DataField DataFieldId="kw" Value="3"/><DataField DataFieldId="kw" Value="4"/>'), {}, 400, 'INVALID_REQUEST'],
      ['one Instance twice', rawRequest('<DataField DataFieldId="size" Instance="0" Value="S"/><DataField DataFieldId="size" Instance="0" Value="M"/>'), {}, 400, 'INVALID_REQUEST'],
      ['text/plain', dataRequest({ kw: '3' }), { 'content-type': 'text/plain' }, 415, 'UNSUPPORTED_MEDIA_TYPE'],
      ['no body', undefined, {}, 400, 'INVALID_REQUEST'],
    ];
    for (const [what, body, headers, status, code] of badBodies) {
      it(`refuses ${what} with ${status} ${code} and writes nothing`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { kw: '9' });
        const before = await projectState(h, projectId);
        assertError(h, await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body, headers }), status, code);
        assert.deepEqual(await projectState(h, projectId), before);
      });
    }

    it('answers 404 NOT_FOUND for an unknown form and writes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      assertError(h, await h.request({ method: 'POST', url: draftPath(projectId, 'nosuchform'), as: 'applicant', body: dataRequest({ kw: '3' }) }), 404, 'NOT_FOUND');
      assert.deepEqual(await projectState(h, projectId), before);
    });

    it('after submission: 409 FORM_NOT_AVAILABLE for the applicant and an editor, but an admin may still write the draft', async () => {
      const h = harness();
      const { projectId } = await createSubmitted(h, 'applicant');
      const before = await projectState(h, projectId);
      for (const who of ['applicant', 'editor'] as const) {
        const res = await h.request({ method: 'POST', url: draftPath(projectId), as: who, body: dataRequest({ kw: '8' }) });
        assertError(h, res, 409, 'FORM_NOT_AVAILABLE');
        assert.deepEqual(await projectState(h, projectId), before, `${who}'s refused write changed nothing`);
      }
      for (const who of ['admin', 'programAdmin'] as const) {
        h.clock.advance();
        const res = await h.request({ method: 'POST', url: draftPath(projectId), as: who, body: dataRequest({ kw: who === 'admin' ? '8' : '9' }) });
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectDataSetResponse');
      }
      assert.equal((await storedDraft(h, projectId)).kw, '9');
      const after = await projectState(h, projectId);
      assert.deepEqual(after.values, before.values, 'the submitted data is untouched');
      assert.equal(after.project?.statusId, IDS.submitted);
    });
  });

  describe('submitted (admin only)', () => {
    const matrix: MatrixRow[] = [
      { who: 'admin', status: 200 },
      { who: 'programAdmin', status: 200 },
      { who: 'editor', status: 403, code: 'FORBIDDEN' },
      { who: 'reader', status: 403, code: 'FORBIDDEN' },
      { who: 'applicant', status: 403, code: 'FORBIDDEN' },
      { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' },
      { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const row of matrix) {
      it(`writes complete submitted data: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const h = harness();
        const projectId = await createProject(h, 'applicant');
        await setDraft(h, projectId, { kw: '1' });
        const before = await projectState(h, projectId);
        h.clock.advance();
        const res = await send(h, row.who, { method: 'POST', url: dataPath(projectId), body: dataRequest(complete()) });
        if (row.code) {
          assertError(h, res, row.status, row.code);
          assert.deepEqual(await projectState(h, projectId), before, 'a refused submitted-data write changes nothing');
          return;
        }
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectDataSetResponse');
        assert.equal(attr(res.body, 'Project', 'DataView'), 'Submitted');
        assert.equal(fieldValue(res.body, IDS.kw), '7.5');

        const read = await h.request({ method: 'GET', url: dataPath(projectId), as: 'applicant' });
        assert.equal(read.statusCode, 200, read.body);
        assertValidXml(h, read, 'ProjectDataGetResponse');
        assert.equal(fieldValue(read.body, IDS.name), '********');
        assert.deepEqual(fieldValues(read.body, IDS.size), ['S', 'M']);
        assert.equal(fieldValue(read.body, IDS.kw), '7.5');

        const after = await projectState(h, projectId);
        assert.deepEqual(after.values.map((v) => v.values ?? v.value), ['Jane Doe', ['S', 'M'], '7.5']);
        // One value per field: the draft's earlier change of kw is settled by the later write, and the draft shows it.
        assert.deepEqual(after.draft, [], 'the draft holds no stale change');
        const draft = await h.request({ method: 'GET', url: draftPath(projectId), as: 'applicant' });
        assert.equal(fieldValue(draft.body, IDS.kw), '7.5');
        assert.equal(after.project?.statusId, IDS.draft, 'writing submitted data is no submission');
        assert.equal(after.project?.number, null);
        assert.deepEqual(after.history, before.history);
        assert.equal(after.audit[0]?.action, 'project.data.set');
        assert.equal(after.audit[0]?.actorId, h.who[row.who as Who].id);
      });
    }

    it('refuses an incomplete form with 422 FORM_INCOMPLETE listing the REQUIRED fields, and writes nothing', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      const res = await h.request({ method: 'POST', url: dataPath(projectId), body: dataRequest({ size: ['S'] }) });
      assertError(h, res, 422, 'FORM_INCOMPLETE');
      assert.deepEqual(fieldErrors(res), [`${IDS.kw}:REQUIRED`, `${IDS.name}:REQUIRED`].sort());
      assert.match(res.body, /<FieldError [^>]*Code="REQUIRED"/);
      assert.deepEqual(await projectState(h, projectId), before);
    });

    it('completes with values already submitted: sending only kw on a complete project is fine, clearing name is not', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      h.clock.advance();
      assert.equal((await h.request({ method: 'POST', url: dataPath(projectId), body: dataRequest(complete()) })).statusCode, 200);
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: dataPath(projectId), body: dataRequest({ kw: '42' }) });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(fieldValue(res.body, IDS.kw), '42');
      assert.deepEqual(fieldValues(res.body, IDS.size), ['S', 'M']);

      const before = await projectState(h, projectId);
      const cleared = await h.request({ method: 'POST', url: dataPath(projectId), body: dataRequest({ name: null }) });
      assertError(h, cleared, 422, 'FORM_INCOMPLETE');
      assert.deepEqual(fieldErrors(cleared), [`${IDS.name}:REQUIRED`]);
      assert.deepEqual(await projectState(h, projectId), before);
    });

    it('checks values as for drafts: 422 VALIDATION_FAILED and nothing written', async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      const res = await h.request({ method: 'POST', url: dataPath(projectId), body: dataRequest({ ...complete(), kw: 'abc' }) });
      assertError(h, res, 422, 'VALIDATION_FAILED');
      assert.deepEqual(fieldErrors(res), [`${IDS.kw}:INVALID_TYPE`]);
      assert.deepEqual(await projectState(h, projectId), before);
    });
  });

  /** A ProjectDataRequest whose Project element carries the given attributes. */
  const withIds = (attrs: string) => `<ProjectDataRequest xmlns="${NS}"><Project ${attrs}><DataFields><DataField DataFieldId="name" Value="Named"/></DataFields></Project></ProjectDataRequest>`;

  it('accepts a body whose ProjectId and FormId name the path\'s project and form, by id or custom id', async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    for (const attrs of [`ProjectId="${projectId}"`, `FormId="${IDS.form}"`, `ProjectId="${projectId}" FormId="application"`]) {
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: withIds(attrs) });
      assert.equal(res.statusCode, 200, `${attrs}: ${res.body}`);
    }
    const res = await h.request({ method: 'POST', url: draftPath(projectId, IDS.form), as: 'applicant', body: withIds('FormId="application"') });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal((await storedDraft(h, projectId)).name, 'Named');
  });

  for (const [label, path, who] of [['draft', draftPath, 'applicant'], ['submitted data', dataPath, 'admin']] as const) {
    it(`refuses a ${label} write whose body names another project or form with 400 INVALID_REQUEST naming both, and writes nothing`, async () => {
      const h = harness();
      const projectId = await createProject(h, 'applicant');
      const otherId = await createProject(h, 'applicant');
      const before = await projectState(h, projectId);
      const otherBefore = await projectState(h, otherId);
      const project = await h.request({ method: 'POST', url: path(projectId), as: who, body: withIds(`ProjectId="${otherId}"`) });
      assertError(h, project, 400, 'INVALID_REQUEST');
      assert.match(project.body, new RegExp(`${otherId}.*${projectId}`));
      const form = await h.request({ method: 'POST', url: path(projectId), as: who, body: withIds(`ProjectId="${projectId}" FormId="other-form"`) });
      assertError(h, form, 400, 'INVALID_REQUEST');
      assert.match(form.body, /other-form.*application/);
      assert.deepEqual(await projectState(h, projectId), before, 'nothing changed on the project of the path');
      assert.deepEqual(await projectState(h, otherId), otherBefore, 'nothing changed on the project of the body');
    });
  }
});
