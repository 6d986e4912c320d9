import assert from 'node:assert/strict';
import { it } from 'node:test';
import { openDatabase } from '../../src/store/database.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { forEachDialect, type TestStore } from '../support/databases.ts';
import { agency, IDS, seedProgram, T0, user } from '../support/fixtures.ts';

const TOTP = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

async function rawSecret(db: TestStore): Promise<string> {
  const raw = await openDatabase(db.config);
  try {
    const row = await raw.db.selectFrom('user_mfa').select('secret').where('user_id', '=', IDS.admin).executeTakeFirstOrThrow();
    return row.secret;
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

async function writeRawSecret(db: TestStore, secret: string): Promise<void> {
  const raw = await openDatabase(db.config);
  try {
    await raw.db.updateTable('user_mfa').set({ secret }).where('user_id', '=', IDS.admin).execute();
  } finally {
    await raw.changes.close();
    await raw.db.destroy();
  }
}

forEachDialect('store: secrets at rest', ({ open }) => {
  it('stores a TOTP secret sealed and reads it back in clear', async () => {
    const db = await open();
    await db.store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertUser(user(), 'hash', T0);
      await tx.mfa.saveMfa(IDS.admin, TOTP, T0);
    });
    const stored = await rawSecret(db);
    assert.doesNotMatch(stored, new RegExp(TOTP), 'the database holds no clear TOTP secret');
    assert.match(stored, /^sealed:v1:/);
    assert.equal((await db.store.mfa.getMfa(IDS.admin))?.secret, TOTP);
  });

  it('stores a webhook signing secret sealed; reads and the worker\'s claims see it in clear', async () => {
    const db = await open();
    await seedProgram(db.store);
    const secret = 'whsec_c2VjcmV0LXNpZ25pbmcta2V5LW9mLTMyLWJ5dGVzISE=';
    const subscription = {
      id: 'WEBHOOK00001', agencyId: IDS.agency, programId: IDS.program, url: 'https://hooks.example.org/apas', eventTypes: [], secret, enabled: true,
      disabledReason: null, disabledAt: null, consecutiveFailures: 0, failingSince: null, pausedUntil: null, previousSecret: null, previousSecretUntil: null, createdAt: T0, createdBy: null, ownerId: null, updatedAt: T0,
    };
    await db.store.transaction((tx) => tx.webhooks.insertSubscription(subscription));
    const raw = await openDatabase(db.config);
    try {
      const row = await raw.db.selectFrom('webhook_subscriptions').select('secret').executeTakeFirstOrThrow();
      assert.match(row.secret, /^sealed:v1:/);
      assert.doesNotMatch(row.secret, /c2VjcmV0/);
    } finally {
      await raw.changes.close();
      await raw.db.destroy();
    }
    assert.equal((await db.store.webhooks.findSubscription(IDS.program, subscription.id))?.secret, secret);
    assert.deepEqual((await db.store.webhooks.listSubscriptions(IDS.program)).map((s) => s.secret), [secret]);
    assert.equal((await db.store.resealSecrets('count')).byKey.unsealed, undefined);

    // A rotation keeps the old secret for its grace period: sealed as well.
    const next = 'whsec_bmV4dC1zaWduaW5nLWtleS1vZi0zMi1ieXRlcyEhISE=';
    await db.store.transaction((tx) => tx.webhooks.updateSubscription(subscription.id, { secret: next, previousSecret: secret, previousSecretUntil: T0 + 1000 }));
    const rotated = await openDatabase(db.config);
    try {
      const row = await rotated.db.selectFrom('webhook_subscriptions').select(['secret', 'previous_secret']).executeTakeFirstOrThrow();
      assert.match(row.secret, /^sealed:v1:/);
      assert.match(String(row.previous_secret), /^sealed:v1:/);
    } finally {
      await rotated.changes.close();
      await rotated.db.destroy();
    }
    const found = await db.store.webhooks.findSubscription(IDS.program, subscription.id);
    assert.deepEqual([found?.secret, found?.previousSecret], [next, secret]);
    assert.deepEqual((await db.store.resealSecrets('count')).byKey, { [Object.keys((await db.store.resealSecrets('count')).byKey)[0]!]: 2 });
  });

  it('seals a secret stored before encryption at rest, and re-wraps every secret with a new first key', async () => {
    const oldKey = parseSecretKeys(newSecretKeyLine(), 'old');
    const newKey = parseSecretKeys(newSecretKeyLine(), 'new');
    const db = await open({ secrets: createSecretBox(oldKey) });
    await db.store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertUser(user(), 'hash', T0);
      await tx.mfa.saveMfa(IDS.admin, TOTP, T0);
    });
    await writeRawSecret(db, TOTP);
    assert.deepEqual(await db.store.resealSecrets('count'), { resealed: 0, byKey: { unsealed: 1 }, missingKeys: [] });
    assert.equal(await rawSecret(db), TOTP, 'counting changes nothing');
    assert.deepEqual(await db.store.resealSecrets('legacy'), { resealed: 1, byKey: { [oldKey[0]!.id]: 1 }, missingKeys: [] });
    assert.doesNotMatch(await rawSecret(db), new RegExp(TOTP));

    const both = await db.reopen({ secrets: createSecretBox([...newKey, ...oldKey]) });
    assert.deepEqual(await both.resealSecrets('legacy'), { resealed: 0, byKey: { [oldKey[0]!.id]: 1 }, missingKeys: [] }, 'at start only legacy values are sealed');
    const onlyNewEarly = await db.reopen({ secrets: createSecretBox(newKey) });
    assert.deepEqual(await onlyNewEarly.resealSecrets('all'), { resealed: 0, byKey: {}, missingKeys: [oldKey[0]!.id] }, 'a value no configured key opens is left as it is and named');
    assert.deepEqual(await both.resealSecrets('all'), { resealed: 1, byKey: { [newKey[0]!.id]: 1 }, missingKeys: [] });
    const onlyNew = await db.reopen({ secrets: createSecretBox(newKey) });
    assert.equal((await onlyNew.mfa.getMfa(IDS.admin))?.secret, TOTP, 'the old key can go once rotated');
  });
});
