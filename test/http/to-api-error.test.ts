import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { toApiError } from '../../src/http/error-handler.ts';

// How database and framework failures become the service's error codes (the status table of docs/interface.md).

const withCode = (code: string) => Object.assign(new Error(`db failure ${code}`), { code });

it('an ApiError passes through unchanged', () => {
  const error = new ApiError('NOT_FOUND', 'gone');
  assert.equal(toApiError(error), error);
});

for (const [code, expected] of [
  ['23505', 'CONFLICT'], ['40001', 'CONFLICT'], ['SQLITE_CONSTRAINT_UNIQUE', 'CONFLICT'],
  ['SQLITE_BUSY', 'SERVICE_UNAVAILABLE'], ['57P01', 'SERVICE_UNAVAILABLE'],
  ['22021', 'INVALID_REQUEST'], ['22P05', 'INVALID_REQUEST'], ['54000', 'INVALID_REQUEST'],
  ['XX000', 'INTERNAL_ERROR'], ['', 'INTERNAL_ERROR'],
] as const) {
  it(`database code "${code}" becomes ${expected}`, () => {
    const mapped = toApiError(withCode(code));
    assert.equal(mapped.code, expected);
    assert.doesNotMatch(mapped.message, /db failure/, 'the client never sees the database message');
  });
}

// Node's error for a request whose client went before its body was whole; a lost database connection
// (ECONNRESET too) stays a 503.
it('a request body that broke off ("aborted", ECONNRESET) is a 400, not the database\'s 503', () => {
  assert.equal(toApiError(Object.assign(new Error('aborted'), { code: 'ECONNRESET' })).code, 'INVALID_REQUEST');
  assert.equal(toApiError(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })).code, 'SERVICE_UNAVAILABLE');
});
