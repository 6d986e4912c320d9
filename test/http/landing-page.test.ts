import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { attr, authHeaders, type HttpHarness, NS, type Who } from '../support/http-harness.ts';
import { seedWorkflowProgram } from '../support/workflow-fixtures.ts';
import { COMPLETE, createProject, createSubmitted, projectPath, setDraft, sharedHarness, submitPath } from './http-helpers.ts';

// The project landing page: GET /MvcProjects/LandingPage?ProgramId=…&ProjectId=… (the Url of project answers).
// HTML, signed in with HTTP Basic (e-mail and password; no API key needed).

function page(h: HttpHarness, url: string, who: Who | null, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  const auth = who ? { authorization: authHeaders(h.who[who]).authorization! } : {};
  return h.app.inject({ method: 'GET', url, headers: { ...auth, ...headers } });
}

function assertHtml(res: LightMyRequestResponse, status: number): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
  assert.match(res.body, /^<!doctype html>/);
}

forEachDialect('HTTP landing page', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let url = '';
  let number = '';
  let unsubmittedUrl = '';

  before(async () => {
    const h = harness();
    const projectId = await createProject(h, 'applicant');
    await setDraft(h, projectId, { name: COMPLETE.name, size: [...COMPLETE.size], kw: COMPLETE.kw });
    h.clock.advance();
    const res = await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
    assert.equal(res.statusCode, 200, res.body);
    number = attr(res.body, 'Project', 'ProjectNumber')!;
    url = attr(res.body, 'Project', 'Url')!.replace(/&amp;/g, '&').replace('http://apas.test', '');
    const other = await createProject(h, 'applicant');
    unsubmittedUrl = `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${other}`;
  });

  it('shows the submitted project to its owner: number, program, status, owner and history, never cached', async () => {
    const h = harness();
    assert.match(url, new RegExp(`^/MvcProjects/LandingPage\\?ProgramId=${IDS.program}&ProjectId=[0-9A-Z]{12}$`));
    const res = await page(h, url, 'applicant');
    assertHtml(res, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.body, new RegExp(`<h1>${number}</h1>`));
    assert.match(res.body, /Solar Interconnection/);
    assert.match(res.body, /<dt>Status<\/dt><dd><span class="usa-tag">Submitted<\/span> since/);
    assert.match(res.body, new RegExp(`<dt>Owner</dt><dd>User ${h.who.applicant.id}</dd>`));
    const history = [...res.body.matchAll(/<tr><td>([^<]*)<\/td>/g)].map((m) => m[1]);
    assert.deepEqual(history, ['Submitted', 'Draft'], 'history, newest first');
    assert.match(res.body, /<h2 id="data">Submitted data<\/h2>/);
    assert.match(res.body, /<dt>Capacity \(kW\)<\/dt><dd>7.5<\/dd>/, 'the submitted data is shown to its owner');
    assert.match(res.body, /<dt>Applicant name<\/dt><dd>\*{8}<\/dd>/, 'a sensitive value masked');
    assert.doesNotMatch(res.body, /Jane Doe/, 'never in plain text');
  });

  it('shows an unsubmitted project as such', async () => {
    const h = harness();
    const res = await page(h, unsubmittedUrl, 'applicant');
    assertHtml(res, 200);
    assert.match(res.body, /<h1>Unsubmitted project<\/h1>/);
    assert.match(res.body, /<dt>Status<\/dt><dd><span class="usa-tag">Draft<\/span> since/);
  });

  const matrix: [Who, number][] = [
    ['admin', 200], ['programAdmin', 200], ['editor', 200], ['reader', 200], ['applicant', 200],
    ['otherApplicant', 404], ['outsider', 403],
  ];
  for (const [who, status] of matrix) {
    it(`answers ${who} with ${status}`, async () => {
      const h = harness();
      const res = await page(h, url, who);
      assertHtml(res, status);
      if (status === 200) assert.match(res.body, new RegExp(`<h1>${number}</h1>`));
      else assert.doesNotMatch(res.body, new RegExp(number));
    });
  }

  it('sends a browser without any sign-in to the sign-in page (no Basic prompt), and back here afterwards', async () => {
    const h = harness();
    const res = await page(h, url, null);
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, `/MvcProjects/SignIn?next=${encodeURIComponent(url)}`);
    assert.equal(res.headers['www-authenticate'], undefined);
    assert.doesNotMatch(res.body, new RegExp(number));
  });

  it('answers a wrong password with 401 and a Basic challenge', async () => {
    const h = harness();
    const wrong = `Basic ${Buffer.from(`${h.who.applicant.email}:wrong`).toString('base64')}`;
    const res = await page(h, url, null, { authorization: wrong });
    assertHtml(res, 401);
    assert.ok(res.headers['www-authenticate']);
    assert.match(res.body, /The e-mail address or password was not right/);
  });

  it('refuses a disabled user with 401', async () => {
    const h = harness();
    assertHtml(await page(h, url, 'reader'), 200);
    await h.store.transaction((tx) => tx.accounts.updateUser(h.who.reader.id, { disabled: true }, h.clock.now()));
    try {
      assertHtml(await page(h, url, 'reader'), 401);
    } finally {
      await h.store.transaction((tx) => tx.accounts.updateUser(h.who.reader.id, { disabled: false }, h.clock.now()));
    }
  });

  for (const [what, query, status] of [
    ['no ProjectId', () => `ProgramId=${IDS.program}`, 400],
    ['no ProgramId', () => `ProjectId=${url.split('ProjectId=')[1]}`, 400],
    ['an id that cannot be an id', () => `ProgramId=${IDS.program}&ProjectId=..%2F..`, 400],
    ['an unknown project', () => `ProgramId=${IDS.program}&ProjectId=NOSUCHPROJCT`, 404],
    ['an unknown program', () => `ProgramId=nowhere&ProjectId=${url.split('ProjectId=')[1]}`, 404],
  ] as const) {
    it(`answers ${what} with ${status}`, async () => {
      const h = harness();
      assertHtml(await page(h, `/MvcProjects/LandingPage?${query()}`, 'applicant'), status);
    });
  }

  it('escapes what users typed: a name with markup is shown as text', async () => {
    const h = harness();
    const projectId = await createProject(h, 'editor');
    await h.store.transaction((tx) => tx.accounts.updateUser(h.who.editor.id, { name: '<script>alert("x")</script>' }, h.clock.now()));
    const res = await page(h, `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`, 'editor');
    assertHtml(res, 200);
    assert.doesNotMatch(res.body, /<script>/);
    assert.match(res.body, /&lt;script>alert\(&quot;x&quot;\)&lt;\/script>/);
  });

  it('follows a change of owner at once: the old applicant owner gets 404, the new one sees the page', async () => {
    const h = harness();
    const projectId = unsubmittedUrl.split('ProjectId=')[1]!;
    assertHtml(await page(h, unsubmittedUrl, 'applicant'), 200);
    const body = `<SetProjectOwnerRequest xmlns="${NS}"><OwnerEmail>${h.who.otherApplicant.email}</OwnerEmail></SetProjectOwnerRequest>`;
    const res = await h.request({ method: 'POST', url: `${projectPath(projectId)}/Owner`, as: 'applicant', body });
    assert.equal(res.statusCode, 200, res.body);
    assertHtml(await page(h, unsubmittedUrl, 'applicant'), 404);
    const now = await page(h, unsubmittedUrl, 'otherApplicant');
    assertHtml(now, 200);
    assert.match(now.body, new RegExp(`<dt>Owner</dt><dd>User ${h.who.otherApplicant.id}</dd>`));
  });

  describe('forms', () => {
    const ownHarness = sharedHarness(dialect);

    it('lists the forms the caller may read that are open now, fillable by them, or submitted: staff-only forms to staff, never to the applicant', async () => {
      const h = ownHarness();
      await seedWorkflowProgram(h.store);
      const drafted = await createProject(h, 'applicant');
      const { projectId: submitted } = await createSubmitted(h, 'applicant');
      const forms = async (projectId: string, who: Who) => {
        const res = await page(h, `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`, who);
        assertHtml(res, 200);
        const list = /<h2 id="forms">Forms<\/h2><ul class="usa-list forms">(.*?)<\/ul>/.exec(res.body)?.[1] ?? '';
        return [...list.matchAll(/<li><a [^>]*>([^<]*)<\/a>/g)].map((m) => m[1]!.replace(/^Fill in /, '').trim());
      };
      // In Draft only the application is open; Review opens on submission; admins may fill in every form at any time.
      for (const who of ['applicant', 'reader', 'editor'] as const) assert.deepEqual(await forms(drafted, who), ['Application'], who);
      assert.deepEqual(await forms(drafted, 'admin'), ['Application', 'Review', 'Archive']);
      assert.deepEqual(await forms(submitted, 'applicant'), ['Application'], 'submitted, and never the staff form');
      for (const who of ['reader', 'editor'] as const) assert.deepEqual(await forms(submitted, who), ['Application', 'Review'], who);
    });
  });
});
