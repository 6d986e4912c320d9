import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError, MAX_MESSAGE_CHARS } from '../../src/domain/api-error.ts';

test('an error message is cut to a few hundred characters with an ellipsis, whatever it quotes', () => {
  const long = new ApiError('MALFORMED_XML', `malformed XML: ${'"a", '.repeat(100_000)}`, {
    fields: [{ dataFieldId: 'F1', code: 'INVALID_TYPE', message: `got "${'x'.repeat(20_000)}"` }],
  });
  assert.ok(MAX_MESSAGE_CHARS >= 200 && MAX_MESSAGE_CHARS <= 500);
  assert.equal(long.message.length, MAX_MESSAGE_CHARS);
  assert.ok(long.message.startsWith('malformed XML: "a", '));
  assert.ok(long.message.endsWith('…'));
  assert.equal(long.fields[0]!.message.length, MAX_MESSAGE_CHARS);
  assert.equal(new ApiError('NOT_FOUND', 'short').message, 'short');
  const exact = 'y'.repeat(MAX_MESSAGE_CHARS);
  assert.equal(new ApiError('NOT_FOUND', exact).message, exact, 'a message at the limit is kept whole');
  // A cut never splits a surrogate pair.
  const emoji = new ApiError('NOT_FOUND', '😀'.repeat(MAX_MESSAGE_CHARS)).message;
  assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji), 'no lone high surrogate before the ellipsis');
});
