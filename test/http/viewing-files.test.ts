import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { before, describe, it } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { DatabaseBlobStore } from '../../src/store/database-blob-store.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS } from '../support/fixtures.ts';
import { authHeaders, type HttpHarness, type Who } from '../support/http-harness.ts';
import { createProject, projectPath, sharedHarness, submitPath } from './http-helpers.ts';
import { webGet } from './web-page-helpers.ts';

// Seeing files (issue 32, §4): `?view=1` on a file's web address shows it in the browser, for the types that cannot
// run script only; everything else downloads as before, and who may read the file does not change.

const PNG = Buffer.from('\x89PNG\r\n\x1a\n-a-tiny-image', 'latin1');
const PNG_ETAG = `"${createHash('sha256').update(PNG).digest('hex')}"`;

function projectFile(projectId: string): string {
  return `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Attachments/${IDS.photo}`;
}
function reviewFile(projectId: string): string {
  return `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Review/Attachments/${IDS.photo}`;
}

/** A new active version of the project's photo with `contentType` (as stored by an upload the program allowed). */
async function storeVersion(h: HttpHarness, projectId: string, contentType: string, fileName: string): Promise<void> {
  const active = (await h.store.attachments.listActiveAttachments(projectId)).find((a) => a.definitionId === IDS.photo)!;
  // The harness keeps uploads in the database; each version has a file of its own.
  const stored = await new DatabaseBlobStore(h.store, h.clock).write(Readable.from([PNG]), PNG.length);
  await h.store.transaction((tx) => tx.attachments.insertAttachment({
    ...active, id: `ATTV${String(active.version + 1).padStart(8, '0')}`, version: active.version + 1, contentType, fileName, blobKey: stored.key,
  }));
}

function assertInline(res: LightMyRequestResponse, type: string, fileName: string): void {
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], type, 'the exact type, without the parameters the upload sent');
  assert.equal(res.headers['content-disposition'], `inline; filename="${fileName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`);
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  const csp = String(res.headers['content-security-policy']);
  assert.match(csp, /script-src 'none'/);
  assert.match(csp, /frame-ancestors 'none'/);
  assert.match(csp, type === 'application/pdf' ? /object-src 'self'/ : /object-src 'none'/);
  assert.deepEqual(res.rawPayload, PNG);
}

function assertDownload(res: LightMyRequestResponse, fileName: string): void {
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-disposition']), new RegExp(`^attachment; filename="${fileName.replace(/[.+]/g, '\\$&')}"`));
  assert.equal(res.headers['x-content-type-options'], 'nosniff');
  assert.match(String(res.headers['content-security-policy']), /script-src 'none'.*object-src 'none'/);
}

