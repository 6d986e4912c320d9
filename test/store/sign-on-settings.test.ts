import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { SignOnSettings } from '../../src/model/sign-on.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { agency, IDS, T0 } from '../support/fixtures.ts';

// An agency's OpenID Connect client secret is sealed at rest like a webhook secret: never in clear in the database,
// re-wrapped by a key rotation, found and dropped (single sign-on turned off) when its key is lost.

const SECRET = 'oidc-client-secret-Zm9vYmFyYmF6cXV4';

function settings(more: Partial<SignOnSettings> = {}): SignOnSettings {
  return {
    agencyId: IDS.agency, label: 'Entra ID', issuer: 'https://login.example.org/tenant/v2.0', clientId: 'apas', clientSecret: SECRET,
    scopes: ['openid', 'email'], emailClaim: 'email', groupsClaim: 'groups', groupGrants: [{ group: 'admins', agencyAdmin: true }],
    allowPasswords: false, enabled: true, updatedAt: T0, updatedBy: null, ...more,
  };
}

async function rawRow(db: TestStore) {
  const raw = await openDatabase(db.config);
  try {
    return await raw.db.selectFrom('agency_sign_on').selectAll().executeTakeFirstOrThrow();
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

forEachDialect('store: single sign-on settings', ({ open }) => {
  it('stores the client secret sealed, reads the settings back in clear, and takes an attempt only once', async () => {
    const db = await open();
    await db.store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.signOn.saveSettings(settings());
    });
    const row = await rawRow(db);
    assert.match(row.client_secret, /^sealed:v1:/);
    assert.doesNotMatch(row.client_secret, /Zm9vYmFy/);
    assert.deepEqual(await db.store.signOn.findSettings(IDS.agency), settings());
    assert.deepEqual(await db.store.signOn.findPolicy(IDS.agency), { enabled: true, allowPasswords: false, label: 'Entra ID' });
    assert.deepEqual(await db.store.signOn.listEnabled(), [{ agencyId: IDS.agency, label: 'Entra ID' }]);
    const attempt = { id: 'state-hash', agencyId: IDS.agency, browserHash: 'b', nonce: 'n', codeVerifier: 'v', next: '/MvcProjects/', createdAt: T0, expiresAt: T0 + 600_000 };
    await db.store.signOn.insertAttempt(attempt, T0);
    const [first, second] = await Promise.all([db.store.signOn.claimAttempt('state-hash'), db.store.signOn.claimAttempt('state-hash')]);
    assert.deepEqual([first, second].filter((a) => a !== null), [attempt], 'exactly one claim gets the attempt');
    assert.equal(await db.store.signOn.claimAttempt('state-hash'), null);
  });

  it('drops another instance\'s cached password policy when the settings change (credentials topic)', async () => {
    const db = await open();
    await db.store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.signOn.saveSettings(settings());
    });
    const other = await db.reopen();
    assert.deepEqual(await other.signOn.findPolicy(IDS.agency), { enabled: true, allowPasswords: false, label: 'Entra ID' });
    assert.deepEqual(await other.signOn.listEnabled(), [{ agencyId: IDS.agency, label: 'Entra ID' }]);
    await db.store.transaction((tx) => tx.signOn.saveSettings(settings({ allowPasswords: true, enabled: false })));
    // The other instance hears of the write (PostgreSQL: the table's trigger; SQLite: the file's data version).
    for (let i = 0; i < 50 && (await other.signOn.findPolicy(IDS.agency))?.enabled; i++) await new Promise((r) => setTimeout(r, 100));
    assert.deepEqual(await other.signOn.findPolicy(IDS.agency), { enabled: false, allowPasswords: true, label: 'Entra ID' });
    assert.deepEqual(await other.signOn.listEnabled(), []);
  });

  it('re-wraps the client secret with a new first key, and drops it (single sign-on off, passwords on) when its key is lost', async () => {
    const oldKey = parseSecretKeys(newSecretKeyLine(), 'old');
    const newKey = parseSecretKeys(newSecretKeyLine(), 'new');
    const db = await open({ secrets: createSecretBox(oldKey) });
    await db.store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.signOn.saveSettings(settings());
    });
    const both = await db.reopen({ secrets: createSecretBox([...newKey, ...oldKey]) });
    assert.deepEqual(await both.resealSecrets('all'), { resealed: 1, byKey: { [newKey[0]!.id]: 1 }, missingKeys: [] });
    const onlyNew = await db.reopen({ secrets: createSecretBox(newKey) });
    assert.equal((await onlyNew.signOn.findSettings(IDS.agency))?.clientSecret, SECRET, 'the old key can go once rotated');

    const lost = await db.reopen({ secrets: createSecretBox(oldKey) });
    assert.deepEqual((await lost.unreadableSecrets()).signOnSecrets, [IDS.agency]);
    let n = 0;
    const dropped = await lost.dropUnreadableSecrets({ at: T0 + 1, newId: () => `AUDIT${String(++n).padStart(7, '0')}`, newWebhookSecret: () => 'unknowable' });
    assert.deepEqual(dropped.signOnSecrets, [IDS.agency]);
    assert.deepEqual(await lost.signOn.findPolicy(IDS.agency), { enabled: false, allowPasswords: true, label: 'Entra ID' });
    assert.deepEqual((await lost.unreadableSecrets()).signOnSecrets, []);
  });
});
