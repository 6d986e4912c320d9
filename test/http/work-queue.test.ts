import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { csvLine } from '../../src/web/csv.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attr, type HttpHarness } from '../support/http-harness.ts';
import { createProject, type MatrixRow, rowLabel, setDraft, sharedHarness, submitPath } from './http-helpers.ts';
import { column, webGet, webPost } from './web-page-helpers.ts';

/** The kept-columns change of a status or deadline change: only the deadline bits recounted, with these statuses open. */
const overdueRecount = (openStatusIds: string[], nearBy = 0) => ({ applicantAt: null, reply: null, recountFiles: false, recountDeadlines: { openStatusIds, nearBy } });

// The staff work queue: GET /Projects/ProgramList?ProgramId=… (HTML; format=csv downloads the filtered list).

const QUEUE = `/Projects/ProjectList?ProgramId=${IDS.program}`;

async function submitted(h: HttpHarness, kw: string): Promise<{ projectId: string; number: string }> {
  const projectId = await createProject(h, 'applicant');
  await setDraft(h, projectId, { name: `Jane ${kw}`, size: ['S'], kw });
  h.clock.advance();
  const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
  assert.equal(res.statusCode, 200, res.body);
  return { projectId, number: attr(res.body, 'Project', 'ProjectNumber')! };
}

function numbers(html: string): string[] {
  if (html.includes('<p>No projects match these filters.</p>')) return [];
  return column(html, 'Project');
}

function nextLink(html: string): string | null {
  const href = /<a href="([^"]+)" rel="next" class="usa-pagination__link usa-pagination__next-page">/.exec(html)?.[1];
  return href ? href.replace(/&amp;/g, '&') : null;
}

function previousLink(html: string): string | null {
  const href = /<a href="([^"]+)" rel="prev" class="usa-pagination__link usa-pagination__previous-page">/.exec(html)?.[1];
  return href ? href.replace(/&amp;/g, '&') : null;
}

/** The assignee filter's choices: [value, text] of each option. */
function assigneeChoices(html: string): [string, string][] {
  const select = /<select class="usa-select" id="filter-assignee"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
  return [...select.matchAll(/<option([^>]*)>([^<]*)<\/option>/g)].map((m) => [/value="([^"]*)"/.exec(m[1]!)?.[1] ?? '', m[2]!]);
}

async function allPages(h: HttpHarness, first: string): Promise<string[]> {
  const seen: string[] = [];
  let url: string | null = first;
  while (url) {
    const res = await webGet(h, url, 'editor');
    assert.equal(res.statusCode, 200, res.body);
    seen.push(...numbers(res.body));
    url = nextLink(res.body);
  }
  return seen;
}

const QUEUE_MATRIX: readonly MatrixRow[] = [
  { who: 'admin', status: 200 }, { who: 'programAdmin', status: 200 }, { who: 'editor', status: 200 }, { who: 'reader', status: 200 },
  { who: 'applicant', status: 403 }, { who: 'otherApplicant', status: 403 }, { who: 'outsider', status: 403 },
];

