import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { PROGRAM_UPLOAD_PATH } from '../../src/web/console/programs-paths.ts';
import { authHeaders, type HttpHarness, type Identity } from '../support/http-harness.ts';
import { csrfFrom, webGet } from './web-page-helpers.ts';

// The console's upload → review steps of a program file, shared by the tests that publish through the console.

/** Posts a program file as the console's upload form does (multipart, the CSRF token first); as `who` over HTTP Basic. */
export async function upload(h: HttpHarness, who: Identity, fileName: string, text: string | Buffer, query = ''): Promise<LightMyRequestResponse> {
  const pair = await csrfFrom(h, who);
  const boundary = 'xXprogramfileXx';
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${pair.token}\r\n--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/yaml\r\n\r\n`;
  const payload = Buffer.concat([Buffer.from(head), Buffer.from(text), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return h.app.inject({
    method: 'POST', url: `${PROGRAM_UPLOAD_PATH}${query}`, payload,
    headers: { authorization: authHeaders(who).authorization!, 'content-type': `multipart/form-data; boundary=${boundary}`, cookie: pair.cookie },
  });
}

/** The review page's upload id, file SHA-256 and reviewed version, from a successful upload's redirect. */
export async function reviewed(h: HttpHarness, who: Identity, res: LightMyRequestResponse): Promise<{ uploadId: string; sha256: string; version: string; page: string }> {
  assert.equal(res.statusCode, 303, res.body);
  const location = String(res.headers.location);
  const uploadId = decodeURIComponent(location.split('/').pop()!);
  const page = await webGet(h, location, who);
  assert.equal(page.statusCode, 200, page.body);
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]+)"`).exec(page.body)?.[1] ?? '';
  return { uploadId, sha256: field('sha256'), version: field('version'), page: page.body };
}
