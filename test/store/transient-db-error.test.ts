import assert from 'node:assert/strict';
import { it } from 'node:test';
import { worthRetrying } from '../../src/cli/startup-failure.ts';
import { toApiError } from '../../src/http/error-handler.ts';
import { TRANSIENT_DB_CODES } from '../../src/store/transient-db-error.ts';

// One list of database failures that waiting mends: a request answers each with a retryable 503, and `apas serve`
// tries opening the database again on each. The two places kept lists of their own that had drifted apart.

const withCode = (code: string) => Object.assign(new Error(`db failure ${code}`), { code });

it('every transient database failure is a retryable 503 for a request and another try for the start-up', () => {
  // Each of these was known to only one of the two lists before.
  for (const code of ['EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN', '57P01', '57P02', 'SQLITE_LOCKED']) assert.ok(TRANSIENT_DB_CODES.has(code), code);
  for (const code of TRANSIENT_DB_CODES) {
    const answered = toApiError(withCode(code));
    assert.equal(answered.code, 'SERVICE_UNAVAILABLE', `a request meeting ${code}`);
    assert.equal(answered.headers['Retry-After'], '1', code);
    assert.equal(worthRetrying(withCode(code)), true, `the start-up meeting ${code}`);
  }
});

it('failures that waiting does not mend are neither retried at start-up nor a 503', () => {
  // 08007 (a transaction whose outcome is unknown) and 08P01 (a protocol violation) are connection codes that do not
  // mend by waiting; 28P01 a wrong password, 3D000 a missing database, SQLITE_CANTOPEN an unopenable file.
  for (const code of ['08007', '08P01', '28P01', '3D000', 'SQLITE_CANTOPEN', 'XX000']) {
    assert.equal(worthRetrying(withCode(code)), false, code);
    assert.equal(toApiError(withCode(code)).code, 'INTERNAL_ERROR', code);
  }
});

it('the start-up also retries pg\'s own code-less errors for a connection not made or lost', () => {
  assert.equal(worthRetrying(new Error('Connection terminated unexpectedly')), true);
  assert.equal(worthRetrying(new Error('timeout expired')), true);
  assert.equal(worthRetrying(new Error('password authentication failed')), false);
  assert.equal(worthRetrying(Object.assign(new Error('timeout'), { code: '3D000' })), false, 'a coded error goes by its code');
});
