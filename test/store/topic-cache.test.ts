import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ChangeSignal } from '../../src/store/change-signal.ts';
import { TopicCache } from '../../src/store/topic-cache.ts';

// The cache keys a wrapped read by its arguments without JSON for strings and numbers (every request makes several
// such reads); two calls share an entry only when their arguments are the same, whatever text a caller sends.
const still: ChangeSignal = { version: () => 1, close: async () => {} };

it('keeps reads apart whose arguments differ only in type or in where one text ends and the next begins', async () => {
  const calls: unknown[][] = [];
  const reads = {
    find: async (...args: unknown[]) => {
      calls.push(args);
      return args.map(String).join('|');
    },
  };
  const cached = new TopicCache(still).wrap(reads, 'credentials', ['find']);
  const cases: unknown[][] = [['1'], [1], ['a', 'b'], ['ab'], ['a:b'], ['1:a', 'b'], ['1', ':ab'], ['x', 2], ['x', '2'], [], [null], ['a', { b: 1 }]];
  for (const args of cases) await cached.find(...args);
  assert.equal(calls.length, cases.length, 'each distinct argument list read once');
  for (const args of cases) await cached.find(...args);
  assert.equal(calls.length, cases.length, 'and then served from the cache');
});
