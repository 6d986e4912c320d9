import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, MAX_MESSAGE_CHARS } from '../../src/domain/api-error.ts';

test('an answered error message is cut to a few hundred characters with an ellipsis, whatever it quotes', () => {
  const whole = new ApiError('MALFORMED_XML', `malformed XML: ${'"a", '.repeat(100_000)}`, {
    fields: [{ dataFieldId: 'F1', code: 'INVALID_TYPE', message: `got "${'x'.repeat(20_000)}"` }], headers: { 'Retry-After': '1' },
  });
  assert.equal(whole.message.length, 15 + 500_000, 'the error itself keeps its message (the command line shows it whole)');
  const long = whole.bounded();
  assert.deepEqual([long.code, long.headers, long.fields[0]!.dataFieldId], ['MALFORMED_XML', { 'Retry-After': '1' }, 'F1']);
  assert.ok(MAX_MESSAGE_CHARS >= 200 && MAX_MESSAGE_CHARS <= 500);
  assert.equal(long.message.length, MAX_MESSAGE_CHARS);
  assert.ok(long.message.startsWith('malformed XML: "a", '));
  assert.ok(long.message.endsWith('…'));
  assert.equal(long.fields[0]!.message.length, MAX_MESSAGE_CHARS);
  const short = new ApiError('NOT_FOUND', 'short');
  assert.equal(short.bounded(), short);
  const exact = 'y'.repeat(MAX_MESSAGE_CHARS);
  assert.equal(new ApiError('NOT_FOUND', exact).bounded().message, exact, 'a message at the limit is kept whole');
  // A cut never splits a surrogate pair.
  const emoji = new ApiError('NOT_FOUND', '😀'.repeat(MAX_MESSAGE_CHARS)).bounded().message;
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji), 'no lone high surrogate before the ellipsis');
});
