import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { authHeaders, type HttpHarness, type Who } from '../support/http-harness.ts';

/**
 * Asserts that a PDF made for each answer (a document preview) is answered as a viewed PDF file is (docs/web.md,
 * "Seeing files"): the SHA-256 of its bytes as a strong ETag, one range 206 with those bytes of the whole answer and
 * the preview's headers kept, 416 past the end, HEAD without a body, If-Range with the ETag 206 and with another 200.
 */
export async function assertPdfAnswersRanges(h: HttpHarness, url: string, who: Who): Promise<void> {
  const get = (headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
    h.app.inject({ method, url, headers: { authorization: authHeaders(h.who[who]).authorization!, ...headers } });
  const whole = await get();
  assert.equal(whole.statusCode, 200, whole.body);
  const pdf = whole.rawPayload;
  const etag = `"${createHash('sha256').update(pdf).digest('hex')}"`;
  assert.deepEqual([whole.headers.etag, whole.headers['accept-ranges'], whole.headers['content-length']], [etag, 'bytes', String(pdf.length)]);
  const kept = ['content-type', 'content-disposition', 'cache-control', 'content-security-policy', 'x-content-type-options'] as const;

  const part = await get({ range: 'bytes=100-1123' });
  assert.equal(part.statusCode, 206, part.body);
  assert.deepEqual(part.rawPayload, pdf.subarray(100, 1124), 'those bytes of the whole answer');
  assert.deepEqual([part.headers['content-range'], part.headers['content-length'], part.headers.etag], [`bytes 100-1123/${pdf.length}`, '1024', etag]);
  for (const name of kept) assert.equal(part.headers[name], whole.headers[name], name);
  const tail = await get({ range: 'bytes=-10' });
  assert.deepEqual([tail.statusCode, tail.rawPayload], [206, pdf.subarray(pdf.length - 10)]);

  const past = await get({ range: `bytes=${pdf.length}-` });
  assert.equal(past.statusCode, 416);
  assert.equal(past.headers['content-range'], `bytes */${pdf.length}`);

  const head = await get({}, 'HEAD');
  assert.deepEqual([head.statusCode, head.headers['content-length'], head.headers.etag, head.headers['accept-ranges'], head.rawPayload.length],
    [200, String(pdf.length), etag, 'bytes', 0]);
  for (const name of kept) assert.equal(head.headers[name], whole.headers[name], `HEAD ${name}`);

  const resumed = await get({ range: 'bytes=1000-', 'if-range': etag });
  assert.deepEqual([resumed.statusCode, resumed.headers['content-range']], [206, `bytes 1000-${pdf.length - 1}/${pdf.length}`]);
  assert.deepEqual(resumed.rawPayload, pdf.subarray(1000));
  const stale = await get({ range: 'bytes=1000-', 'if-range': `"${'0'.repeat(64)}"` });
  assert.deepEqual([stale.statusCode, stale.headers['content-range'], stale.headers.etag], [200, undefined, etag]);
  assert.deepEqual(stale.rawPayload, pdf, 'another If-Range: the whole answer');
}
