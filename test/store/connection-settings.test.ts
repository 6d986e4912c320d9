import assert from 'node:assert/strict';
import { it } from 'node:test';
import type { ConnectionSettings } from '../../src/model/connection.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys } from '../../src/store/secret-box.ts';
import { forEachDialect } from '../support/databases.ts';
import { IDS, seedProgram } from '../support/fixtures.ts';

// A connection's sign-in (src/store/connection-queries.ts), on both databases: sealed at rest against its row,
// re-wrapped by a key rotation, found by the scan of unreadable secrets when its key is lost and then dropped (the
// operator sets it again).

const SETTINGS: ConnectionSettings = {
  programId: IDS.program, connectionId: 'lookup', url: 'https://billing.example.com/accounts',
  auth: { kind: 'oauth', tokenUrl: 'https://billing.example.com/token', clientId: 'apas', clientSecret: 'oauth-s3cret', scope: null }, updatedAt: 1,
};

forEachDialect('store: connection settings', ({ open }) => {
  it('re-wraps the sign-in with a new first key, and drops it when its key is lost', async () => {
    const oldKey = parseSecretKeys(newSecretKeyLine(), 'old');
    const newKey = parseSecretKeys(newSecretKeyLine(), 'new');
    const db = await open({ secrets: createSecretBox(oldKey) });
    await seedProgram(db.store);
    await db.store.transaction((tx) => tx.connections.saveSettings(SETTINGS, null));
    assert.deepEqual(await db.store.connections.findSettings(IDS.program, 'lookup'), SETTINGS);
    const both = await db.reopen({ secrets: createSecretBox([...newKey, ...oldKey]) });
    assert.deepEqual(await both.resealSecrets('all'), { resealed: 1, byKey: { [newKey[0]!.id]: 1 }, missingKeys: [] });
    const onlyNew = await db.reopen({ secrets: createSecretBox(newKey) });
    assert.deepEqual((await onlyNew.connections.findSettings(IDS.program, 'lookup'))?.auth, SETTINGS.auth, 'the old key can go once rotated');

    const lost = await db.reopen({ secrets: createSecretBox(oldKey) });
    assert.deepEqual((await lost.unreadableSecrets()).connectionSecrets, [`${IDS.program}/lookup`]);
    let n = 0;
    const dropped = await lost.dropUnreadableSecrets({ at: 2, newId: () => `AUDIT${String(++n).padStart(7, '0')}`, newWebhookSecret: () => 'unknowable' });
    assert.deepEqual(dropped.connectionSecrets, [`${IDS.program}/lookup`]);
    assert.equal(await onlyNew.connections.findSettings(IDS.program, 'lookup'), null);
    assert.deepEqual((await lost.unreadableSecrets()).connectionSecrets, []);
  });
});
