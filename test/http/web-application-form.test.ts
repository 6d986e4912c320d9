import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, dataRequest, type HttpHarness, type Who } from '../support/http-harness.ts';
import { createProject, draftPath, setDraft, sharedHarness } from './http-helpers.ts';
import { csrfToken } from './inquiry-helpers.ts';

// The applicant's form pages through app.inject: GET/POST /MvcProjects/Programs/:p/Projects/:id/Forms/:form, uploads
// and downloads. The pages call the API's own services, so they refuse exactly what the API refuses, and a refused
// request changes nothing (read back from the store).

const MASK = '********';
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function formUrl(projectId: string): string {
  return `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Forms/${IDS.form}`;
}

function basic(h: HttpHarness, who: Who): Record<string, string> {
  return { authorization: authHeaders(h.who[who]).authorization! };
}

function get(h: HttpHarness, url: string, who: Who): Promise<LightMyRequestResponse> {
  return h.app.inject({ method: 'GET', url, headers: basic(h, who) });
}

/** Posts the form page as `who` with the page's CSRF token (left out with `csrf: false`); `fields` may repeat a name. */
async function postForm(h: HttpHarness, projectId: string, who: Who, fields: [string, string][], opts: { csrf?: boolean } = {}): Promise<LightMyRequestResponse> {
  const csrf = opts.csrf === false ? null : await csrfToken(h);
  const body = new URLSearchParams([...(csrf ? [['_csrf', csrf.token] as [string, string]] : []), ...fields]).toString();
  return h.app.inject({
    method: 'POST', url: formUrl(projectId), payload: body,
    headers: { ...basic(h, who), ...(csrf ? { cookie: csrf.cookie } : {}), 'content-type': 'application/x-www-form-urlencoded' },
  });
}

