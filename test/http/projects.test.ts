import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { CHANGE_VISIBILITY_MARGIN_MS, encodeProjectCursor } from '../../src/domain/projects/project-service.ts';
import { isoTimestamp } from '../../src/model/clock.ts';
import { ProjectsResponse, ProjectsResponseExtended } from '../../src/wire/documents/projects.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { assertError, assertValidXml, attr, attrs, type HttpHarness, type Who } from '../support/http-harness.ts';
import { assertJsonError, assertSameAnswer, JSON_ANSWER } from '../support/json-answers.ts';
import { API, createProject, createSubmitted, listedIds, type MatrixRow, PROGRAM, send, setDraft, sharedHarness, UNAUTHENTICATED } from './http-helpers.ts';

// GetProjects: GET /services/v2/Programs/{ProgramId}/Projects?limit&offset&after&changed_since&version

/** One page of GetProjects: the listed ids and the address of the next page (its Link rel="next"), if any. */
async function page(h: HttpHarness, who: Who, url: string, schema = 'ProjectsResponse'): Promise<{ ids: string[]; next: string | null }> {
  const res = await h.request({ method: 'GET', url, as: who });
  assert.equal(res.statusCode, 200, res.body);
  assertValidXml(h, res, schema);
  const link = res.headers.link;
  if (link === undefined) return { ids: attrs(res.body, 'Project', 'ProjectId'), next: null };
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  assert.ok(m, `a Link header with rel="next": ${String(link)}`);
  const next = new URL(m[1]!);
  assert.equal(next.origin, 'http://apas.test', 'the next page is an absolute address under APAS_PUBLIC_URL');
  return { ids: attrs(res.body, 'Project', 'ProjectId'), next: `${next.pathname}${next.search}` };
}

