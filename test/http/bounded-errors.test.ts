import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, it } from 'node:test';
import { createLogger } from '../../src/http/logger.ts';
import { openTestStore, type TestStore } from '../support/databases.ts';
import { assertError, type HttpHarness, NS, startHttp, TestClock } from '../support/http-harness.ts';
import { API, PROGRAM, programState } from './http-helpers.ts';

// Error answers and log lines stay a few hundred bytes whatever the request held: a 1 MB body that opens one
// element 349,000 times once got a 6 MB message, written to the log as well.

const lines: string[] = [];
let db: TestStore;
let h: HttpHarness;

before(async () => {
  db = await openTestStore('sqlite');
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split('\n').filter((l) => l !== ''));
      done();
    },
  });
  h = await startHttp(db, {}, new TestClock(), createLogger('info', sink));
});
after(async () => {
  await h.close();
  await db.close();
});

function longestLine(): number {
  return Math.max(0, ...lines.map((l) => Buffer.byteLength(l)));
}

it('answers a 1 MB body that opens one element 349,000 times with 400 MALFORMED_XML under 1 KB, logs short lines, and changes nothing', async () => {
  const before = await programState(h);
  lines.length = 0;
  const body = `<ProjectByNumberRequest xmlns="${NS}">${'<a>'.repeat(349_000)}`;
  const res = await h.request({ method: 'POST', url: `${PROGRAM}/Projects/ByNumber`, body });
  assertError(h, res, 400, 'MALFORMED_XML');
  assert.ok(res.body.length < 1024, `${res.body.length} bytes: ${res.body.slice(0, 300)}…`);
  assert.ok(lines.some((l) => l.includes('MALFORMED_XML')), 'the refusal is logged');
  assert.ok(longestLine() < 1024, `a log line of ${longestLine()} bytes`);
  assert.deepEqual(await programState(h), before);
});

it('keeps a message that quotes a long value short, and the log line of a long URL', async () => {
  lines.length = 0;
  const long = 'A'.repeat(12_000);
  const res = await h.request({ method: 'GET', url: `${API}/Programs?Agency=${long}` });
  assert.ok(res.statusCode >= 400 && res.statusCode < 500, res.body);
  assert.ok(res.body.length < 1024, `${res.body.length} bytes`);
  assert.ok(lines.length > 0);
  assert.ok(longestLine() < 1024, `a log line of ${longestLine()} bytes`);
});
