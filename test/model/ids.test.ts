import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RandomIdGenerator, randomToken } from '../../src/model/ids.ts';

describe('ids: random identifiers and tokens', () => {
  it('makes 12-character ids of the Crockford alphabet, all different, across many refills of the random pool', () => {
    const ids = new RandomIdGenerator();
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) {
      const id = ids.next();
      assert.match(id, /^[0-9A-HJKMNP-TV-Z]{12}$/);
      seen.add(id);
    }
    assert.equal(seen.size, 20_000);
  });

  it('makes tokens of any length, also when one spans the end of the pool, with every character of the alphabet in use', () => {
    const lengths = [1, 40, 4095, 4097, 32];
    const tokens = lengths.map((n) => randomToken(n));
    assert.deepEqual(tokens.map((t) => t.length), lengths);
    const used = new Set(tokens.join(''));
    assert.equal(used.size, 32, 'over 8,000 characters use all 32 of the alphabet');
    assert.notEqual(tokens[1], randomToken(40));
  });
});
