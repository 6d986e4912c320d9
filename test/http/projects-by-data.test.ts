import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { isoTimestamp } from '../../src/model/clock.ts';
import { ProjectsResponseExtended } from '../../src/wire/documents/projects.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, dataRequest, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { assertJsonError, assertSameAnswer, JSON_BODY } from '../support/json-answers.ts';
import { WF } from '../support/workflow-fixtures.ts';
import { readBack } from '../xml/xml-test-helpers.ts';
import { API, createProject, dataPath, type MatrixRow, programState, send, setDraft, submitPath, UNAUTHENTICATED } from './http-helpers.ts';
import { type ByData, byDataRequest, elements, setStatus, sharedWorkflowHarness, urls } from './workflow-helpers.ts';

/** The ProjectByDataRequest of `q` in JSON: the same filters as byDataRequest writes in XML. */
function byDataJson(q: ByData): string {
  return JSON.stringify({
    ...(q.statuses ? { FilterByCurrentStatuses: { Operation: q.statuses.operation, Status: q.statuses.ids.map((Id) => ({ Id })) } } : {}),
    FilterByStatusDate: (q.dates ?? []).map((d) => ({ Id: d.id, DateTime: d.dateTime, Operator: d.operator })),
    ...(q.fields ? { DataFields: { Field: q.fields.map((f) => ({ Id: f.id, Content: f.content, Operator: f.operator })) } } : {}),
  });
}

// GetProjectsByData: POST /services/v2/Programs/{ProgramId}/Projects/ByData?version=&limit=&offset=
//   body <ProjectByDataRequest xmlns="…"> FilterByCurrentStatuses, FilterByStatusDate*, DataFields/Field* </…>, all ANDed

/** The eight projects of the search, p1 … p8 in creation order. */
type P = 'p1' | 'p2' | 'p3' | 'p4' | 'p5' | 'p6' | 'p7' | 'p8';
const ALL: P[] = ['p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'];
const except = (...left: P[]) => ALL.filter((p) => !left.includes(p));

/**
 * What each project holds (submitted values), who owns it and where it ends up. p5 has no values at all;
 * p6's values were written by an admin without submitting; p8's size is an empty list and its notes empty text.
 */
const DATA: Record<P, { owner: Who; values?: Record<string, string | string[]>; via: 'submit' | 'admin' | 'none' }> = {
  p1: { owner: 'applicant', via: 'submit', values: { name: 'Alice Smith', size: ['S'], kw: '9', notes: 'Roof mounted', tags: ['Rooftop', 'south'] } },
  p2: { owner: 'applicant', via: 'submit', values: { name: 'Bob', size: ['M', 'L'], kw: '10', notes: 'ground MOUNT', tags: ['ground', 'tracker'] } },
  p3: { owner: 'otherApplicant', via: 'submit', values: { name: 'Carol', size: ['L'], kw: '100', notes: 'carport', tags: ['carport'] } },
  p4: { owner: 'applicant', via: 'submit', values: { name: 'Dan', kw: '9.5' } },
  p5: { owner: 'applicant', via: 'none' },
  p6: { owner: 'applicant', via: 'admin', values: { name: 'Eve', size: ['S', 'M'], kw: '10.0', tags: ['ROOF', 'east-west'] } },
  p7: { owner: 'otherApplicant', via: 'submit', values: { name: 'frank', size: ['M'], kw: '0.5', notes: '50% done', tags: ['50%'] } },
  p8: { owner: 'applicant', via: 'submit', values: { name: 'Gina', size: [], kw: '1000', notes: '' } },
};

