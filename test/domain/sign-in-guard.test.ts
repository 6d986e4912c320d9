import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { ADDRESS_ONLY, DEFAULT_SIGN_IN_POLICY, SignInGuard, type SignInPolicy, type SignInSubject } from '../../src/domain/accounts/sign-in-guard.ts';
import type { Store } from '../../src/store/store.ts';
import { forEachDialect } from '../support/databases.ts';
import { T0 } from '../support/fixtures.ts';
import { TestClock } from '../support/http-harness.ts';

// The policy docs/interface.md ("Failed sign-ins") promises, in its own words and numbers.
const WINDOW_MS = 900_000;
const SLOW_FROM_FAILURE = 4;
const STEP_MS = 500;
const MAX_DELAY_MS = 4000;
const LOCK_USER_AFTER = 10;
const LOCK_ADDRESS_AFTER = 50;
const ACCOUNT_SLOW_AFTER = 5;

/** An API sign-in whose key is the user's own: its failures count against the user name. */
const user = (userName: string): SignInSubject => ({ kind: 'user', userName });
/** A web sign-in: its failures count against the user name from that address only. */
const web = (userName: string): SignInSubject => ({ kind: 'web', userName });

/** A guard whose sleeps are recorded instead of waited, on a clock at the start of a window. */
function guardOn(store: Store, policy: SignInPolicy = DEFAULT_SIGN_IN_POLICY) {
  const slept: number[] = [];
  const clock = new TestClock(T0 + 10 * WINDOW_MS);
  const guard = new SignInGuard(store, clock, async (ms) => {
    slept.push(ms);
  }, policy);
  return { guard, clock, slept };
}

/** Runs `fn` and returns the ApiError it threw (failing when it threw nothing or something else). */
async function refusal(fn: () => Promise<unknown>): Promise<ApiError> {
  try {
    await fn();
  } catch (error) {
    assert.ok(error instanceof ApiError, String(error));
    return error;
  }
  assert.fail('expected a refusal');
}

