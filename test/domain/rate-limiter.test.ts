import assert from 'node:assert/strict';
import { it } from 'node:test';
import { SharedRateLimiter } from '../../src/domain/accounts/rate-limiter.ts';
import { forEachDialect } from '../support/databases.ts';
import { T0 } from '../support/fixtures.ts';
import { TestClock } from '../support/http-harness.ts';

const WINDOW_MS = 60_000;

// The shared limiter of several instances on one database counts in memory and adds its counts to the database
// once a second (here: when flush() is called), so each instance learns the others' requests a flush late.
forEachDialect('domain: rate limit shared among instances', ({ open }) => {
  it('counts each request at once on its instance, and shares the counts through the database', async () => {
    const opened = await open();
    const clock = new TestClock(T0 + 10 * WINDOW_MS);
    const a = new SharedRateLimiter(opened.store, 5, WINDOW_MS, clock, 3_600_000);
    const b = new SharedRateLimiter(await opened.reopen(), 5, WINDOW_MS, clock, 3_600_000);
    const remaining = async (limiter: SharedRateLimiter) => (await limiter.hit('key:1')).remaining;
    assert.deepEqual([await remaining(a), await remaining(a), await remaining(a)], [4, 3, 2]);
    assert.equal(await opened.store.counters.peekRequestCount('key:1', T0 + 10 * WINDOW_MS), 0, 'nothing written per request');
    await a.flush();
    assert.equal(await opened.store.counters.peekRequestCount('key:1', T0 + 10 * WINDOW_MS), 3);
    // B's first request of the window reads the shared count: 3 + 1.
    assert.equal(await remaining(b), 1);
    assert.equal(await remaining(b), 0);
    const refused = await b.hit('key:1');
    assert.equal(refused.allowed, false);
    assert.equal(refused.remaining, 0);
    await b.flush();
    assert.equal(await opened.store.counters.peekRequestCount('key:1', T0 + 10 * WINDOW_MS), 6);
    // A learns of B's requests when it next shares its own: up to a flush interval late.
    assert.equal((await a.hit('key:1')).allowed, true);
    await a.flush();
    assert.equal((await a.hit('key:1')).allowed, false);
    await Promise.all([a.close(), b.close()]);
    clock.advance(WINDOW_MS);
    assert.equal((await a.hit('key:1')).remaining, 4, 'a new window');
  });
});