forEachDialect('HTTP GetProjectsByData', ({ dialect }) => {
  // Searching only reads, so one set of projects serves the whole file.
  const harness = sharedWorkflowHarness(dialect);
  const id = {} as Record<P, string>;
  const at = {} as Record<'submitted' | 'drafted', Partial<Record<P, number>>>;
  let mid = 0;

  before(async () => {
    const h = harness();
    at.submitted = {};
    at.drafted = {};
    for (const p of ALL) {
      if (p === 'p5') mid = h.clock.advance(); // p1 … p4 were submitted before mid, p7 and p8 after
      const spec = DATA[p];
      id[p] = await createProject(h, spec.owner);
      at.drafted[p] = h.clock.now();
      if (spec.via === 'submit') {
        await setDraft(h, id[p], spec.values!, spec.owner);
        at.submitted[p] = h.clock.advance();
        const res = await h.request({ method: 'POST', url: submitPath(id[p]), as: spec.owner });
        assert.equal(res.statusCode, 200, res.body);
      }
      if (spec.via === 'admin') {
        h.clock.advance();
        const res = await h.request({ method: 'POST', url: dataPath(id[p]), body: dataRequest(spec.values!) });
        assert.equal(res.statusCode, 200, res.body);
      }
    }
    // Installation dates, written by an admin on the archive form (available in no status).
    for (const [p, installed] of [['p2', '2026-02-01'], ['p3', '2026-03-15'], ['p7', '2025-12-31']] as const) {
      h.clock.advance();
      const res = await h.request({ method: 'POST', url: dataPath(id[p], 'archive'), body: dataRequest({ installed }) });
      assert.equal(res.statusCode, 200, res.body);
    }
    // A reviewer's verdict on p2 (the field is on the staff-only review form only).
    h.clock.advance();
    const review = await h.request({ method: 'POST', url: dataPath(id.p2, 'review'), body: dataRequest({ notes: 'ground MOUNT', verdict: 'fine' }) });
    assert.equal(review.statusCode, 200, review.body);
    await setStatus(h, id.p8, 'approved');
    await setStatus(h, id.p1, 'draft');
    at.drafted.p1 = h.clock.now();
  });

  /** The projects a search finds, as p-names, after checking status and XSD. */
  async function search(h: HttpHarness, q: ByData | string, opts: { who?: Who; query?: string; schema?: string } = {}): Promise<P[]> {
    const body = typeof q === 'string' ? q : byDataRequest(q);
    const res = await h.request({ method: 'POST', url: `${urls.byData}${opts.query ?? ''}`, as: opts.who ?? 'admin', body });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, opts.schema ?? 'ProjectsResponse');
    const byId = new Map(ALL.map((p) => [id[p], p]));
    return attrs(res.body, 'Project', 'ProjectId').map((x) => byId.get(x) ?? (x as P));
  }

  describe('access', () => {
    const matrix: (MatrixRow & { sees?: P[] })[] = [
      { who: 'admin', status: 200, sees: ['p2', 'p3', 'p4', 'p6', 'p8'] },
      { who: 'programAdmin', status: 200, sees: ['p2', 'p3', 'p4', 'p6', 'p8'] },
      { who: 'editor', status: 200, sees: ['p2', 'p3', 'p4', 'p6', 'p8'] },
      { who: 'reader', status: 200, sees: ['p2', 'p3', 'p4', 'p6', 'p8'] },
      { who: 'applicant', status: 200, sees: ['p2', 'p4', 'p6', 'p8'] },
      { who: 'otherApplicant', status: 200, sees: ['p3'] },
      { who: 'outsider', status: 403, code: 'FORBIDDEN' },
      ...UNAUTHENTICATED,
    ];
    for (const row of matrix) {
      it(`finds kw > 9 among the readable projects only: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
        const h = harness();
        const res = await send(h, row.who, { method: 'POST', url: urls.byData, body: byDataRequest({ fields: [{ id: 'kw', operator: 'gt', content: '9' }] }) });
        if (row.code) return assertError(h, res, row.status, row.code);
        assert.equal(res.statusCode, 200, res.body);
        assertValidXml(h, res, 'ProjectsResponse');
        assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), row.sees!.map((p) => id[p]));
      });
    }

    it('answers 404 NOT_FOUND for an unknown program', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'POST', url: `${API}/Programs/nosuchprogram/Projects/ByData`, body: byDataRequest({}) }), 404, 'NOT_FOUND');
    });

    it('lets an applicant filter on the fields of the forms they may read, not on those of staff-only forms', async () => {
      const h = harness();
      assert.deepEqual(await search(h, { fields: [{ id: 'verdict', content: 'fine' }] }, { who: 'reader' }), ['p2']);
      assert.deepEqual(await search(h, { fields: [{ id: WF.verdict, operator: 'notempty' }] }, { who: 'editor' }), ['p2']);
      assert.deepEqual(await search(h, { fields: [{ id: 'notes', operator: 'contains', content: 'ground' }] }, { who: 'applicant' }), ['p2']);
      for (const field of [{ id: 'verdict', content: 'fine' }, { id: WF.verdict, operator: 'empty' }]) {
        assertError(h, await h.request({ method: 'POST', url: urls.byData, as: 'applicant', body: byDataRequest({ fields: [field] }) }), 400, 'INVALID_REQUEST');
      }
    });
  });

  describe('the response', () => {
    it('without filters lists every project in creation order (base variant, SchemaVersion 1.0)', async () => {
      const h = harness();
      for (const query of ['', '?version=1', '?version=v1']) {
        assert.deepEqual(await search(h, {}, { query }), ALL);
      }
      const res = await h.request({ method: 'POST', url: urls.byData, body: byDataRequest({}) });
      assert.equal(attr(res.body, 'ProjectsResponse', 'SchemaVersion'), '1.0');
      assert.equal(attr(res.body, 'ProjectsResponse', 'RequestTimestamp'), isoTimestamp(h.clock.now()));
      assert.doesNotMatch(res.body, /StatusCustomId|StatusPublicId/);
    });

    it('answers the extended variant for version 2, with each project described as GetProjects does', async () => {
      const h = harness();
      const found = await search(h, { statuses: { operation: 'Include', ids: ['approved', 'draft'] } }, { query: '?version=2', schema: 'ProjectsResponseExtended' });
      assert.deepEqual(found, ['p1', 'p5', 'p6', 'p8']);
      const res = await h.request({ method: 'POST', url: `${urls.byData}?version=2`, body: byDataRequest({ statuses: { operation: 'Include', ids: ['approved'] } }) });
      assertValidXml(h, res, 'ProjectsResponseExtended');
      assert.equal(attr(res.body, 'ProjectsResponse', 'SchemaVersion'), '2.0');
      const stored = (await h.store.projects.getProject(IDS.program, id.p8))!;
      assert.deepEqual(elements(res.body, 'Project'), [{
        ProjectId: id.p8, ProgramId: IDS.program, ProjectNumber: stored.number!, Status: 'Approved', StatusTimestamp: isoTimestamp(stored.statusAt),
        LastChangeTimestamp: isoTimestamp(stored.updatedAt), StatusCustomId: 'approved', StatusPublicId: 'APPROVED',
      }]);
      const listed = await h.request({ method: 'GET', url: `${API}/Programs/solar/Projects?version=2` });
      assert.deepEqual(elements(listed.body, 'Project').filter((p) => p.ProjectId === id.p8), elements(res.body, 'Project'), 'the same as GetProjects');
    });

    it('reads a JSON request and answers in JSON with the values of the XML answer', async () => {
      const h = harness();
      const q: ByData = {
        statuses: { operation: 'exclude', ids: ['approved'] },
        dates: [{ id: 'draft', dateTime: isoTimestamp(mid), operator: 'gt' }],
        fields: [{ id: 'kw', operator: 'notempty', content: 'ignored' }, { id: 'kw', operator: 'lt', content: '10' }],
      };
      const url = `${urls.byData}?version=2`;
      const json = await h.request({ method: 'POST', url, body: byDataJson(q), headers: JSON_BODY });
      const xml = await h.request({ method: 'POST', url, body: byDataRequest(q) });
      const value = assertSameAnswer(h, xml, json, ProjectsResponseExtended);
      assert.deepEqual(value.Projects.Project.map((p) => p.ProjectId), [id.p1, id.p7]);
    });

    it('pages in creation order with limit and offset', async () => {
      const h = harness();
      const q: ByData = { fields: [{ id: 'kw', operator: 'notempty' }] };
      assert.deepEqual(await search(h, q), except('p5'));
      assert.deepEqual(await search(h, q, { query: '?limit=3' }), ['p1', 'p2', 'p3']);
      assert.deepEqual(await search(h, q, { query: '?limit=3&offset=3' }), ['p4', 'p6', 'p7']);
      assert.deepEqual(await search(h, q, { query: '?limit=3&offset=6' }), ['p8']);
      assert.deepEqual(await search(h, q, { query: '?limit=3&offset=9' }), []);
      assert.deepEqual(await search(h, q, { query: '?offset=5&version=2', schema: 'ProjectsResponseExtended' }), ['p7', 'p8']);
      assert.deepEqual(await search(h, q, { query: '?limit=2&offset=1', who: 'applicant' }), ['p2', 'p4'], 'pages of the applicant’s own matches');
    });

    for (const query of ['?version=3', '?version=x', '?limit=0', '?limit=1001', '?offset=-1', '?limit=abc']) {
      it(`refuses ${query} with 400 INVALID_PARAMETER`, async () => {
        const h = harness();
        assertError(h, await h.request({ method: 'POST', url: `${urls.byData}${query}`, body: byDataRequest({}) }), 400, 'INVALID_PARAMETER');
      });
    }
  });

  describe('FilterByCurrentStatuses', () => {
    const cases: [string, ByData['statuses'], P[]][] = [
      ['Include one status by custom id', { operation: 'Include', ids: ['draft'] }, ['p1', 'p5', 'p6']],
      ['Include by generated and custom id', { operation: 'Include', ids: [IDS.submitted, 'approved'] }, ['p2', 'p3', 'p4', 'p7', 'p8']],
      ['Include in lower case', { operation: 'include', ids: ['approved'] }, ['p8']],
      ['Exclude one status', { operation: 'Exclude', ids: ['draft'] }, ['p2', 'p3', 'p4', 'p7', 'p8']],
      ['Exclude two statuses, in upper case', { operation: 'EXCLUDE', ids: ['draft', WF.approved] }, ['p2', 'p3', 'p4', 'p7']],
      ['Exclude every status', { operation: 'Exclude', ids: ['draft', 'submitted', 'approved'] }, []],
    ];
    for (const [what, statuses, expected] of cases) {
      it(`${what} → ${expected.join(', ') || 'nothing'}`, async () => {
        assert.deepEqual(await search(harness(), { statuses }), expected);
      });
    }
  });

  describe('FilterByStatusDate', () => {
    // p1 … p4 were submitted before mid, p7 and p8 after; p1 went back to Draft after mid; p5 … p8 were created after mid.
    const cases: [string, () => ByData['dates'], P[]][] = [
      ['Submitted lt mid', () => [{ id: 'submitted', dateTime: isoTimestamp(mid), operator: 'lt' }], ['p1', 'p2', 'p3', 'p4']],
      ['Submitted gt mid', () => [{ id: 'submitted', dateTime: isoTimestamp(mid), operator: 'gt' }], ['p7', 'p8']],
      ['Draft gt mid (a recurring status counts at every time it was set)', () => [{ id: IDS.draft, dateTime: isoTimestamp(mid), operator: 'gt' }], ['p1', 'p5', 'p6', 'p7', 'p8']],
      ['Submitted eq the time p2 was submitted', () => [{ id: 'submitted', dateTime: isoTimestamp(at.submitted.p2!), operator: 'eq' }], ['p2']],
      ['Submitted le the time p2 was submitted', () => [{ id: 'submitted', dateTime: isoTimestamp(at.submitted.p2!), operator: 'le' }], ['p1', 'p2']],
      ['Submitted lt the time p2 was submitted', () => [{ id: 'submitted', dateTime: isoTimestamp(at.submitted.p2!), operator: 'lt' }], ['p1']],
      ['Submitted ge the time p7 was submitted', () => [{ id: 'submitted', dateTime: isoTimestamp(at.submitted.p7!), operator: 'ge' }], ['p7', 'p8']],
      ['Approved ge mid', () => [{ id: 'approved', dateTime: isoTimestamp(mid), operator: 'ge' }], ['p8']],
      ['DateTime without offset is UTC', () => [{ id: 'submitted', dateTime: new Date(mid).toISOString().slice(0, 19), operator: 'gt' }], ['p7', 'p8']],
      ['DateTime with another offset', () => [{ id: 'submitted', dateTime: `${new Date(mid - 7 * 3_600_000).toISOString().slice(0, 19)}-07:00`, operator: 'lt' }], ['p1', 'p2', 'p3', 'p4']],
      ['two filters, ANDed: Draft gt mid and Submitted lt mid', () => [
        { id: 'draft', dateTime: isoTimestamp(mid), operator: 'gt' }, { id: 'submitted', dateTime: isoTimestamp(mid), operator: 'lt' },
      ], ['p1']],
    ];
    for (const [what, dates, expected] of cases) {
      it(`${what} → ${expected.join(', ')}`, async () => {
        assert.deepEqual(await search(harness(), { dates: dates() }), expected);
      });
    }
  });

  describe('DataFields', () => {
    type Case = [string, string, string | undefined, P[]];
    const groups: [string, Case[]][] = [
      ['kw (number: compared as numbers)', [
        ['kw', 'eq', '10', ['p2', 'p6']],
        ['kw', 'eq', '1e1', ['p2', 'p6']],
        ['kw', 'ne', '10', except('p2', 'p6')],
        ['kw', 'lt', '10', ['p1', 'p4', 'p7']],
        ['kw', 'le', '9.5', ['p1', 'p4', 'p7']],
        ['kw', 'gt', '9', ['p2', 'p3', 'p4', 'p6', 'p8']],
        ['kw', 'ge', '100', ['p3', 'p8']],
        ['kw', 'gt', '-1', except('p5')],
        ['kw', 'contains', '0', ['p2', 'p3', 'p6', 'p7', 'p8']],
        ['kw', 'contains', '.', ['p4', 'p6', 'p7']],
        ['kw', 'empty', undefined, ['p5']],
        ['kw', 'notempty', undefined, except('p5')],
        ['kw', 'empty', 'ignored', ['p5']],
        [IDS.kw, 'gt', '9', ['p2', 'p3', 'p4', 'p6', 'p8']],
      ]],
      ['notes (text)', [
        ['notes', 'eq', 'carport', ['p3']],
        ['notes', 'eq', 'Carport', []],
        ['notes', 'eq', 'Roof', []],
        ['notes', 'ne', 'carport', except('p3')],
        ['notes', 'contains', 'o', ['p1', 'p2', 'p3', 'p7']],
        ['notes', 'contains', 'mount', ['p1', 'p2']],
        ['notes', 'contains', 'MOUNT', ['p1', 'p2']],
        ['notes', 'contains', '%', ['p7']],
        ['notes', 'contains', '_', []],
        ['notes', 'contains', '!', []],
        ['notes', 'empty', undefined, ['p4', 'p5', 'p6', 'p8']],
        ['notes', 'notempty', undefined, ['p1', 'p2', 'p3', 'p7']],
        // Text orders by code point (upper case first; see projects-by-data-text-order.test.ts); an empty text is no value.
        ['notes', 'lt', 'M', ['p7']],
        ['notes', 'ge', 'a', ['p2', 'p3']],
        ['notes', 'gt', 'Roof mounted', ['p2', 'p3']],
      ]],
      ['size (multi-value choice)', [
        ['size', 'eq', 'M', ['p2', 'p6', 'p7']],
        ['size', 'eq', 'L', ['p2', 'p3']],
        ['size', 'ne', 'M', ['p1', 'p3', 'p4', 'p5', 'p8']],
        ['size', 'contains', 'm', ['p2', 'p6', 'p7']],
        ['size', 'empty', undefined, ['p4', 'p5', 'p8']],
        ['size', 'notempty', undefined, ['p1', 'p2', 'p3', 'p6', 'p7']],
        ['size', 'gt', 'L', ['p1', 'p2', 'p6', 'p7']],
        ['size', 'le', 'L', ['p2', 'p3']],
      ]],
      ['installed (date: compared as yyyy-MM-dd)', [
        ['installed', 'eq', '2026-03-15', ['p3']],
        ['installed', 'ne', '2026-03-15', except('p3')],
        ['installed', 'lt', '2026-02-01', ['p7']],
        ['installed', 'le', '2026-02-01', ['p2', 'p7']],
        ['installed', 'gt', '2026-01-31', ['p2', 'p3']],
        ['installed', 'ge', '2026-03-15', ['p3']],
        ['installed', 'contains', '-03-', ['p3']],
        ['installed', 'empty', undefined, except('p2', 'p3', 'p7')],
        ['installed', 'notempty', undefined, ['p2', 'p3', 'p7']],
      ]],
      ['tags (multi-value text)', [
        ['tags', 'eq', 'ground', ['p2']],
        ['tags', 'eq', 'Rooftop', ['p1']],
        ['tags', 'contains', 'roof', ['p1', 'p6']],
        ['tags', 'contains', 'SOUTH', ['p1']],
        ['tags', 'contains', 'st-we', ['p6']],
        ['tags', 'contains', '%', ['p7']],
        ['tags', 'ne', 'carport', ['p1', 'p2', 'p4', 'p5', 'p6', 'p7', 'p8']],
        ['tags', 'empty', undefined, ['p4', 'p5', 'p8']],
        ['tags', 'le', 'a', ['p1', 'p6', 'p7']],
      ]],
    ];
    for (const [group, cases] of groups) {
      describe(group, () => {
        for (const [field, operator, content, expected] of cases) {
          it(`${field} ${operator}${content === undefined ? '' : ` "${content}"`} → ${expected.join(', ') || 'nothing'}`, async () => {
            assert.deepEqual(await search(harness(), { fields: [{ id: field, operator, content }] }), expected);
          });
        }
      });
    }

    it('takes eq when Operator is left out', async () => {
      assert.deepEqual(await search(harness(), { fields: [{ id: 'kw', content: '10' }] }), ['p2', 'p6']);
    });

    it('combines every filter with AND', async () => {
      const h = harness();
      assert.deepEqual(await search(h, {
        statuses: { operation: 'Include', ids: ['submitted', 'approved'] },
        fields: [{ id: 'kw', operator: 'gt', content: '9' }, { id: 'size', operator: 'eq', content: 'L' }],
      }), ['p2', 'p3']);
      assert.deepEqual(await search(h, {
        statuses: { operation: 'Exclude', ids: ['approved'] },
        dates: [{ id: 'draft', dateTime: isoTimestamp(mid), operator: 'gt' }],
        fields: [{ id: 'size', operator: 'empty' }],
      }), ['p5']);
      assert.deepEqual(await search(h, { fields: [{ id: 'kw', operator: 'ge', content: '9' }, { id: 'kw', operator: 'le', content: '10' }] }), ['p1', 'p2', 'p4', 'p6']);
      assert.deepEqual(await search(h, { fields: [{ id: 'notes', content: 'carport' }, { id: 'notes', content: 'ground MOUNT' }] }), [], 'two eq on one field');
    });

    // Each value of a multi-value field is matched on its own, and letter case is folded the same on both databases.
    it('matches multi-value eq exactly, in the same letter case on both databases', async () => {
      assert.deepEqual(await search(harness(), { fields: [{ id: 'tags', operator: 'eq', content: 'roof' }] }), []);
    });
    it('finds contains "," only within one value, not across two values', async () => {
      assert.deepEqual(await search(harness(), { fields: [{ id: 'tags', operator: 'contains', content: ',' }] }), []);
    });
  });

  describe('refused requests', () => {
    const refused: [string, string | ByData, number, string][] = [
      ['Content that is no number for a number field (eq)', { fields: [{ id: 'kw', content: 'ten' }] }, 400, 'INVALID_REQUEST'],
      ['Content that is no number for a number field (ne)', { fields: [{ id: 'kw', operator: 'ne', content: '10kW' }] }, 400, 'INVALID_REQUEST'],
      ['an empty Content for a number field (lt)', { fields: [{ id: 'kw', operator: 'lt', content: '' }] }, 400, 'INVALID_REQUEST'],
      ['a sensitive field, without the privilege and a second factor', { fields: [{ id: 'name', content: 'Bob' }] }, 403, 'SENSITIVE_DATA_NOT_ALLOWED'],
      ['a sensitive field with empty', { fields: [{ id: 'name', operator: 'empty' }] }, 403, 'SENSITIVE_DATA_NOT_ALLOWED'],
      ['Content that is no date for a date field (lt)', { fields: [{ id: 'installed', operator: 'lt', content: 'soon' }] }, 400, 'INVALID_REQUEST'],
      ['a date that does not exist (eq)', { fields: [{ id: 'installed', content: '2026-02-30' }] }, 400, 'INVALID_REQUEST'],
      ['a date not written yyyy-MM-dd (gt)', { fields: [{ id: 'installed', operator: 'gt', content: '2026-3-1' }] }, 400, 'INVALID_REQUEST'],
      ['an unknown field', { fields: [{ id: 'nosuchfield', content: 'x' }] }, 400, 'INVALID_REQUEST'],
      ['a form id as field id', { fields: [{ id: 'application', content: 'x' }] }, 400, 'INVALID_REQUEST'],
      ['eq without Content', { fields: [{ id: 'notes', operator: 'eq' }] }, 400, 'INVALID_REQUEST'],
      ['no Operator and no Content', { fields: [{ id: 'notes' }] }, 400, 'INVALID_REQUEST'],
      ['contains without Content', { fields: [{ id: 'notes', operator: 'contains' }] }, 400, 'INVALID_REQUEST'],
      ['an unknown Operator', { fields: [{ id: 'notes', operator: 'like', content: 'B%' }] }, 400, 'INVALID_REQUEST'],
      ['an unknown current status', { statuses: { operation: 'Include', ids: ['draft', 'nosuchstatus'] } }, 400, 'INVALID_REQUEST'],
      ['an unknown Operation', { statuses: { operation: 'Maybe', ids: ['draft'] } }, 400, 'INVALID_REQUEST'],
      ['FilterByCurrentStatuses without Status', `<ProjectByDataRequest xmlns="${NS}"><FilterByCurrentStatuses Operation="Include"/></ProjectByDataRequest>`, 400, 'INVALID_REQUEST'],
      ['an unknown status in FilterByStatusDate', { dates: [{ id: 'nosuchstatus', dateTime: '2026-01-01T00:00:00Z', operator: 'gt' }] }, 400, 'INVALID_REQUEST'],
      ['a DateTime that is no time', { dates: [{ id: 'draft', dateTime: 'yesterday', operator: 'gt' }] }, 400, 'INVALID_REQUEST'],
      ['an unknown date Operator', { dates: [{ id: 'draft', dateTime: '2026-01-01T00:00:00Z', operator: 'ne' }] }, 400, 'INVALID_REQUEST'],
      ['21 FilterByStatusDate elements', { dates: Array.from({ length: 21 }, () => ({ id: 'draft', dateTime: '2026-01-01T00:00:00Z', operator: 'gt' })) }, 400, 'INVALID_REQUEST'],
      ['another root element', `<ProjectByNumberRequest xmlns="${NS}"/>`, 400, 'INVALID_REQUEST'],
      ['malformed XML', `<ProjectByDataRequest xmlns="${NS}"><DataFields></ProjectByDataRequest>`, 400, 'MALFORMED_XML'],
      ['no namespace', '<ProjectByDataRequest/>', 400, 'WRONG_NAMESPACE'],
      ['another namespace', byDataRequest({}, 'http://service.powerclerk.com/api/v1'), 400, 'WRONG_NAMESPACE'],
    ];
    for (const [what, q, status, code] of refused) {
      it(`refuses ${what} with ${status} ${code}`, async () => {
        const h = harness();
        const body = typeof q === 'string' ? q : byDataRequest(q);
        for (const who of ['admin', 'applicant'] as const) {
          assertError(h, await h.request({ method: 'POST', url: urls.byData, as: who, body }), status, code);
        }
      });
    }

    it('refuses a JSON request the JSON Schema does not accept, or the service cannot apply, in JSON', async () => {
      const h = harness();
      const post = (body: string) => h.request({ method: 'POST', url: urls.byData, body, headers: JSON_BODY });
      assert.match(assertJsonError(await post(byDataJson({ fields: [{ id: 'notes', operator: 'like', content: 'B%' }] })), 400, 'INVALID_REQUEST'), /JSON Schema/);
      assert.match(assertJsonError(await post('{"DataFields":{"Field":[{"Id":"notes","Content":"x"}]},"Limit":1}'), 400, 'INVALID_REQUEST'), /Limit/);
      const xml = await h.request({ method: 'POST', url: urls.byData, body: byDataRequest({ fields: [{ id: 'notes', operator: 'eq' }] }) });
      const message = assertJsonError(await post(byDataJson({ fields: [{ id: 'notes', operator: 'eq' }] })), 400, 'INVALID_REQUEST');
      assert.equal(message, readBack(xml.body).attrs['Message'], 'the rules beyond the schemas give the same message');
    });

    it('refuses text/plain with 415 and no body with 400', async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'POST', url: urls.byData, body: byDataRequest({}), headers: { 'content-type': 'text/plain' } }), 415, 'UNSUPPORTED_MEDIA_TYPE');
      assertError(h, await h.request({ method: 'POST', url: urls.byData }), 400, 'INVALID_REQUEST');
    });

    it('changes nothing: searching leaves every project and the audit log as they were', async () => {
      const h = harness();
      const before = await programState(h);
      await search(h, { fields: [{ id: 'kw', operator: 'gt', content: '1' }] });
      assertError(h, await h.request({ method: 'POST', url: urls.byData, body: byDataRequest({ fields: [{ id: 'kw', content: 'x' }] }) }), 400, 'INVALID_REQUEST');
      assert.deepEqual(await programState(h), before);
    });
  });
});
