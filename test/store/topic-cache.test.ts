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

it('holds at most its bound of entries over all reads together, dropping the oldest first', async () => {
  let version = 1;
  const signal: ChangeSignal = { version: () => version, close: async () => {} };
  const loads: string[] = [];
  const reads = {
    one: async (id: string) => {
      loads.push(`one ${id}`);
      return id;
    },
    two: async (id: string, n: number) => {
      loads.push(`two ${id} ${n}`);
      return id;
    },
  };
  const cache = new TopicCache(signal, 3);
  const cached = cache.wrap(reads, 'credentials', ['one', 'two']);
  await cached.one('a');
  await cached.two('b', 1);
  await cache.get('credentials', 'c', async () => {
    loads.push('get c');
    return 'c';
  });
  await cached.one('d');
  assert.deepEqual(loads, ['one a', 'two b 1', 'get c', 'one d'], 'four reads, each loaded once');
  await cached.two('b', 1);
  await cached.one('d');
  assert.equal(loads.length, 4, 'the three newest are still kept');
  await cached.one('a');
  assert.deepEqual(loads.slice(4), ['one a'], 'the oldest was dropped for the fourth, so it is read again');
  // A stale entry read again takes its own place: nothing else is dropped for it.
  version = 2;
  await cached.one('a');
  assert.deepEqual(loads.slice(5), ['one a']);
  version = 1;
  await cached.one('d');
  await cached.two('b', 1);
  assert.deepEqual(loads.slice(6), ['two b 1'], 'b was the oldest when a was read again, d is still kept');
});
