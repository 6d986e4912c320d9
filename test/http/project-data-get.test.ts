import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { isoTimestamp } from '../../src/model/clock.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs } from '../support/http-harness.ts';
import {
  API, COMPLETE, createProject, createSubmitted, dataField, dataPath, draftPath, EVERYONE, fieldValue, fieldValues, type MatrixRow,
  send, setDraft, sharedHarness, UNAUTHENTICATED,
} from './http-helpers.ts';

// GetProjectData: GET /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Data        (submitted)
//                 GET /services/v2/Programs/{ProgramId}/Projects/{ProjectId}/Forms/{FormId}/Draft/Data  (draft)

const MASK = '********';

forEachDialect('HTTP GetProjectData', ({ dialect }) => {
  // Counts the drafts read (alone, or gathered with the project by GetProjectData's one statement), to show which reads need none.
  let draftReads = 0;
  const harness = sharedHarness(dialect, {}, (store) => ({
    ...store,
    projects: {
      ...store.projects,
      getDraft: (projectId, formId) => {
        draftReads += 1;
        return store.projects.getDraft(projectId, formId);
      },
      readFormData: (request) => {
        if (request.draftFormId !== null) draftReads += 1;
        return store.projects.readFormData(request);
      },
    },
  }));
  // draftOnly: the applicant's project with a complete draft, never submitted. submitted: the applicant's submitted project.
  let draftOnly = '';
  let empty = '';
  let submitted = '';
  let submittedNumber = '';

  before(async () => {
    const h = harness();
    draftOnly = await createProject(h, 'applicant');
    await setDraft(h, draftOnly, { name: COMPLETE.name, size: [...COMPLETE.size], kw: COMPLETE.kw });
    empty = await createProject(h, 'applicant');
    ({ projectId: submitted, number: submittedNumber } = await createSubmitted(h, 'applicant'));
  });

  const matrix: MatrixRow[] = [
    { who: 'admin', status: 200 },
    { who: 'programAdmin', status: 200 },
    { who: 'editor', status: 200 },
    { who: 'reader', status: 200 },
    { who: 'applicant', status: 200 },
    { who: 'otherApplicant', status: 404, code: 'NOT_FOUND' },
    { who: 'outsider', status: 403, code: 'FORBIDDEN' },
    ...UNAUTHENTICATED,
  ];
  for (const view of ['Draft', 'Submitted'] as const) {
    for (const row of matrix) {
      it(`${view} view of the applicant's project: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const h = harness();
        const url = view === 'Draft' ? draftPath(submitted) : dataPath(submitted);
        const res = await send(h, row.who, { method: 'GET', url });
        if (row.code) return assertError(h, res, row.status, row.code);
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectDataGetResponse');
        assert.equal(attr(res.body, 'Project', 'DataView'), view);
        assert.equal(attr(res.body, 'Project', 'ProjectId'), submitted);
      });
    }
  }

  it('shows the draft: fields in form order, the sensitive name masked, Values for the multi-value field, CanSubmit', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: draftPath(draftOnly), as: 'applicant' });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectDataGetResponse');
    assert.equal(attr(res.body, 'Project', 'ProgramId'), IDS.program);
    assert.equal(attr(res.body, 'Project', 'FormId'), IDS.form);
    assert.equal(attr(res.body, 'Project', 'DataView'), 'Draft');
    assert.equal(attr(res.body, 'Project', 'CanSubmit'), 'true');
    assert.equal(attr(res.body, 'Project', 'ProjectNumber'), undefined);
    assert.equal(attr(res.body, 'Project', 'Url'), `http://apas.test/MvcProjects/LandingPage?ProgramId=${IDS.program}&amp;ProjectId=${draftOnly}`);
    const stored = (await h.store.projects.getProject(IDS.program, draftOnly))!;
    assert.equal(attr(res.body, 'Project', 'LastChangeTimestamp'), isoTimestamp(stored.updatedAt));
    assert.equal(attr(res.body, 'CurrentStatus', 'Name'), 'Draft');
    assert.deepEqual(attrs(res.body, 'DataField', 'DataFieldId'), [IDS.name, IDS.size, IDS.kw]);
    assert.deepEqual(attrs(res.body, 'DataField', 'CustomId'), ['name', 'size', 'kw']);
    assert.deepEqual(attrs(res.body, 'DataField', 'Name'), ['Applicant name', 'System size', 'Capacity (kW)']);
    assert.equal(fieldValue(res.body, IDS.name), MASK);
    assert.doesNotMatch(res.body, /Jane/);
    assert.deepEqual(fieldValues(res.body, IDS.size), ['S', 'M']);
    assert.equal(fieldValue(res.body, IDS.size), undefined, 'a multi-value field has no Value attribute');
    assert.equal(fieldValue(res.body, IDS.kw), '7.5');
    assert.deepEqual(attrs(res.body, 'Attachment', 'CustomId'), ['photo']);
  });

  it('shows CanSubmit="false" to a reader, who may not write the project', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: draftPath(draftOnly), as: 'reader' });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(attr(res.body, 'Project', 'CanSubmit'), 'false');
    assert.equal(fieldValue(res.body, IDS.name), MASK, 'masked for every role');
  });

  it('shows an empty draft without values and with CanSubmit="false"', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: draftPath(empty), as: 'applicant' });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectDataGetResponse');
    assert.equal(attr(res.body, 'Project', 'CanSubmit'), 'false');
    assert.deepEqual(attrs(res.body, 'DataField', 'DataFieldId'), [IDS.name, IDS.size, IDS.kw]);
    assert.deepEqual(attrs(res.body, 'DataField', 'Value'), []);
    assert.equal(fieldValues(res.body, IDS.size), null);
  });

  it('shows no submitted values for a project whose draft was never submitted', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: dataPath(draftOnly), as: 'applicant' });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectDataGetResponse');
    assert.equal(attr(res.body, 'Project', 'DataView'), 'Submitted');
    assert.deepEqual(attrs(res.body, 'DataField', 'Value'), []);
    assert.equal(fieldValues(res.body, IDS.size), null);
    assert.equal(attr(res.body, 'Project', 'CanSubmit'), 'true', 'CanSubmit is about the draft');
  });

  it('reads the draft only when it shows it or it decides CanSubmit', async () => {
    const h = harness();
    draftReads = 0;
    // A reader may not submit, so the submitted view needs no draft; the owner's of a project in its first status does.
    const read = await h.request({ method: 'GET', url: dataPath(submitted), as: 'reader' });
    assert.equal(read.statusCode, 200, read.body);
    assert.equal(attr(read.body, 'Project', 'CanSubmit'), 'false');
    assert.deepEqual(fieldValues(read.body, IDS.size), ['S', 'M']);
    assert.equal(draftReads, 0, 'no draft read for a view that neither shows nor needs it');
    const owner = await h.request({ method: 'GET', url: dataPath(draftOnly), as: 'applicant' });
    assert.equal(attr(owner.body, 'Project', 'CanSubmit'), 'true', 'CanSubmit is about the draft');
    assert.equal(draftReads, 1);
    const shown = await h.request({ method: 'GET', url: draftPath(submitted), as: 'reader' });
    assert.equal(shown.statusCode, 200, shown.body);
    assert.equal(draftReads, 2);
  });

  it('shows the submitted values of a submitted project, with its number and status', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: dataPath(submitted), as: 'applicant' });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectDataGetResponse');
    assert.equal(attr(res.body, 'Project', 'ProjectNumber'), submittedNumber);
    assert.equal(attr(res.body, 'CurrentStatus', 'Name'), 'Submitted');
    assert.equal(attr(res.body, 'Project', 'CanSubmit'), 'false', 'the form is not available in status Submitted');
    assert.equal(fieldValue(res.body, IDS.name), MASK);
    assert.deepEqual(fieldValues(res.body, IDS.size), ['S', 'M']);
    assert.equal(fieldValue(res.body, IDS.kw), '7.5');
  });

  it('addresses the form and program by generated id exactly as by custom id', async () => {
    const h = harness();
    const byCustom = await h.request({ method: 'GET', url: draftPath(draftOnly) });
    const byId = await h.request({ method: 'GET', url: `${API}/Programs/${IDS.program}/Projects/${draftOnly}/Forms/${IDS.form}/Draft/Data` });
    assert.equal(byId.statusCode, 200, byId.body);
    assert.equal(dataField(byId.body, IDS.kw), dataField(byCustom.body, IDS.kw));
    assert.deepEqual(attrs(byId.body, 'DataField', 'DataFieldId'), attrs(byCustom.body, 'DataField', 'DataFieldId'));
  });

  for (const [what, url] of [
    ['an unknown form', () => draftPath(draftOnly, 'nosuchform')],
    ['an unknown form (submitted view)', () => dataPath(draftOnly, 'FORM00000099')],
    ['an unknown project', () => draftPath('NOSUCHPROJCT')],
    ['an unknown program', () => `${API}/Programs/nowhere/Projects/${draftOnly}/Forms/application/Data`],
  ] as const) {
    it(`answers 404 NOT_FOUND for ${what}`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: url() }), 404, 'NOT_FOUND');
    });
  }

  // Nobody has multi-factor authentication yet, so nobody may reveal sensitive values; the outsider fails earlier.
  for (const who of EVERYONE) {
    const [status, code] = who === 'outsider' ? [403, 'FORBIDDEN'] : [403, 'SENSITIVE_DATA_NOT_ALLOWED'];
    it(`refuses reveal_sensitive_data=true for ${who} with ${status} ${code}`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${draftPath(draftOnly)}?reveal_sensitive_data=true`, as: who }), status, code);
      assertError(h, await h.request({ method: 'GET', url: `${dataPath(submitted)}?reveal_sensitive_data=TRUE`, as: who }), status, code);
    });
  }

  it('accepts reveal_sensitive_data=false and still masks', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: `${draftPath(draftOnly)}?reveal_sensitive_data=false` });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(fieldValue(res.body, IDS.name), MASK);
  });

  for (const query of ['reveal_sensitive_data=maybe', 'reveal_sensitive_data=', 'reveal_sensitive_data=1', 'reveal_sensitive_data=false&reveal_sensitive_data=false']) {
    it(`refuses ?${query} with 400 INVALID_PARAMETER`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${draftPath(draftOnly)}?${query}` }), 400, 'INVALID_PARAMETER');
    });
  }
});