forEachDialect('HTTP work queue', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  const made: { projectId: string; number: string; kw: string }[] = [];
  let draftId = '';

  before(async () => {
    const h = harness();
    for (let i = 1; i <= 27; i++) made.push({ ...(await submitted(h, String(i))), kw: String(i) });
    draftId = await createProject(h, 'applicant');
  });

  describe('access', () => {
    for (const row of QUEUE_MATRIX) {
      it(`GET the queue: ${rowLabel(row)}`, async () => {
        const res = await webGet(harness(), QUEUE, row.who as never);
        assert.equal(res.statusCode, row.status, res.body.slice(0, 400));
        assert.match(String(res.headers['content-type']), /^text\/html/);
        if (row.status === 200) assert.match(res.body, /<h1>Work queue<\/h1>/);
        const csv = await webGet(harness(), `${QUEUE}&format=csv`, row.who as never);
        assert.equal(csv.statusCode, row.status);
      });
    }

    it('sends a visitor who is not signed in to the sign-in page and back', async () => {
      const res = await webGet(harness(), QUEUE, null);
      assert.equal(res.statusCode, 303);
      assert.equal(res.headers.location, `/MvcProjects/SignIn?next=${encodeURIComponent(QUEUE)}`);
    });

    it('answers an unknown program with the 404 page', async () => {
      const res = await webGet(harness(), '/Projects/ProjectList?ProgramId=NOSUCHPROGRM', 'admin');
      assert.equal(res.statusCode, 404);
      assert.match(String(res.headers['content-type']), /^text\/html/);
    });
  });

  describe('rows, filters and order', () => {
    it('lists number, applicant, status, assignee, submitted and last change, newest change first', async () => {
      const h = harness();
      const res = await webGet(h, `${QUEUE}&size=100`, 'reader');
      assert.equal(res.statusCode, 200);
      const shown = numbers(res.body);
      assert.equal(shown.length, 28);
      assert.deepEqual(shown.slice(1, 4), [made[26]!.number, made[25]!.number, made[24]!.number], 'the unsubmitted project changed last');
      assert.equal(shown[0], `Unsubmitted ${draftId}`);
      assert.deepEqual(new Set(column(res.body, 'Applicant')), new Set([`User ${IDS.applicant}`]));
      assert.equal(column(res.body, 'Status')[1], 'Submitted');
      assert.equal(column(res.body, 'Assignee')[1], 'Unassigned');
      assert.equal(column(res.body, 'Submitted')[0], 'Not submitted');
      assert.match(column(res.body, 'Submitted')[1]!, /^Jan 1, 2026, \d+:\d\d [AP]M UTC$/);
    });

    it('finds a project by its number, and by a data field (GetProjectsByData operators)', async () => {
      const h = harness();
      const byNumber = await webGet(h, `${QUEUE}&number=${made[4]!.number}`, 'editor');
      assert.deepEqual(numbers(byNumber.body), [made[4]!.number]);
      const over = await webGet(h, `${QUEUE}&field=kw&op=gt&value=25&order=created-asc`, 'editor');
      assert.deepEqual(numbers(over.body), [made[25]!.number, made[26]!.number]);
      const contains = await webGet(h, `${QUEUE}&field=size&op=eq&value=S&size=100`, 'editor');
      assert.equal(numbers(contains.body).length, 27);
    });

    it('counts data filters up to the bound as the pages find them, whether a broad filter drives the count or not', async () => {
      const h = harness();
      type Op = 'gt' | 'le' | 'ge' | 'ne' | 'eq';
      const kw = (op: Op, n: number) => ({ fieldId: IDS.kw, kind: 'number' as const, op, content: String(n), number: n });
      const size = { fieldId: IDS.size, kind: 'multi' as const, op: 'eq' as const, content: 'S', number: null };
      // One condition (the count drives by it), several (the others test each project, `ne` as an anti-join), and
      // with a status filter (planned as the page is).
      const cases = [[kw('gt', 20)], [kw('le', 10)], [size], [size, kw('gt', 20)], [kw('ge', 5), kw('ne', 7)], [kw('ne', 3), size], [kw('ne', 3)]];
      for (const fields of cases) {
        for (const statusIn of [undefined, [IDS.submitted]]) {
          const q = { programId: IDS.program, fields, ...(statusIn ? { statusIn } : {}) };
          const rows = await h.store.projects.workQueuePage({ ...q, sort: 'updated', direction: 'desc', limit: 1000 });
          assert.ok(rows.length > 0);
          for (const bound of [2, 5, 1000]) {
            assert.equal(await h.store.projects.countWorkQueue(q, bound), Math.min(rows.length, bound + 1), `${JSON.stringify(fields)} ${statusIn ?? ''} bound ${bound}`);
          }
        }
      }
    });

    it('filters by status, by first-submission date range, and explains a bad value beside its control', async () => {
      const h = harness();
      const drafts = await webGet(h, `${QUEUE}&status=${IDS.draft}`, 'editor');
      assert.deepEqual(numbers(drafts.body), [`Unsubmitted ${draftId}`]);
      const inRange = await webGet(h, `${QUEUE}&submittedFrom=2026-01-01&submittedTo=2026-01-01&size=100`, 'editor');
      assert.equal(numbers(inRange.body).length, 27);
      const later = await webGet(h, `${QUEUE}&submittedFrom=2026-01-02`, 'editor');
      assert.deepEqual(numbers(later.body), []);
      const bad = await webGet(h, `${QUEUE}&submittedFrom=yesterday`, 'editor');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /<a href="#filter-submitted-from">Submitted from must be a date like 2026-05-31.<\/a>/);
      const notNumber = await webGet(h, `${QUEUE}&field=kw&op=gt&value=lots`, 'editor');
      assert.equal(notNumber.statusCode, 400);
      assert.match(notNumber.body, /<a href="#filter-value">Capacity \(kW\) is a number field/);
      // The applicant name is sensitive: filtering on it would reveal it, so it takes what revealing takes.
      const sensitive = await webGet(h, `${QUEUE}&field=name&op=contains&value=Jane`, 'editor');
      assert.equal(sensitive.statusCode, 403);
      assert.match(sensitive.body, /href="#filter-value"/);
    });

    it('filters by assignee: assigned to me, unassigned', async () => {
      const h = harness();
      const target = made[0]!;
      const assigned = await webPost(h, `/MvcProjects/Programs/${IDS.program}/Projects/${target.projectId}/Review/Assignee`, 'admin', { Email: h.who.editor.email });
      assert.equal(assigned.statusCode, 303, assigned.body);
      const mine = await webGet(h, `${QUEUE}&assignee=me`, 'editor');
      assert.deepEqual(numbers(mine.body), [target.number]);
      assert.deepEqual(column(mine.body, 'Assignee'), [`User ${h.who.editor.id}`]);
      const byEmail = await webGet(h, `${QUEUE}&assignee=${encodeURIComponent(h.who.editor.email)}`, 'reader');
      assert.deepEqual(numbers(byEmail.body), [target.number]);
      const unassigned = await webGet(h, `${QUEUE}&assignee=unassigned&size=100`, 'editor');
      assert.equal(numbers(unassigned.body).length, 27);
      assert.ok(!numbers(unassigned.body).includes(target.number));
      const nobodyMine = await webGet(h, `${QUEUE}&assignee=me`, 'reader');
      assert.deepEqual(numbers(nobodyMine.body), []);
    });

    it('offers every staff member who may be assigned as an assignee filter, and filters by the one chosen', async () => {
      const h = harness();
      const choices = assigneeChoices((await webGet(h, QUEUE, 'reader')).body);
      assert.deepEqual(choices.slice(0, 3), [['', 'Anyone'], ['me', 'Assigned to me'], ['unassigned', 'Unassigned']]);
      const offered = choices.slice(3).map(([value]) => value);
      // Readers, editors and admins of the program and the agency's admins; not the caller (that is "me"), not applicants or outsiders.
      const staff = (['admin', 'programAdmin', 'editor'] as const).map((w) => h.who[w].email);
      assert.deepEqual([...offered].sort(), [...staff].sort());
      for (const [value, text] of choices.slice(3)) assert.match(text, new RegExp(`\\(${value.replace(/[.]/g, '\\.')}\\)$`), 'named with the address');
      assert.ok(assigneeChoices((await webGet(h, QUEUE, 'editor')).body).some(([value]) => value === h.who.reader.email), 'readers may be assigned too');
      const target = made[1]!;
      const assigned = await webPost(h, `/MvcProjects/Programs/${IDS.program}/Projects/${target.projectId}/Review/Assignee`, 'admin', { Email: h.who.programAdmin.email });
      assert.equal(assigned.statusCode, 303, assigned.body);
      const byChoice = await webGet(h, `${QUEUE}&assignee=${encodeURIComponent(h.who.programAdmin.email)}`, 'reader');
      assert.deepEqual(numbers(byChoice.body), [target.number]);
      assert.match(byChoice.body, new RegExp(`<option (selected )?value="${h.who.programAdmin.email.replace(/[.]/g, '\\.')}"( selected)?`), 'the chosen assignee is offered');
      assert.match(/<option[^>]*selected[^>]*>[^<]*<\/option>/.exec(/<select class="usa-select" id="filter-assignee"[^>]*>[\s\S]*?<\/select>/.exec(byChoice.body)![0])![0], new RegExp(h.who.programAdmin.email.replace(/[.]/g, '\\.')), 'and stays selected');
      // An address that is no staff member's stays shown as the filter applied, and matches nothing.
      const unknown = await webGet(h, `${QUEUE}&assignee=${encodeURIComponent('nobody@example.org')}`, 'reader');
      assert.deepEqual(numbers(unknown.body), []);
      assert.ok(assigneeChoices(unknown.body).some(([value]) => value === 'nobody@example.org'));
    });
  });

  describe('paging by cursor', () => {
    it('continues exactly where the last page ended, in both orders', async () => {
      const h = harness();
      const desc = await allPages(h, `${QUEUE}&size=25&order=created-desc`);
      assert.equal(desc.length, 28);
      assert.equal(new Set(desc).size, 28);
      const asc = await allPages(h, `${QUEUE}&size=25&order=created-asc`);
      assert.deepEqual(asc, [...desc].reverse());
    });

    it('neither repeats nor skips rows when projects are added between pages', async () => {
      const h = harness();
      const first = await webGet(h, `${QUEUE}&size=25&order=created-asc`, 'editor');
      const page1 = numbers(first.body);
      const next = nextLink(first.body);
      assert.ok(next);
      const added = [await submitted(h, '500'), await submitted(h, '501')];
      const rest = await allPages(h, next);
      const before = made.map((m) => m.number);
      assert.deepEqual([...page1, ...rest].filter((n) => !n.startsWith('Unsubmitted')), [...before, ...added.map((a) => a.number)]);
      // In newest-first order the new projects sit before the cursor, so the pages after it are exactly the old rest.
      const top = await webGet(h, `${QUEUE}&size=25&order=created-desc`, 'editor');
      const cursorUrl = nextLink(top.body)!;
      await submitted(h, '502');
      const tail = numbers((await webGet(h, cursorUrl, 'editor')).body);
      assert.equal(new Set([...numbers(top.body), ...tail]).size, numbers(top.body).length + tail.length, 'no project on two pages');
      assert.equal(numbers(top.body).length + tail.length, 30);
    });

    it('goes back a page from the second: the first page again, with no previous page', async () => {
      const h = harness();
      for (const order of ['created-desc', 'created-asc', 'updated-desc']) {
        const first = await webGet(h, `${QUEUE}&size=25&order=${order}`, 'editor');
        assert.equal(previousLink(first.body), null);
        assert.doesNotMatch(first.body, />First page</);
        const second = await webGet(h, nextLink(first.body)!, 'editor');
        assert.match(second.body, />First page</);
        const back = await webGet(h, previousLink(second.body)!, 'editor');
        assert.equal(back.statusCode, 200, back.body);
        assert.deepEqual(numbers(back.body), numbers(first.body), order);
        assert.equal(previousLink(back.body), null, 'back at the start: no previous page');
        assert.deepEqual(numbers((await webGet(h, nextLink(back.body)!, 'editor')).body), numbers(second.body));
      }
    });

    it('refuses a cursor it did not give out, or one of another order', async () => {
      const h = harness();
      const bad = await webGet(h, `${QUEUE}&cursor=not-a-cursor`, 'editor');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /cursor is not one this queue gave out/);
      const desc = await webGet(h, `${QUEUE}&size=25&order=created-desc`, 'editor');
      const cursor = new URL(nextLink(desc.body)!, 'http://x').searchParams.get('cursor')!;
      const other = await webGet(h, `${QUEUE}&size=25&order=created-asc&cursor=${cursor}`, 'editor');
      assert.equal(other.statusCode, 400);
      const back = (way: unknown) => Buffer.from(JSON.stringify(['created', 'desc', 1, 'X', way])).toString('base64url');
      assert.equal((await webGet(h, `${QUEUE}&size=25&order=created-desc&cursor=${back('sideways')}`, 'editor')).statusCode, 400);
      assert.equal((await webGet(h, `${QUEUE}&size=25&order=created-desc&cursor=${back('back')}`, 'editor')).statusCode, 200);
    });
  });

  // Last but the CSV tests, which list by a filter: enough projects for three pages and more.
  describe('paging back and forth', () => {
    it('pages forward to the end and back to the start, each page the same either way', async () => {
      const h = harness();
      for (let i = 0; i < 30; i++) await createProject(h, 'otherApplicant');
      for (const order of ['updated-desc', 'created-asc']) {
        const forward: string[][] = [];
        let res = await webGet(h, `${QUEUE}&size=25&order=${order}`, 'reader');
        forward.push(numbers(res.body));
        for (let url = nextLink(res.body); url !== null; url = nextLink(res.body)) {
          res = await webGet(h, url, 'reader');
          forward.push(numbers(res.body));
        }
        assert.ok(forward.length >= 3, `three pages or more: ${forward.length}`);
        assert.equal(new Set(forward.flat()).size, forward.flat().length, 'no project twice');
        const backward: string[][] = [numbers(res.body)];
        for (let url = previousLink(res.body); url !== null; url = previousLink(res.body)) {
          res = await webGet(h, url, 'reader');
          backward.unshift(numbers(res.body));
        }
        assert.deepEqual(backward, forward, order);
      }
    });
  });

  describe('deadlines: the overdue filter and the due-date order', () => {
    const DAY = 86_400_000;
    /** Puts a deadline row on a project as the deadline service would (the queue only reads the table). */
    async function deadline(h: HttpHarness, projectId: string, deadlineId: string, dueAt: number, end?: 'passed' | 'satisfied') {
      const id = `pd-${projectId}-${deadlineId}`;
      await h.store.transaction(async (tx) => {
        await tx.deadlines.startProjectDeadline({
          id, projectId, programId: IDS.program, deadlineId, startedAt: h.clock.now(), dueDate: new Date(dueAt).toISOString().slice(0, 10), dueAt, startedBy: null,
        });
        if (end) assert.ok(await tx.deadlines.endProjectDeadline(id, end, h.clock.now(), null));
        // What the change step of a passed deadline keeps: the overdue bit, both fixture statuses having a move onward.
        if (end === 'passed') await tx.queueViews.keepQueueAttention(projectId, overdueRecount([IDS.draft, IDS.submitted]));
      });
    }
    // soon: due in 3 days; soonest: tomorrow; late: running, due an hour ago (the poller has not fired it yet);
    // fired: passed two days ago; met: satisfied; two: running twice, the earlier in 2 days (the one it sorts by).
    const p = () => ({ soon: made[20]!, soonest: made[21]!, late: made[22]!, fired: made[23]!, met: made[24]!, two: made[25]! });
    before(async () => {
      const h = harness();
      const now = h.clock.now();
      await deadline(h, p().soon.projectId, 'answer', now + 3 * DAY);
      await deadline(h, p().soonest.projectId, 'answer', now + DAY);
      await deadline(h, p().late.projectId, 'answer', now - 3_600_000);
      await deadline(h, p().fired.projectId, 'answer', now - 2 * DAY, 'passed');
      await deadline(h, p().met.projectId, 'answer', now + DAY, 'satisfied');
      await deadline(h, p().two.projectId, 'answer', now + 5 * DAY);
      await deadline(h, p().two.projectId, 'inspection', now + 2 * DAY);
    });

    it('sorts by the running deadline due first, soonest first, projects without one last, across pages', async () => {
      const h = harness();
      const all = await allPages(h, `${QUEUE}&order=due-asc&size=25`);
      assert.deepEqual(all.slice(0, 4), [p().late.number, p().soonest.number, p().two.number, p().soon.number]);
      const everyone = await allPages(h, `${QUEUE}&size=100`);
      assert.equal(all.length, everyone.length);
      assert.deepEqual([...all].sort(), [...everyone].sort(), 'every project once, none repeated across the pages');
      const latest = await allPages(h, `${QUEUE}&order=due-desc&size=25`);
      assert.deepEqual(latest.slice(0, 4), [p().soon.number, p().two.number, p().soonest.number, p().late.number], 'latest first, still without one last');
      assert.equal(latest.length, everyone.length);
      const page = await webGet(h, `${QUEUE}&order=due-asc`, 'editor');
      assert.match(page.body, /<option value="due-asc" selected>Due date, soonest first<\/option>/);
    });

    it('filters overdue projects: a running deadline past due, or a passed one while the project is open', async () => {
      const h = harness();
      const overdue = await webGet(h, `${QUEUE}&overdue=1&order=due-asc`, 'editor');
      assert.equal(overdue.statusCode, 200, overdue.body);
      assert.deepEqual(numbers(overdue.body), [p().late.number, p().fired.number]);
      assert.match(overdue.body, /<input class="usa-checkbox__input" type="checkbox" id="filter-overdue" name="overdue" value="1" checked\/>/);
      const withStatus = await webGet(h, `${QUEUE}&overdue=1&status=${IDS.draft}`, 'editor');
      assert.deepEqual(numbers(withStatus.body), [], 'combined with the other filters');
      // In a status with no move onward (here: recounted as if none of the statuses were open) a passed deadline is over.
      const recount = (open: string[]) => h.store.transaction((tx) => tx.queueViews.keepQueueAttention(p().fired.projectId, overdueRecount(open)));
      await recount([]);
      const closed = await h.store.projects.workQueuePage({ programId: IDS.program, fields: [], sort: 'due', direction: 'asc', limit: 10, overdue: { now: h.clock.now() } });
      assert.deepEqual(closed.map((r) => r.project.number), [p().late.number]);
      await recount([IDS.draft, IDS.submitted]);
      const csv = await webGet(h, `${QUEUE}&overdue=1&order=due-asc&format=csv`, 'reader');
      assert.equal(csv.statusCode, 200);
      const csvRows = csv.body.trimEnd().split('\r\n').slice(1).map((l) => l.split(','));
      assert.deepEqual(csvRows.map((r) => r[0]), [p().late.number, p().fired.number]);
      const late = (await h.store.deadlines.listProjectDeadlines(p().late.projectId))[0]!;
      assert.deepEqual(csvRows.map((r) => r.slice(8, 10)), [['answer', late.dueDate], ['', '']], 'the running deadline due first and its day; none for a passed one');
      const bad = await webGet(h, `${QUEUE}&overdue=yes`, 'editor');
      assert.equal(bad.statusCode, 400);
      assert.match(bad.body, /<a href="#filter-overdue">Overdue only is either ticked or not.<\/a>/);
    });
  });

  describe('CSV', () => {
    it('streams the filtered list with the values a reader may see; sensitive values masked', async () => {
      const h = harness();
      const res = await webGet(h, `${QUEUE}&field=kw&op=le&value=2&order=created-asc&format=csv`, 'reader');
      assert.equal(res.statusCode, 200);
      assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
      assert.match(String(res.headers['content-disposition']), /^attachment; filename="solar-projects.csv"/);
      assert.equal(res.headers['content-length'], undefined, 'streamed, not buffered');
      assert.equal(res.headers['cache-control'], 'no-store');
      const lines = res.body.trimEnd().split('\r\n');
      assert.equal(lines[0], 'Number,Project id,Applicant,Status,Assignee,Submitted,Created,Last change,Next deadline,Due by,Applicant name,System size,Capacity (kW)');
      assert.equal(lines.length, 3);
      const first = lines[1]!.split(',');
      assert.equal(first[0], made[0]!.number);
      assert.equal(first[3], 'Submitted');
      assert.deepEqual(first.slice(8), ['', '', '********', 'Small', '1'], 'the sensitive applicant name is masked, a choice shown by its label');
      assert.doesNotMatch(res.body, /Jane/);
    });

    it('writes cells with quotes, commas and formulas safely', () => {
      assert.equal(csvLine(['a,b', 'say "hi"', '=HYPERLINK("x")', '-1', 'plain']), '"a,b","say ""hi""","\'=HYPERLINK(""x"")",\'-1,plain\r\n');
    });
  });
});