/** Follows the next links from `url` to the end: every page's ids, in order. */
async function walk(h: HttpHarness, who: Who, url: string): Promise<string[][]> {
  const pages: string[][] = [];
  for (let at: string | null = url; at !== null;) {
    const p = await page(h, who, at);
    pages.push(p.ids);
    at = p.next;
    assert.ok(pages.length <= 10, 'the walk ends');
  }
  return pages;
}

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

  for (const [query, doc] of [['?limit=3', ProjectsResponse], ['?limit=3&version=2', ProjectsResponseExtended]] as const) {
    it(`answers ${doc.name} in JSON when Accept asks for it, with the values and the Link header of the XML answer`, async () => {
      const h = harness();
      const url = `${PROGRAM}/Projects${query}`;
      const xml = await h.request({ method: 'GET', url });
      const json = await h.request({ method: 'GET', url, headers: JSON_ANSWER });
      const value = assertSameAnswer(h, xml, json, doc);
      assert.deepEqual(value.Projects.Project.map((p) => p.ProjectId), [a, b, c]);
      assert.equal(value.SchemaVersion, doc === ProjectsResponse ? 1 : 2);
      assert.ok(json.headers.link, 'the next page is named in JSON too');
      assert.equal(json.headers.link, xml.headers.link);
    });
  }

  it('answers a refused GetProjects in JSON when Accept asks for it', async () => {
    const h = harness();
    assertJsonError(await h.request({ method: 'GET', url: `${PROGRAM}/Projects?limit=0`, headers: JSON_ANSWER }), 400, 'INVALID_PARAMETER');
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

  describe('keyset paging with after', () => {
    it('pages by the Link header through to the end: full pages, then the rest, and no link after the last', async () => {
      const h = harness();
      assert.deepEqual(await walk(h, 'admin', `${PROGRAM}/Projects?limit=2`), [[a, b], [c, d]]);
      assert.deepEqual(await walk(h, 'admin', `${PROGRAM}/Projects?limit=3`), [[a, b, c], [d]]);
      assert.deepEqual(await walk(h, 'reader', `${PROGRAM}/Projects?limit=1`), [[a], [b], [c], [d]]);
      assert.deepEqual(await walk(h, 'admin', `${PROGRAM}/Projects`), [[a, b, c, d]], 'one page holds them all: no link');
    });

    it('keeps the page size and version in the next link, and answers the same variant', async () => {
      const h = harness();
      const first = await page(h, 'editor', `${PROGRAM}/Projects?version=2&limit=3`, 'ProjectsResponseExtended');
      assert.match(first.next ?? '', /[?&]limit=3(&|$)/);
      assert.match(first.next ?? '', /[?&]version=2(&|$)/);
      assert.doesNotMatch(first.next ?? '', /offset=/);
      const second = await page(h, 'editor', first.next!, 'ProjectsResponseExtended');
      assert.deepEqual(second, { ids: [d], next: null });
    });

    it('offers the next page by cursor after an offset page too', async () => {
      const h = harness();
      const byOffset = await page(h, 'admin', `${PROGRAM}/Projects?limit=1&offset=1`);
      assert.deepEqual(byOffset.ids, [b]);
      assert.deepEqual(await walk(h, 'admin', byOffset.next!), [[c], [d]]);
      assert.equal((await page(h, 'admin', `${PROGRAM}/Projects?limit=1&offset=3`)).next, null, 'the last project: no next page');
    });

    it('answers an empty page without a link after the last project', async () => {
      const h = harness();
      const last = (await h.store.projects.getProject(IDS.program, d))!;
      const cursor = encodeProjectCursor(IDS.program, { createdAt: last.createdAt, id: last.id });
      assert.deepEqual(await page(h, 'admin', `${PROGRAM}/Projects?limit=2&after=${cursor}`), { ids: [], next: null });
    });

    it('lists within what the caller may read: applicants page through their own projects only, whoever made the cursor', async () => {
      const h = harness();
      assert.deepEqual(await walk(h, 'applicant', `${PROGRAM}/Projects?limit=1`), [[a], [b]]);
      assert.deepEqual(await walk(h, 'otherApplicant', `${PROGRAM}/Projects?limit=1`), [[c]]);
      // A cursor from the admin's listing only says where to start: the applicant still sees nothing of others.
      const adminFirst = await page(h, 'admin', `${PROGRAM}/Projects?limit=1`);
      assert.deepEqual(adminFirst.ids, [a]);
      assert.deepEqual(await walk(h, 'applicant', adminFirst.next!), [[b]]);
      assert.deepEqual(await walk(h, 'otherApplicant', adminFirst.next!), [[c]]);
      const afterC = encodeProjectCursor(IDS.program, (await h.store.projects.getProject(IDS.program, c))!);
      assert.deepEqual(await walk(h, 'applicant', `${PROGRAM}/Projects?after=${afterC}`), [[]]);
      assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects?after=${afterC}`, as: 'outsider' }), 403, 'FORBIDDEN');
    });

    it('combines with changed_since: the next link keeps the filter, and a cursor continues a filtered listing', async () => {
      const h = harness();
      const since = h.clock.advance(CHANGE_VISIBILITY_MARGIN_MS + 1);
      await setDraft(h, c, { kw: '13' }, 'otherApplicant');
      await setDraft(h, a, { kw: '14' });
      const q = `changed_since=${encodeURIComponent(isoTimestamp(since))}`;
      const first = await page(h, 'admin', `${PROGRAM}/Projects?limit=1&${q}`);
      assert.deepEqual(first.ids, [a]);
      assert.equal(new URLSearchParams(first.next!.split('?')[1]).get('changed_since'), isoTimestamp(since));
      assert.deepEqual(await page(h, 'admin', first.next!), { ids: [c], next: null });
      // A cursor of the unfiltered listing (after a) with the filter: the changed projects after a.
      const afterA = (await page(h, 'admin', `${PROGRAM}/Projects?limit=1`)).next!;
      assert.deepEqual(await walk(h, 'admin', `${afterA}&${q}`), [[c]]);
      assert.deepEqual(await walk(h, 'otherApplicant', `${afterA}&${q}`), [[c]]);
      assert.deepEqual(await walk(h, 'applicant', `${afterA}&${q}`), [[]]);
    });

    for (const query of ['offset=0&after=CURSOR', 'offset=2&after=CURSOR', 'after=CURSOR&offset=1&limit=1']) {
      it(`refuses offset together with after (${query}) with 400 INVALID_PARAMETER`, async () => {
        const h = harness();
        const cursor = encodeProjectCursor(IDS.program, (await h.store.projects.getProject(IDS.program, a))!);
        const res = await h.request({ method: 'GET', url: `${PROGRAM}/Projects?${query.replace('CURSOR', cursor)}` });
        assertError(h, res, 400, 'INVALID_PARAMETER');
        assert.match(res.body, /either offset or after/);
      });
    }

    const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
    const badCursors: [string, () => string][] = [
      ['empty', () => ''],
      ['not base64url', () => 'not*a*cursor'],
      ['not JSON', () => b64('{{{')],
      ['a JSON object', () => b64({ createdAt: 1, id: a })],
      ['too few parts', () => b64([1, IDS.program, 1])],
      ['another format', () => b64([2, IDS.program, 1, a])],
      ['another program', () => b64([1, 'PROGRAM00099', 1, a])],
      ['a negative time', () => b64([1, IDS.program, -1, a])],
      ['a fractional time', () => b64([1, IDS.program, 1.5, a])],
      ['a time too large to be exact', () => b64([1, IDS.program, 2 ** 60, a])],
      ['a time as text', () => b64([1, IDS.program, '1', a])],
      ['an id with quotes', () => b64([1, IDS.program, 1, "x' or '1'='1"])],
      ['an id too long', () => b64([1, IDS.program, 1, 'A'.repeat(65)])],
      ['a NUL in the id', () => b64([1, IDS.program, 1, 'A\u0000B'])],
      ['far too long', () => 'A'.repeat(5000)],
      ['given twice', () => `${encodeProjectCursor(IDS.program, { createdAt: 1, id: a })}&after=${encodeProjectCursor(IDS.program, { createdAt: 1, id: a })}`],
    ];
    for (const [name, cursor] of badCursors) {
      it(`refuses a cursor that is ${name} with 400 INVALID_PARAMETER`, async () => {
        const h = harness();
        for (const who of ['admin', 'applicant'] as const) {
          assertError(h, await h.request({ method: 'GET', url: `${PROGRAM}/Projects?after=${cursor()}`, as: who }), 400, 'INVALID_PARAMETER');
        }
      });
    }

    // Last, since it adds projects: projects created in the same millisecond are ordered, and paged, by id.
    it('pages projects created in the same millisecond by id, none twice and none left out', async () => {
      const h = harness();
      h.clock.advance();
      const same: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await h.request({ method: 'POST', url: `${PROGRAM}/NewProject`, as: 'applicant' });
        same.push(attr(res.body, 'Project', 'ProjectId')!);
      }
      const all = (await walk(h, 'admin', `${PROGRAM}/Projects?limit=2`)).flat();
      assert.deepEqual(all, [a, b, c, d, ...[...same].sort()]);
      assert.deepEqual((await walk(h, 'applicant', `${PROGRAM}/Projects?limit=3`)).flat(), [a, b, ...[...same].sort()]);
    });
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