forEachDialect('HTTP viewing files in the browser', ({ dialect }) => {
  const harness = sharedHarness(dialect);
  let projectId = '';
  before(async () => {
    const h = harness();
    projectId = await createProject(h, 'applicant');
    const upload = await h.app.inject({
      method: 'POST', url: `${projectPath(projectId)}/Forms/application/Attachments/photo`, payload: PNG,
      headers: { ...authHeaders(h.who.applicant), 'content-type': 'image/png', 'content-disposition': 'attachment; filename="site.png"' },
    });
    assert.equal(upload.statusCode, 200, upload.body);
    await h.request({ method: 'POST', url: submitPath(projectId), as: 'applicant' });
  });

  it('shows a PNG inline with ?view=1 on the project page\'s and the review page\'s addresses, and downloads it without', async () => {
    const h = harness();
    assertInline(await webGet(h, `${projectFile(projectId)}?view=1`, 'applicant'), 'image/png', 'site.png');
    assertInline(await webGet(h, `${reviewFile(projectId)}?view=1`, 'reader'), 'image/png', 'site.png');
    assertDownload(await webGet(h, projectFile(projectId), 'applicant'), 'site.png');
    assertDownload(await webGet(h, reviewFile(projectId), 'reader'), 'site.png');
    assertDownload(await webGet(h, `${projectFile(projectId)}?view=yes`, 'applicant'), 'site.png');
  });

  it('links View beside the file on the project page, the form page and the review page for a type that can be viewed, and not otherwise', async () => {
    const h = harness();
    const view = (url: string) => `href="${url}?view=1" aria-label="View site.png in the browser">View</a>`;
    assert.ok((await webGet(h, `/MvcProjects/LandingPage?ProgramId=${IDS.program}&ProjectId=${projectId}`, 'applicant')).body.includes(view(projectFile(projectId))));
    assert.ok((await webGet(h, `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Forms/${IDS.form}`, 'applicant')).body.includes(view(projectFile(projectId))));
    assert.ok((await webGet(h, `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Review`, 'reader')).body.includes(view(reviewFile(projectId))));
  });

  describe('by type', () => {
    const cases: { type: string; name: string; inline: string | null }[] = [
      { type: 'application/pdf', name: 'plan.pdf', inline: 'application/pdf' },
      { type: 'image/jpeg', name: 'roof.jpg', inline: 'image/jpeg' },
      { type: 'image/gif', name: 'a.gif', inline: 'image/gif' },
      { type: 'image/webp', name: 'a.webp', inline: 'image/webp' },
      { type: 'image/svg+xml', name: 'drawing.svg', inline: null },
      { type: 'text/html', name: 'page.html', inline: null },
      { type: 'application/xhtml+xml', name: 'page.xhtml', inline: null },
      { type: 'text/xml', name: 'data.xml', inline: null },
      { type: 'application/octet-stream', name: 'blob.bin', inline: null },
      { type: 'application/x-unknown', name: 'x.unknown', inline: null },
    ];
    for (const c of cases) {
      it(`${c.type}: ${c.inline ? 'inline' : 'a download even when asked to be viewed'}, and no View link for the latter`, async () => {
        const h = harness();
        await storeVersion(h, projectId, c.type, c.name);
        for (const [url, who] of [[projectFile(projectId), 'applicant'], [reviewFile(projectId), 'admin']] as const) {
          const res = await webGet(h, `${url}?view=1`, who);
          if (c.inline) assertInline(res, c.inline, c.name);
          else assertDownload(res, c.name);
        }
        const page = await webGet(h, `/MvcProjects/Programs/${IDS.program}/Projects/${projectId}/Review`, 'reader');
        assert.equal(page.body.includes(`View ${c.name} in the browser`), c.inline !== null);
      });
    }

    it('a type with parameters is judged by its media type, and sent without them', async () => {
      const h = harness();
      await storeVersion(h, projectId, 'Application/PDF; name=x', 'plan.pdf');
      assertInline(await webGet(h, `${projectFile(projectId)}?view=1`, 'applicant'), 'application/pdf', 'plan.pdf');
      await storeVersion(h, projectId, 'image/svg+xml; charset=utf-8', 'x.svg');
      assertDownload(await webGet(h, `${projectFile(projectId)}?view=1`, 'applicant'), 'x.svg');
    });
  });

  it('refuses whoever may not read the file the same with ?view=1 as without', async () => {
    const h = harness();
    await storeVersion(h, projectId, 'application/pdf', 'plan.pdf');
    const cases: [string, Who | null][] = [
      [projectFile(projectId), 'otherApplicant'], [projectFile(projectId), 'outsider'], [projectFile(projectId), null],
      [reviewFile(projectId), 'otherApplicant'], [reviewFile(projectId), 'outsider'], [reviewFile(projectId), null],
    ];
    for (const [url, who] of cases) {
      const plain = await webGet(h, url, who);
      const viewed = await webGet(h, `${url}?view=1`, who);
      assert.ok(plain.statusCode >= 300, `${url} as ${who}: ${plain.statusCode}`);
      assert.equal(viewed.statusCode, plain.statusCode, `${url} as ${who}`);
      assert.equal(viewed.headers['content-disposition'], undefined);
      assert.equal(viewed.headers.location, plain.headers.location?.replace(encodeURIComponent(url), encodeURIComponent(`${url}?view=1`)));
      assert.doesNotMatch(viewed.body, /PNG/);
    }
  });

  it('sends the file\'s SHA-256 as a strong ETag and keeps no-store: If-Range with it resumes (206), another gets the whole file; If-None-Match is no 304; HEAD', async () => {
    const h = harness();
    await storeVersion(h, projectId, 'application/pdf', 'plan.pdf');
    const get = (url: string, who: Who, headers: Record<string, string>, method: 'GET' | 'HEAD' = 'GET') =>
      h.app.inject({ method, url, headers: { authorization: authHeaders(h.who[who]).authorization!, ...headers } });
    // Each caller's own Cache-Control: the project page's and the review page's, viewed or downloaded.
    const cases = [
      [projectFile(projectId), 'applicant', 'private, no-store'], [`${projectFile(projectId)}?view=1`, 'applicant', 'private, no-store'],
      [reviewFile(projectId), 'reader', 'no-store'], [`${reviewFile(projectId)}?view=1`, 'reader', 'no-store'],
    ] as const;
    for (const [url, who, cacheControl] of cases) {
      const whole = await get(url, who, {});
      assert.equal(whole.statusCode, 200, `${url}: ${whole.body}`);
      assert.deepEqual([whole.headers.etag, whole.headers['cache-control']], [PNG_ETAG, cacheControl], url);
      const resumed = await get(url, who, { range: 'bytes=4-', 'if-range': PNG_ETAG });
      assert.equal(resumed.statusCode, 206, url);
      assert.deepEqual(resumed.rawPayload, PNG.subarray(4));
      assert.deepEqual([resumed.headers['content-range'], resumed.headers.etag, resumed.headers['cache-control']], [`bytes 4-${PNG.length - 1}/${PNG.length}`, PNG_ETAG, cacheControl]);
      for (const ifRange of [`"${'0'.repeat(64)}"`, `W/${PNG_ETAG}`, 'Mon, 30 Nov 2026 00:00:00 GMT']) {
        const stale = await get(url, who, { range: 'bytes=4-', 'if-range': ifRange });
        assert.equal(stale.statusCode, 200, `${url} with If-Range ${ifRange}: the whole file`);
        assert.deepEqual(stale.rawPayload, PNG);
        assert.equal(stale.headers['content-range'], undefined);
      }
      // No browser keeps a no-store answer to revalidate: If-None-Match still gets the file (docs/web.md).
      const again = await get(url, who, { 'if-none-match': PNG_ETAG });
      assert.equal(again.statusCode, 200, url);
      assert.deepEqual([again.rawPayload, again.headers['cache-control']], [PNG, cacheControl]);
      const head = await get(url, who, { range: 'bytes=0-1' }, 'HEAD');
      assert.equal(head.statusCode, 200, `${url}: HEAD ignores Range`);
      assert.deepEqual([head.headers['content-length'], head.headers.etag, head.headers['accept-ranges'], head.headers['cache-control'], head.rawPayload.length],
        [String(PNG.length), PNG_ETAG, 'bytes', cacheControl, 0]);
    }
  });

  it('answers one byte range with 206 on both addresses, viewed or downloaded; a range past the end is a 416 page', async () => {
    const h = harness();
    await storeVersion(h, projectId, 'application/pdf', 'plan.pdf');
    const ranged = (url: string, who: Who, range: string) => h.app.inject({ method: 'GET', url, headers: { authorization: authHeaders(h.who[who]).authorization!, range } });
    for (const [url, who] of [[projectFile(projectId), 'applicant'], [`${projectFile(projectId)}?view=1`, 'applicant'], [`${reviewFile(projectId)}?view=1`, 'reader']] as const) {
      const res = await ranged(url, who, 'bytes=2-5');
      assert.equal(res.statusCode, 206, `${url}: ${res.body}`);
      assert.deepEqual(res.rawPayload, PNG.subarray(2, 6));
      assert.deepEqual([res.headers['content-range'], res.headers['content-length'], res.headers['accept-ranges']], [`bytes 2-5/${PNG.length}`, '4', 'bytes']);
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      if (url.endsWith('view=1')) assert.match(String(res.headers['content-security-policy']), /object-src 'self'/, 'the viewed PDF keeps its policy');
      assert.equal((await ranged(url, who, 'bytes=0-1,3-4')).statusCode, 200, 'several ranges: the whole file');
    }
    const past = await ranged(reviewFile(projectId), 'reader', `bytes=${PNG.length}-`);
    assert.equal(past.statusCode, 416);
    assert.equal(past.headers['content-range'], `bytes */${PNG.length}`);
    assert.match(String(past.headers['content-type']), /^text\/html/);
    assert.equal(past.headers['content-disposition'], undefined);
  });
});
