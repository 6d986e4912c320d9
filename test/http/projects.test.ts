import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { isoTimestamp } from '../../src/model/clock.ts';
import { CHANGE_VISIBILITY_MARGIN_MS } from '../../src/domain/project-service.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs } from '../support/http-harness.ts';
import { API, createProject, createSubmitted, listedIds, type MatrixRow, PROGRAM, send, setDraft, sharedHarness, UNAUTHENTICATED } from './http-helpers.ts';

// GetProjects: GET /services/v2/Programs/{ProgramId}/Projects?limit&offset&changed_since&version

forEachDialect('HTTP GetProjects', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  // Created in this order, one clock second apart: a and b by the applicant, c by the other applicant, d by an admin (submitted).
  let a = '';
  let b = '';
  let c = '';
  let d = '';
  let dNumber = '';

  before(async () => {
    const h = harness();
    a = await createProject(h, 'applicant');
    b = await createProject(h, 'applicant');
    c = await createProject(h, 'otherApplicant');
    ({ projectId: d, number: dNumber } = await createSubmitted(h, 'admin'));
  });

  const matrix: (MatrixRow & { sees?: () => string[] })[] = [
    { who: 'admin', status: 200, sees: () => [a, b, c, d] },
    { who: 'programAdmin', status: 200, sees: () => [a, b, c, d] },
    { who: 'editor', status: 200, sees: () => [a, b, c, d] },
    { who: 'reader', status: 200, sees: () => [a, b, c, d] },
    { who: 'applicant', status: 200, sees: () => [a, b] },
    { who: 'otherApplicant', status: 200, sees: () => [c] },
    { who: 'outsider', status: 403, code: 'FORBIDDEN' },
    ...UNAUTHENTICATED,
  ];
  for (const row of matrix) {
    it(`lists the readable projects in creation order: ${row.who} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const h = harness();
      const res = await send(h, row.who, { method: 'GET', url: `${PROGRAM}/Projects` });
      if (row.code) return assertError(h, res, row.status, row.code);
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectsResponse');
      assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), row.sees!());
    });
  }

  it('addresses the program by generated id as well as by custom id', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: `${API}/Programs/${IDS.program}/Projects` });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectsResponse');
    assert.deepEqual(attrs(res.body, 'Project', 'ProjectId'), [a, b, c, d]);
  });

  it('describes each project: no number before submission, status name and times, the program', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: `${PROGRAM}/Projects` });
    assertValidXml(h, res, 'ProjectsResponse');
    const element = (id: string) => new RegExp(`<Project ProjectId="${id}"[^>]*/>`).exec(res.body)?.[0] ?? '';
    const stored = await h.store.projects.getProject(IDS.program, a);
    assert.ok(stored);
    assert.equal(attr(element(a), 'Project', 'ProgramId'), IDS.program);
    assert.equal(attr(element(a), 'Project', 'ProjectNumber'), undefined);
    assert.equal(attr(element(a), 'Project', 'Status'), 'Draft');
    assert.equal(attr(element(a), 'Project', 'StatusTimestamp'), isoTimestamp(stored.statusAt));
    assert.equal(attr(element(a), 'Project', 'LastChangeTimestamp'), isoTimestamp(stored.updatedAt));
    assert.equal(attr(element(d), 'Project', 'ProjectNumber'), dNumber);
    assert.equal(attr(element(d), 'Project', 'Status'), 'Submitted');
    assert.equal(attr(res.body, 'ProjectsResponse', 'RequestTimestamp'), isoTimestamp(h.clock.now() - CHANGE_VISIBILITY_MARGIN_MS), 'complete up to the margin before the read');
  });

  for (const query of ['', '?version=1']) {
    it(`answers the base variant (SchemaVersion 1.0, no status ids) for ${query || 'no version'}`, async () => {
      const h = harness();
      const res = await h.request({ method: 'GET', url: `${PROGRAM}/Projects${query}` });
      assert.equal(res.statusCode, 200, res.body);
      assertValidXml(h, res, 'ProjectsResponse');
      assert.equal(attr(res.body, 'ProjectsResponse', 'SchemaVersion'), '1.0');
      assert.doesNotMatch(res.body, /StatusCustomId|StatusPublicId/);
    });
  }

  it('answers the extended variant with StatusCustomId and StatusPublicId for version=2', async () => {
    const h = harness();
    const res = await h.request({ method: 'GET', url: `${PROGRAM}/Projects?version=2` });
    assert.equal(res.statusCode, 200, res.body);
    assertValidXml(h, res, 'ProjectsResponseExtended');
    assert.equal(attr(res.body, 'ProjectsResponse', 'SchemaVersion'), '2.0');
    assert.deepEqual(attrs(res.body, 'Project', 'StatusCustomId'), ['draft', 'draft', 'draft', 'submitted']);
    assert.deepEqual(attrs(res.body, 'Project', 'StatusPublicId'), ['DRAFT', 'DRAFT', 'DRAFT', 'SUBMITTED']);
  });

  const pages: [string, () => string[]][] = [
    ['?limit=2', () => [a, b]],
    ['?limit=2&offset=2', () => [c, d]],
    ['?offset=3', () => [d]],
    ['?offset=4', () => []],
    ['?limit=1000&offset=0', () => [a, b, c, d]],
    ['?limit=1&offset=1', () => [b]],
  ];
  for (const [query, expected] of pages) {
    it(`pages in creation order: ${query}`, async () => {
      assert.deepEqual(await listedIds(harness(), 'admin', query), expected());
    });
  }

  it('pages within what an applicant may read', async () => {
    const h = harness();
    assert.deepEqual(await listedIds(h, 'applicant', '?limit=1&offset=1'), [b]);
    assert.deepEqual(await listedIds(h, 'applicant', '?offset=2'), []);
  });

  it('filters with changed_since strictly after the time, in creation order, for every accepted format', async () => {
    const h = harness();
    const since = h.clock.advance();
    // b changes first, a later: the answer still lists a before b.
    await setDraft(h, b, { kw: '10' });
    await setDraft(h, a, { kw: '11' });
    const bChanged = (await h.store.projects.getProject(IDS.program, b))!.updatedAt;
    const aChanged = (await h.store.projects.getProject(IDS.program, a))!.updatedAt;
    assert.ok(since < bChanged && bChanged < aChanged);
    const q = (value: string) => `?changed_since=${encodeURIComponent(value)}`;
    assert.deepEqual(await listedIds(h, 'admin', q(isoTimestamp(since))), [a, b]);
    assert.deepEqual(await listedIds(h, 'admin', q(isoTimestamp(bChanged))), [a], 'strictly after: b changed exactly then');
    assert.deepEqual(await listedIds(h, 'admin', q(isoTimestamp(bChanged - 1))), [a, b]);
    assert.deepEqual(await listedIds(h, 'admin', q(isoTimestamp(aChanged))), []);
    // The applicant's filter and the time filter apply together.
    assert.deepEqual(await listedIds(h, 'otherApplicant', q(isoTimestamp(since))), []);
    // yyyy-MM-dd is midnight UTC; the clock stays on 2026-01-01.
    assert.deepEqual(await listedIds(h, 'admin', q('2026-01-01')), [a, b, c, d]);
    assert.deepEqual(await listedIds(h, 'admin', q('2026-01-02')), []);
    // Offsets are honoured: 02:00+01:00 is 01:00Z, just before everything; 01:00-01:00 is 02:00Z, after everything.
    assert.deepEqual(await listedIds(h, 'admin', q('2026-01-01T02:00:00+01:00')), [a, b, c, d]);
    assert.deepEqual(await listedIds(h, 'admin', q('2026-01-01T01:00:00-01:00')), []);
    // Seven fractional digits, as the commercial system writes them.
    const sinceText = new Date(bChanged).toISOString().replace(/\.(\d{3})Z$/, '.$10000+00:00');
    assert.deepEqual(await listedIds(h, 'admin', q(sinceText)), [a]);
  });

  it('takes the RequestTimestamp of one answer as the next changed_since, even with an unencoded "+"', async () => {
    const h = harness();
    // Changes within the margin before a read are listed again by the next poll; these tests' earlier changes are not.
    h.clock.advance(CHANGE_VISIBILITY_MARGIN_MS + 1);
    const first = await h.request({ method: 'GET', url: `${PROGRAM}/Projects` });
    const stamp = attr(first.body, 'ProjectsResponse', 'RequestTimestamp') ?? '';
    assert.match(stamp, /\+00:00$/, first.body);
    assert.deepEqual(await listedIds(h, 'admin', `?changed_since=${stamp}`), []);
    await setDraft(h, c, { kw: '12' }, 'otherApplicant');
    assert.deepEqual(await listedIds(h, 'admin', `?changed_since=${stamp}`), [c]);
    assert.deepEqual(await listedIds(h, 'admin', `?changed_since=${encodeURIComponent(stamp)}`), [c]);
  });

  const badQueries = [
    'limit=0', 'limit=1001', 'limit=abc', 'limit=-1', 'limit=1.5', 'limit=',
    'offset=-1', 'offset=abc', 'offset=1e3',
    'changed_since=2026-02-30', 'changed_since=garbage', 'changed_since=2026-01-01T25:00:00Z', 'changed_since=',
    'version=3', 'version=0', 'version=abc',
    'limit=1&limit=2', 'version=1&version=2', 'changed_since=2026-01-01&changed_since=2026-01-02',
  ];
  for (const query of badQueries) {
    it(`refuses ?${query} with 400 INVALID_PARAMETER`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects?${query}` }), 400, 'INVALID_PARAMETER');
    });
  }

  for (const program of ['nowhere', 'PROGRAM00099']) {
    it(`answers 404 NOT_FOUND for an unknown program (${program})`, async () => {
      const h = harness();
      assertError(h, await h.request({ method: 'GET', url: `${API}/Programs/${program}/Projects` }), 404, 'NOT_FOUND');
    });
  }
});
