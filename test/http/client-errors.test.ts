import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { after, before, it } from 'node:test';
import { openTestStore, type TestStore } from '../support/databases.ts';
import { authHeaders, dataRequest, type HttpHarness, rootName, startHttp } from '../support/http-harness.ts';
import { createProject, draftPath, PROGRAM, projectState } from './http-helpers.ts';

// Errors Node finds before a request reaches the app (a client too slow to send its request, headers too large, a
// request that is not HTTP) are answered with an XML ErrorResponse too, and a slow client is cut off within about
// APAS_REQUEST_TIMEOUT_MS: Node looked for expired requests only every 30 s, so 1 byte a second once lasted 70–88 s.

const TIMEOUT_MS = 1000;
// Generous for a loaded CI machine: a correctness bound (the cut-off once came after 30 s or more), not a target.
const CUT_WITHIN_MS = 10_000;

let db: TestStore;
let h: HttpHarness;
let port = 0;

before(async () => {
  db = await openTestStore('sqlite');
  h = await startHttp(db, { APAS_REQUEST_TIMEOUT_MS: String(TIMEOUT_MS) });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  port = (h.app.server.address() as AddressInfo).port;
});
after(async () => {
  await h.close();
  await db.close();
});

interface Exchange { answer: string; ms: number }

/** Sends `head` on a raw connection, then `trickle` one byte every 100 ms, until the server closes the connection. */
function exchange(head: string, trickle = ''): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    const timer = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]!);
    }, 100);
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => {}); // a reset after the answer is fine; the close below reports
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ answer, ms: Date.now() - started });
    });
    const guard = setTimeout(() => {
      socket.destroy();
      reject(new Error(`not cut off within 60 s; got ${JSON.stringify(answer.slice(0, 300))}`));
    }, 60_000);
    socket.on('close', () => clearTimeout(guard));
    socket.write(head);
  });
}

/** The status, headers (lower-case names) and body of a raw HTTP answer. */
function parse(answer: string): { status: number; headers: Record<string, string>; body: string } {
  const split = answer.indexOf('\r\n\r\n');
  assert.ok(split > 0, `no HTTP answer: ${JSON.stringify(answer.slice(0, 300))}`);
  const [statusLine, ...lines] = answer.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const body = answer.slice(split + 4);
  assert.equal(Number(headers['content-length']), Buffer.byteLength(body), 'Content-Length matches the body');
  return { status: Number(statusLine!.split(' ')[1]), headers, body };
}

function assertXmlError(answer: string, status: number, code: string): void {
  const res = parse(answer);
  assert.equal(res.status, status, answer);
  assert.match(res.headers['content-type'] ?? '', /^application\/xml/);
  assert.equal(rootName(res.body), 'ErrorResponse');
  assert.deepEqual(h.schemas.validate('ErrorResponse', res.body), [], res.body);
  assert.match(res.body, new RegExp(`Code="${code}" Status="${status}"`));
}

it('cuts off a client that trickles its headers soon after APAS_REQUEST_TIMEOUT_MS, answering 408 REQUEST_TIMEOUT as XML', async () => {
  const { answer, ms } = await exchange(`GET ${PROGRAM}/Projects HTTP/1.1\r\nHost: apas.test\r\nX-Slow: `, 'a'.repeat(600));
  assert.ok(ms >= TIMEOUT_MS && ms < CUT_WITHIN_MS, `cut off after ${ms} ms`);
  assertXmlError(answer, 408, 'REQUEST_TIMEOUT');
});

it('cuts off a client that trickles the body of a write the same way, and the write changes nothing', async () => {
  const projectId = await createProject(h);
  const before = await projectState(h, projectId);
  // Whitespace after the root element is allowed, and makes the body take minutes at 10 bytes a second.
  const body = `${dataRequest({ kw: '7.5' })}${' '.repeat(1000)}`;
  const headers = Object.entries({ ...authHeaders(h.who.applicant), host: 'apas.test', 'content-type': 'application/xml', 'content-length': String(body.length) })
    .map(([name, value]) => `${name}: ${value}\r\n`).join('');
  const { answer, ms } = await exchange(`POST ${draftPath(projectId)} HTTP/1.1\r\n${headers}\r\n`, body);
  assert.ok(ms >= TIMEOUT_MS && ms < CUT_WITHIN_MS, `cut off after ${ms} ms`);
  assertXmlError(answer, 408, 'REQUEST_TIMEOUT');
  assert.deepEqual(await projectState(h, projectId), before);
});

it('answers headers larger than Node accepts with 431 HEADERS_TOO_LARGE as XML', async () => {
  const { answer } = await exchange(`GET ${PROGRAM}/Projects HTTP/1.1\r\nHost: apas.test\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`);
  assertXmlError(answer, 431, 'HEADERS_TOO_LARGE');
});

it('answers a request that is not HTTP with 400 INVALID_REQUEST as XML', async () => {
  const { answer } = await exchange('HELLO THERE\r\n\r\n');
  assertXmlError(answer, 400, 'INVALID_REQUEST');
});