/** A multipart body: fields (the first is what a browser sends first) and files, each part as a browser writes it. */
function multipart(fields: [string, string][], files: { field: string; name: string; type: string; bytes: Buffer }[]): { payload: Buffer; type: string } {
  const boundary = 'xxBOUNDARYxx';
  const parts = [
    ...fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)),
    ...files.flatMap((f) => [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.bytes, Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ];
  return { payload: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * Posts the form page as a browser does since it has files: one multipart body, the CSRF token its first part (left
 * out with `csrf: false`, or sent only in the address with `csrf: 'query'`), then `fields`, then the site photo's
 * file input. `action` is the button pressed.
 */
async function postMultipart(
  h: HttpHarness, projectId: string, who: Who, fields: [string, string][], file: { name: string; type: string; bytes: Buffer } | null,
  opts: { csrf?: boolean | 'query' | 'last' | 'wrong' } = {},
): Promise<LightMyRequestResponse> {
  const csrf = opts.csrf === false ? null : await csrfToken(h);
  const token: [string, string][] = csrf && (opts.csrf === undefined || opts.csrf === true) ? [['_csrf', csrf.token]] : opts.csrf === 'wrong' ? [['_csrf', 'not-the-token']] : [];
  const body = multipart([...token, ...fields, ...(csrf && opts.csrf === 'last' ? [['_csrf', csrf.token] as [string, string]] : [])],
    file ? [{ field: `file_${IDS.photo}`, ...file }] : [{ field: `file_${IDS.photo}`, name: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) }]);
  const query = csrf && opts.csrf === 'query' ? `?_csrf=${encodeURIComponent(csrf.token)}` : '';
  return h.app.inject({
    method: 'POST', url: `${formUrl(projectId)}${query}`, payload: body.payload,
    headers: { ...basic(h, who), ...(csrf ? { cookie: csrf.cookie } : {}), 'content-type': body.type },
  });
}

/** Uploads a file from the form page as `who`: its Upload button, with no field changed. */
function upload(h: HttpHarness, projectId: string, who: Who, file: { name: string; type: string; bytes: Buffer }, opts: { csrf?: boolean | 'query' } = {}): Promise<LightMyRequestResponse> {
  return postMultipart(h, projectId, who, [['action', `upload:${IDS.photo}`]], file, opts);
}

/** What a form-page request could change about a project, straight from the store. */
async function state(h: HttpHarness, projectId: string) {
  return {
    project: await h.store.projects.getProject(IDS.program, projectId),
    draft: await h.store.projects.getDraft(projectId, IDS.form),
    files: await h.store.attachments.listActiveAttachments(projectId),
  };
}

async function draftOf(h: HttpHarness, projectId: string): Promise<Record<string, string | string[] | null>> {
  const rows = await h.store.projects.getDraft(projectId, IDS.form);
  return Object.fromEntries(rows.map((v) => [v.fieldId, v.values ?? v.value]));
}

function assertHtml(res: LightMyRequestResponse, status: number): void {
  assert.equal(res.statusCode, status, res.body);
  assert.match(String(res.headers['content-type']), /^text\/html; charset=utf-8/);
}

const VALID: [string, string][] = [[IDS.name, 'Jane Doe'], [IDS.size, ''], [IDS.size, 'S'], [IDS.size, 'M'], [IDS.kw, ' 7.5 '], ['action', 'save']];

forEachDialect('HTTP web form pages', ({ dialect }) => {
  const harness = sharedHarness(dialect, { APAS_MAX_UPLOAD_BYTES: '1024' });

  it('starting an application lands on the first form page', async () => {
    const h = harness();
    const csrf = await csrfToken(h);
    const res = await h.app.inject({
      method: 'POST', url: '/MvcProjects/NewProject', payload: new URLSearchParams({ _csrf: csrf.token, ProgramId: IDS.program }).toString(),
      headers: { ...basic(h, 'applicant'), cookie: csrf.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(res.statusCode, 303, res.body);
    assert.match(String(res.headers.location), new RegExp(`^/MvcProjects/Programs/${IDS.program}/Projects/[0-9A-Z]{12}/Forms/${IDS.form}$`));
  });

  it('shows every field of the form with its control, help and required marker, and the attachment with its rules', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const res = await get(h, formUrl(projectId), 'applicant');
    assertHtml(res, 200);
    assert.equal(res.headers['cache-control'], 'no-store');
    assert.match(res.body, new RegExp(`<label class="usa-label" for="field-${IDS.name}">Applicant name<span class="usa-hint usa-hint--required"> \\(required\\)</span></label>`));
    assert.match(res.body, new RegExp(`<input class="usa-checkbox__input" type="checkbox" id="field-${IDS.size}" name="${IDS.size}" value="S"/>`), 'a multi-value choice is a checkbox group');
    assert.match(res.body, new RegExp(`<input class="usa-input" type="text" id="field-${IDS.kw}" name="${IDS.kw}" value[^>]*inputmode="decimal"`));
    assert.match(res.body, /A number from 0.5 to 1000.25/);
    assert.match(res.body, new RegExp(`<input class="usa-file-input" type="file" id="attachment-${IDS.photo}" name="file_${IDS.photo}" accept="image/jpeg,image/png"`));
    assert.match(res.body, /Save draft/);
  });

  it('saves a draft with the rules of the API, masks the sensitive value after saving, and keeps it when the mask is sent back', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const saved = await postForm(h, projectId, 'applicant', VALID);
    assert.equal(saved.statusCode, 303, saved.body);
    assert.equal(saved.headers.location, `${formUrl(projectId)}?saved=1`);
    assert.deepEqual(await draftOf(h, projectId), { [IDS.name]: 'Jane Doe', [IDS.size]: ['S', 'M'], [IDS.kw]: '7.5' });
    const page = await get(h, `${formUrl(projectId)}?saved=1`, 'applicant');
    assert.match(page.body, /Your draft was saved\./);
    assert.match(page.body, new RegExp(`name="${IDS.name}" value="\\*{8}"`));
    assert.doesNotMatch(page.body, /Jane Doe/);
    // The mask sent back keeps the value; the boxes unticked (only the empty marker sent) clear the choices.
    h.clock.advance();
    const again = await postForm(h, projectId, 'applicant', [[IDS.name, MASK], [IDS.size, ''], [IDS.kw, '8'], ['action', 'save']]);
    assert.equal(again.statusCode, 303, again.body);
    assert.deepEqual(await draftOf(h, projectId), { [IDS.name]: 'Jane Doe', [IDS.size]: null, [IDS.kw]: '8' });
  });

  it('refuses what the API refuses with the same message, beside the field and in the summary; shows what was typed and saves nothing', async () => {
    const h = harness();
    const projectId = await createProject(h);
    await setDraft(h, projectId, { kw: '7.5' });
    const viaApi = await h.request({ method: 'POST', url: draftPath(projectId), as: 'applicant', body: dataRequest({ kw: '0.1' }) });
    assert.equal(viaApi.statusCode, 422);
    const apiMessage = /Message="([^"]*)"/.exec(viaApi.body.split('<FieldError')[1] ?? '')?.[1];
    assert.ok(apiMessage, viaApi.body);
    const before = await state(h, projectId);
    const res = await postForm(h, projectId, 'applicant', [[IDS.name, '<b>Jo</b>'], [IDS.kw, '0.1'], ['action', 'save']]);
    assertHtml(res, 422);
    assert.match(res.body, /Your draft was not saved: correct these problems/);
    assert.ok(res.body.includes(`<a href="#field-${IDS.kw}">${apiMessage}</a>`), 'the summary links the API\'s message to the field');
    assert.ok(res.body.includes(`id="field-${IDS.kw}-error"`), 'the error beside the field');
    assert.match(res.body, new RegExp(`name="${IDS.kw}" value="0.1"`), 'what was typed');
    assert.match(res.body, new RegExp(`name="${IDS.name}" value="&lt;b>Jo&lt;/b>"`), 'typed markup shown as text');
    const notInList = await postForm(h, projectId, 'applicant', [[IDS.size, 'XXL'], ['action', 'save']]);
    assertHtml(notInList, 422);
    assert.match(notInList.body, new RegExp(`<a href="#field-${IDS.size}">&quot;XXL&quot; is not a choice of System size.</a>`));
    assert.deepEqual(await state(h, projectId), before);
  });

  it('submits a complete draft to the project page with the confirmation, and lists what is missing otherwise (the draft saved)', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const incomplete = await postForm(h, projectId, 'applicant', [[IDS.kw, '5'], ['action', 'submit']]);
    assertHtml(incomplete, 422);
    assert.match(incomplete.body, /Application cannot be submitted yet: your draft was saved, but this is missing or wrong/);
    assert.ok(incomplete.body.includes(`<a href="#field-${IDS.name}">Applicant name is required.</a>`));
    assert.deepEqual(await draftOf(h, projectId), { [IDS.kw]: '5' });
    assert.equal((await h.store.projects.getProject(IDS.program, projectId))!.number, null);
    h.clock.advance();
    const done = await postForm(h, projectId, 'applicant', [[IDS.name, 'Jane'], [IDS.kw, '5'], ['action', 'submit']]);
    assert.equal(done.statusCode, 303, done.body);
    assert.equal(done.headers.location, `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}&Submitted=${IDS.form}`);
    const project = (await h.store.projects.getProject(IDS.program, projectId))!;
    assert.equal(project.statusId, IDS.submitted);
    const page = await get(h, String(done.headers.location), 'applicant');
    assertHtml(page, 200);
    assert.match(page.body, /Your application was submitted/);
    assert.ok(page.body.includes(`Project number <strong>${project.number}</strong>, status <strong>Submitted</strong>.`));
    // The form is closed in the new status: the page is read-only and a post is refused, changing nothing.
    const closed = await get(h, formUrl(projectId), 'applicant');
    assert.match(closed.body, /cannot be changed while the project is in status &quot;Submitted&quot;/);
    assert.doesNotMatch(closed.body, /Save draft/);
    const before = await state(h, projectId);
    assertHtml(await postForm(h, projectId, 'applicant', [[IDS.kw, '9'], ['action', 'save']]), 409);
    assert.deepEqual(await state(h, projectId), before);
  });

  const matrix: [Who, number, boolean][] = [
    ['applicant', 200, true], ['editor', 200, true], ['admin', 200, true], ['reader', 200, false], ['otherApplicant', 404, false], ['outsider', 403, false],
  ];
  for (const [who, status, editable] of matrix) {
    it(`answers ${who} with ${status}${status === 200 ? (editable ? ' and a form to fill in' : ', read-only') : ''}; a refused post changes nothing`, async () => {
      const h = harness();
      const projectId = await createProject(h);
      await setDraft(h, projectId, { name: 'Jane Doe', kw: '7.5' });
      const res = await get(h, formUrl(projectId), who);
      assertHtml(res, status);
      if (status === 200) assert.equal(/Save draft/.test(res.body), editable);
      else assert.doesNotMatch(res.body, /Jane|7\.5|Applicant name/);
      if (!editable) {
        const before = await state(h, projectId);
        const post = await postForm(h, projectId, who, [[IDS.kw, '9'], ['action', 'save']]);
        assertHtml(post, who === 'reader' ? 403 : status);
        const up = await upload(h, projectId, who, { name: 'x.png', type: 'image/png', bytes: PNG });
        assertHtml(up, who === 'reader' ? 403 : status);
        assert.deepEqual(await state(h, projectId), before);
      }
    });
  }

  it('refuses a post or an upload without the CSRF token (403) and changes nothing', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const before = await state(h, projectId);
    assertHtml(await postForm(h, projectId, 'applicant', [[IDS.kw, '9'], ['action', 'save']], { csrf: false }), 403);
    assertHtml(await upload(h, projectId, 'applicant', { name: 'x.png', type: 'image/png', bytes: PNG }, { csrf: false }), 403);
    assert.deepEqual(await state(h, projectId), before);
  });

  it('keeps the CSRF token of a multipart post in its body: none in any form address, and a token missing, wrong, late or in the address is refused', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const html = (await get(h, formUrl(projectId), 'applicant')).body;
    const actions = [...html.matchAll(/<form [^>]*action="([^"]*)"/g)].map((m) => m[1]!);
    assert.ok(actions.length >= 2, html);
    for (const action of actions) assert.doesNotMatch(action, /_csrf|\?/, `no token in ${action}`);
    assert.match(html, new RegExp(`<form method="post" action="${formUrl(projectId)}" enctype="multipart/form-data" id="form-data" novalidate><input type="hidden" name="_csrf" value="[^"]+"/>`), 'the token is the first control, so the first part');
    const before = await state(h, projectId);
    const typed: [string, string][] = [[IDS.kw, '9'], ['action', `upload:${IDS.photo}`]];
    for (const csrf of [false, 'wrong', 'last', 'query'] as const) {
      assertHtml(await postMultipart(h, projectId, 'applicant', typed, { name: 'x.png', type: 'image/png', bytes: PNG }, { csrf }), 403);
    }
    assert.deepEqual(await state(h, projectId), before, 'neither the draft nor the file was stored');
    const ok = await postMultipart(h, projectId, 'applicant', typed, { name: 'x.png', type: 'image/png', bytes: PNG });
    assert.equal(ok.statusCode, 303, ok.body);
  });

  it('saves what was typed and stores the file in one post: Upload, Save draft and Submit each keep both', async () => {
    const h = harness();
    const projectId = await createProject(h);
    // Upload pressed after typing: the fields are saved and the file stored.
    const up = await postMultipart(h, projectId, 'applicant', [[IDS.name, 'Jane Doe'], [IDS.kw, '7.5'], ['action', `upload:${IDS.photo}`]], { name: 'roof.png', type: 'image/png', bytes: PNG });
    assert.equal(up.statusCode, 303, up.body);
    assert.equal(up.headers.location, `${formUrl(projectId)}?uploaded=1`);
    assert.deepEqual(await draftOf(h, projectId), { [IDS.name]: 'Jane Doe', [IDS.kw]: '7.5' });
    assert.deepEqual((await h.store.attachments.listActiveAttachments(projectId)).map((a) => [a.fileName, a.version]), [['roof.png', 1]]);
    assert.match((await get(h, `${formUrl(projectId)}?uploaded=1`, 'applicant')).body, /Your draft was saved and the file was uploaded\./);
    // A refused file does not cost the typed fields: they are saved, and the page says what happened to each.
    h.clock.advance();
    const wrongType = await postMultipart(h, projectId, 'applicant', [[IDS.kw, '8'], ['action', `upload:${IDS.photo}`]], { name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('x') });
    assertHtml(wrongType, 415);
    assert.match(wrongType.body, /The file was not uploaded; your draft was saved/);
    assert.match(wrongType.body, /This file is a text file; only JPEG or PNG is accepted\./);
    assert.equal((await draftOf(h, projectId))[IDS.kw], '8');
    // A refused draft does not cost the file: it is stored, and the page shows what was typed with the problem.
    h.clock.advance();
    const badValue = await postMultipart(h, projectId, 'applicant', [[IDS.kw, '0.1'], ['action', 'save']], { name: 'roof-2.png', type: 'image/png', bytes: PNG });
    assertHtml(badValue, 422);
    assert.match(badValue.body, /Your draft was not saved: correct these problems/);
    assert.match(badValue.body, /The file was uploaded\./);
    assert.match(badValue.body, new RegExp(`name="${IDS.kw}" value="0.1"`), 'what was typed');
    assert.deepEqual((await h.store.attachments.listActiveAttachments(projectId)).map((a) => [a.fileName, a.version]), [['roof-2.png', 2]]);
    assert.equal((await draftOf(h, projectId))[IDS.kw], '8');
    // Upload pressed with no file chosen: said beside the input; what was typed is saved.
    h.clock.advance();
    const noFile = await postMultipart(h, projectId, 'applicant', [[IDS.kw, '9'], ['action', `upload:${IDS.photo}`]], null);
    assertHtml(noFile, 400);
    assert.match(noFile.body, /Choose a file to upload\./);
    assert.equal((await draftOf(h, projectId))[IDS.kw], '9');
    // Submit with a file chosen: saved, stored and submitted at once.
    h.clock.advance();
    const done = await postMultipart(h, projectId, 'applicant', [[IDS.kw, '10'], ['action', 'submit']], { name: 'final.png', type: 'image/png', bytes: PNG });
    assert.equal(done.statusCode, 303, done.body);
    assert.match(String(done.headers.location), /^\/MvcProjects\/LandingPage\?/);
    assert.equal((await h.store.projects.getValues(projectId, [IDS.kw]))[0]?.value, '10');
    assert.deepEqual((await h.store.attachments.listActiveAttachments(projectId)).map((a) => [a.fileName, a.version]), [['final.png', 3]]);
  });

  it('uploads and replaces a file; refuses a wrong type, an empty file and one over the limit beside the input, storing nothing', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const first = await upload(h, projectId, 'applicant', { name: 'roof.png', type: 'image/png', bytes: PNG });
    assert.equal(first.statusCode, 303, first.body);
    assert.equal(first.headers.location, `${formUrl(projectId)}?uploaded=1`);
    h.clock.advance();
    assert.equal((await upload(h, projectId, 'applicant', { name: '<img src=x onerror=alert(1)>.png', type: 'image/png', bytes: PNG })).statusCode, 303);
    const page = await get(h, formUrl(projectId), 'applicant');
    assert.ok(page.body.includes('>&lt;img src=x onerror=alert(1)>.png</a>'), 'the file name as text');
    assert.match(page.body, /<dt>Version<\/dt><dd>2<\/dd>/);
    assert.match(page.body, /<dt>Review<\/dt><dd><span class="usa-tag review-pending">Pending<\/span>/);
    const before = await state(h, projectId);
    for (const [file, status, message] of [
      [{ name: 'page.html', type: 'text/html', bytes: Buffer.from('<p>x</p>') }, 415, /This file is a web page \(HTML\); only JPEG or PNG is accepted\./],
      [{ name: 'notes.txt', type: 'text/plain', bytes: Buffer.from('x') }, 415, /This file is a text file; only JPEG or PNG is accepted\./],
      [{ name: 'empty.png', type: 'image/png', bytes: Buffer.alloc(0) }, 400, /The request body is empty/],
      [{ name: 'big.png', type: 'image/png', bytes: Buffer.alloc(4096, 1) }, 413, /Site photo accepts files of at most 1024 bytes/],
    ] as const) {
      const res = await upload(h, projectId, 'applicant', file);
      assertHtml(res, status);
      assert.match(res.body, /The file was not uploaded/);
      assert.match(res.body, message);
      assert.ok(res.body.includes(`href="#attachment-${IDS.photo}"`), 'linked to the file input');
    }
    assert.deepEqual(await state(h, projectId), before);
    // The file downloads as an attachment for whoever may read the project, never for another applicant.
    const file = `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Attachments/${IDS.photo}`;
    const download = await get(h, file, 'applicant');
    assert.equal(download.statusCode, 200);
    assert.equal(download.headers['content-type'], 'image/png');
    assert.match(String(download.headers['content-disposition']), /^attachment; filename="<img src=x onerror=alert\(1\)>.png"/);
    assert.equal(download.headers['x-content-type-options'], 'nosniff');
    assert.deepEqual(download.rawPayload, PNG);
    assertHtml(await get(h, file, 'otherApplicant'), 404);
  });

  it('shows on My projects what waits for the applicant', async () => {
    const h = harness();
    const projectId = await createProject(h);
    const home = await get(h, '/MvcProjects/', 'applicant');
    assertHtml(home, 200);
    const row = new RegExp(`ProjectId=${projectId}">Draft</a>[\\s\\S]*?Application: to complete`);
    assert.match(home.body, row);
    await setDraft(h, projectId, { name: 'Jane', kw: '5' });
    assert.match((await get(h, '/MvcProjects/', 'applicant')).body, new RegExp(`ProjectId=${projectId}">Draft</a>[\\s\\S]*?Application: ready to submit`));
  });
});