forEachDialect('SignInGuard', ({ open }) => {
  it('has the documented defaults', () => {
    assert.deepEqual(DEFAULT_SIGN_IN_POLICY, {
      windowMs: WINDOW_MS, slowAfter: SLOW_FROM_FAILURE - 1, stepDelayMs: STEP_MS, maxDelayMs: MAX_DELAY_MS,
      lockUserAfter: LOCK_USER_AFTER, lockAddressAfter: LOCK_ADDRESS_AFTER,
      accountSlowAfter: ACCOUNT_SLOW_AFTER, accountFirstSlowMs: 1000, accountMaxSlowMs: 120_000,
    });
  });

  it('answers the first 3 failures at once, then 0.5 s more for each further one, up to 4 s', async () => {
    const { store } = await open();
    // The lock is raised here so that the cap can be seen; the default policy locks before reaching it.
    const { guard, slept } = guardOn(store, { ...DEFAULT_SIGN_IN_POLICY, lockUserAfter: 20 });
    for (let i = 0; i < 14; i++) {
      const attempt = await guard.begin(user('jo@example.org'), '192.0.2.1');
      await attempt.fail();
    }
    assert.deepEqual(slept, [500, 1000, 1500, 2000, 2500, 3000, 3500, 4000, 4000, 4000, 4000]);
  });

  it('slows failures counted after their check (failed) the same way, and never a sign-in that succeeded', async () => {
    const { store } = await open();
    const { guard, slept } = guardOn(store);
    for (let i = 0; i < 3; i++) await guard.failed(user('jo@example.org'), '192.0.2.1');
    for (let i = 0; i < 5; i++) await (await guard.begin(user('jo@example.org'), '192.0.2.1')).settle();
    assert.deepEqual(slept, [], 'successes are taken back and never waited for');
    await guard.failed(user('jo@example.org'), '192.0.2.1');
    assert.deepEqual(slept, [500], 'the 4th failure: successes in between did not count');
  });

  it('locks a user name after 10 failures until the window ends, even for a check that would succeed', async () => {
    const { store } = await open();
    const { guard, clock, slept } = guardOn(store);
    for (let i = 0; i < LOCK_USER_AFTER; i++) await (await guard.begin(user('Jo@Example.org'), '192.0.2.1')).fail();
    assert.deepEqual(slept, [500, 1000, 1500, 2000, 2500, 3000, 3500]);
    clock.advance(100_000);
    for (const fn of [() => guard.check(user('jo@example.org'), '192.0.2.99'), () => guard.begin(user(' jo@example.org'), '192.0.2.99')]) {
      const locked = await refusal(fn);
      assert.equal(locked.code, 'SIGN_IN_LOCKED');
      assert.equal(locked.headers['Retry-After'], '800', 'seconds until the window ends');
    }
    await guard.check(user('someone-else@example.org'), '192.0.2.1');
    clock.advance(800_000);
    await guard.check(user('jo@example.org'), '192.0.2.1');
    await (await guard.begin(user('jo@example.org'), '192.0.2.1')).fail();
    assert.equal(slept.length, 7, 'a new window starts counting afresh');
  });

  it('locks a client address after 50 failures, whatever user names they tried', async () => {
    const { store } = await open();
    const { guard } = guardOn(store);
    for (let i = 0; i < LOCK_ADDRESS_AFTER; i++) await guard.failed(user(`guess${i}@example.org`), '192.0.2.7');
    assert.equal((await refusal(() => guard.check(user('new@example.org'), '192.0.2.7'))).code, 'SIGN_IN_LOCKED');
    assert.equal((await refusal(() => guard.begin(user('new@example.org'), '192.0.2.7'))).code, 'SIGN_IN_LOCKED');
    await guard.check(user('new@example.org'), '192.0.2.8');
  });

  it('counts an API sign-in whose key is not the user\'s against the address only: it never slows down or locks the user name', async () => {
    const { store } = await open();
    const { guard, slept } = guardOn(store);
    for (let i = 0; i < LOCK_USER_AFTER * 2; i++) await (await guard.begin(ADDRESS_ONLY, '192.0.2.1')).fail();
    assert.deepEqual(slept, [], 'no user name to slow down');
    await guard.check(user('jo@example.org'), '192.0.2.2');
    await (await guard.begin(user('jo@example.org'), '192.0.2.2')).settle();
    for (let i = 0; i < LOCK_ADDRESS_AFTER - LOCK_USER_AFTER * 2; i++) await guard.failed(ADDRESS_ONLY, '192.0.2.1');
    assert.equal((await refusal(() => guard.begin(ADDRESS_ONLY, '192.0.2.1'))).code, 'SIGN_IN_LOCKED', 'the address limit still holds');
    assert.equal((await refusal(() => guard.check(user('jo@example.org'), '192.0.2.1'))).code, 'SIGN_IN_LOCKED');
  });

  it('slows down and locks a web sign-in per user name and address: the same name from another address is free', async () => {
    const { store } = await open();
    // The account-wide throttle (its own test below) set aside: this is about the counts per name and address.
    const { guard, slept } = guardOn(store, { ...DEFAULT_SIGN_IN_POLICY, accountSlowAfter: 1000 });
    for (let i = 0; i < LOCK_USER_AFTER; i++) await (await guard.begin(web('Jo@Example.org'), '192.0.2.1')).fail();
    assert.deepEqual(slept, [500, 1000, 1500, 2000, 2500, 3000, 3500]);
    assert.equal((await refusal(() => guard.begin(web('jo@example.org'), '192.0.2.1'))).code, 'SIGN_IN_LOCKED');
    await guard.check(web('jo@example.org'), '192.0.2.99');
    await (await guard.begin(web('jo@example.org'), '192.0.2.99')).settle();
    await guard.check(user('jo@example.org'), '192.0.2.99');
    await (await guard.begin(web('jo@example.org'), '192.0.2.99')).fail();
    assert.equal(slept.length, 7, 'another address starts from nothing');
  });

  it('throttles an account\'s web sign-ins across addresses to one per growing slot; a known browser is exempt and locks on its own', async () => {
    const { store } = await open();
    const notified: string[] = [];
    const clock = new TestClock(T0 + 10 * WINDOW_MS);
    const guard = new SignInGuard(store, clock, async () => {}, DEFAULT_SIGN_IN_POLICY, async (name) => {
      notified.push(name);
    });
    for (let i = 0; i < ACCOUNT_SLOW_AFTER; i++) await (await guard.begin(web('kim@example.org'), `198.51.100.${i}`)).fail();
    assert.deepEqual(notified, ['kim@example.org'], 'told once, when the throttle starts');
    // The next attempt is checked; any other within 1 s after it is refused unchecked, from any address.
    await (await guard.begin(web('kim@example.org'), '198.51.100.50')).fail();
    const refused = await refusal(() => guard.begin(web('kim@example.org'), '198.51.100.51'));
    assert.equal(refused.code, 'SIGN_IN_LOCKED');
    assert.equal(refused.headers['Retry-After'], '1');
    // Then 2 s, then 4 s: the delay grows with every checked failure.
    clock.advance(1000);
    await (await guard.begin(web('kim@example.org'), '198.51.100.52')).fail();
    clock.advance(1000);
    assert.equal((await refusal(() => guard.begin(web('kim@example.org'), '198.51.100.53'))).code, 'SIGN_IN_LOCKED', 'within the 2 s delay');
    clock.advance(1000);
    await (await guard.begin(web('kim@example.org'), '198.51.100.54')).fail();
    clock.advance(3999);
    assert.equal((await refusal(() => guard.begin(web('kim@example.org'), '198.51.100.55'))).headers['Retry-After'], '1', 'within the 4 s delay');
    clock.advance(1);
    await (await guard.begin(web('kim@example.org'), '198.51.100.56')).fail();
    // A browser the user signed in with is not throttled, and its own failures lock it alone.
    const known = { kind: 'web', userName: 'kim@example.org', device: 'dev1' } as const;
    for (let i = 0; i < LOCK_USER_AFTER; i++) await (await guard.begin(known, `192.0.2.${i}`)).fail();
    assert.equal((await refusal(() => guard.begin(known, '192.0.2.200'))).code, 'SIGN_IN_LOCKED');
    await (await guard.begin({ ...known, device: 'dev2' }, '192.0.2.201')).settle();
    assert.deepEqual(notified, ['kim@example.org']);
  });
});
