import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import type { OpenIdProviderClient } from '../../src/domain/sign-on/openid-provider-client.ts';
import { MAX_LIVE_SIGN_ONS, SIGN_ON_ATTEMPT_MS, SignOnService } from '../../src/domain/sign-on/sign-on-service.ts';
import { RandomIdGenerator } from '../../src/model/ids.ts';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, T0 } from '../support/fixtures.ts';
import { TestClock } from '../support/http-harness.ts';

// Starting a single sign-on is open to anybody and stores a row until it expires: an agency's sign-ins under way are
// bounded, the one over the bound is refused (429, Retry-After) storing nothing, and once they expire new ones start.

forEachDialect('single sign-on: sign-ins under way are bounded', ({ open }) => {
  it(`refuses the ${MAX_LIVE_SIGN_ONS + 1}th sign-in under way and stores nothing for it`, async () => {
    const { store } = await open();
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.signOn.saveSettings({
        agencyId: IDS.agency, label: 'Provider', issuer: 'https://login.example.org', clientId: 'apas', clientSecret: 'secret',
        scopes: ['openid', 'email'], emailClaim: 'email', groupsClaim: 'groups', groupGrants: [{ group: 'admins', agencyAdmin: true }],
        allowPasswords: true, enabled: true, updatedAt: T0, updatedBy: null,
      });
    });
    const clock = new TestClock(T0);
    const provider: OpenIdProviderClient = {
      authorizationUrl: async () => new URL('https://login.example.org/authorize'),
      redeem: async () => assert.fail('no answer comes back in this test'),
    };
    const sessions = { startSignedOn: async () => assert.fail('nobody signs in in this test') };
    const flow = new SignOnService({ store, clock, ids: new RandomIdGenerator(), publicUrl: 'http://localhost:8080' }, provider, sessions);
    await store.transaction(async (tx) => {
      for (let i = 0; i < MAX_LIVE_SIGN_ONS - 1; i++) {
        await tx.signOn.insertAttempt({ id: `s${i}`, agencyId: IDS.agency, browserHash: 'b', nonce: 'n', codeVerifier: 'v', next: '/', createdAt: T0, expiresAt: T0 + SIGN_ON_ATTEMPT_MS }, T0);
      }
    });
    await flow.begin(IDS.agency, '/MvcProjects/');
    assert.equal(await store.signOn.countLiveAttempts(IDS.agency, clock.now()), MAX_LIVE_SIGN_ONS);
    await assert.rejects(flow.begin(IDS.agency, '/MvcProjects/'), (e) => e instanceof ApiError && e.code === 'RATE_LIMITED');
    assert.equal(await store.signOn.countLiveAttempts(IDS.agency, clock.now()), MAX_LIVE_SIGN_ONS, 'the refused start stored nothing');
    clock.advance(SIGN_ON_ATTEMPT_MS + 1);
    const begun = await flow.begin(IDS.agency, '/MvcProjects/');
    assert.match(begun.url, /^https:\/\/login\.example\.org\/authorize/);
    assert.equal(await store.signOn.countLiveAttempts(IDS.agency, clock.now()), 1, 'the expired ones are gone');
  });
});
