import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { IDS, T0, agency, seedProgram, user } from '../support/fixtures.ts';

forEachDialect('store: agencies, users, API keys and grants', ({ open }) => {
  it('stores agencies and finds them by id or custom id', async () => {
    const { store } = await open();
    const second = { id: 'AGENCY000002', customId: null, name: 'Second Agency' };
    await store.transaction(async (tx) => {
      await tx.insertAgency(agency(), T0);
      await tx.insertAgency(second, T0 + 1);
    });
    assert.deepEqual(await store.findAgency(IDS.agency), agency());
    assert.deepEqual(await store.findAgency('acme'), agency());
    assert.deepEqual(await store.findAgency('AGENCY000002'), second);
    assert.equal(await store.findAgency('nope'), null);
    assert.deepEqual(await store.listAgencies(), [agency(), second]);
  });

  it('stores users with their password hash and flags, e-mail matched case-insensitively', async () => {
    const { store } = await open();
    const mixed = user(IDS.applicant, { email: 'Jane.Doe@Example.ORG', name: 'Jane', disabled: true });
    await store.transaction(async (tx) => {
      await tx.insertAgency(agency(), T0);
      await tx.insertUser(user(IDS.admin), 'hash-1', T0);
      await tx.insertUser(mixed, 'hash-2', T0);
    });
    const stored = { ...mixed, email: 'jane.doe@example.org', passwordHash: 'hash-2' };
    assert.deepEqual(await store.findUserByEmail('JANE.DOE@example.org'), stored);
    assert.deepEqual(await store.findUserById(IDS.applicant), stored);
    assert.equal(await store.findUserByEmail('nobody@example.org'), null);
    assert.equal(await store.findUserById('nope'), null);

    await store.transaction((tx) => tx.updateUser(IDS.applicant, { name: 'Jane D.', passwordHash: 'hash-3', agencyAdmin: true, disabled: false }, T0 + 5));
    assert.deepEqual(await store.findUserById(IDS.applicant), { ...stored, name: 'Jane D.', passwordHash: 'hash-3', agencyAdmin: true, disabled: false });
    await store.transaction((tx) => tx.updateUser(IDS.applicant, { disabled: true }, T0 + 6));
    assert.equal((await store.findUserById(IDS.applicant))?.name, 'Jane D.', 'fields left out stay as they were');
    assert.equal((await store.findUserById(IDS.applicant))?.disabled, true);

    const many = await store.usersByIds([IDS.applicant, IDS.admin, IDS.admin, 'nope']);
    assert.deepEqual(many.map((u) => u.id).sort(), [IDS.admin, IDS.applicant]);
    for (const u of many) assert.equal('passwordHash' in u, false, 'usersByIds never returns secrets');
    assert.deepEqual(await store.usersByIds([]), []);
  });

  it('stores API keys, lists them oldest first and revokes each once', async () => {
    const { store } = await open();
    const key = (id: string, createdAt: number) => ({ id, userId: IDS.admin, name: `key ${id}`, secretHash: `secret-${id}`, createdAt, revokedAt: null });
    await store.transaction(async (tx) => {
      await tx.insertAgency(agency(), T0);
      await tx.insertUser(user(IDS.admin), 'hash', T0);
      await tx.insertApiKey(key('KEY2', T0 + 20));
      await tx.insertApiKey(key('KEY1', T0 + 10));
    });
    assert.deepEqual(await store.findApiKey('KEY1'), key('KEY1', T0 + 10));
    assert.equal(await store.findApiKey('nope'), null);
    assert.deepEqual((await store.listApiKeys(IDS.admin)).map((k) => k.id), ['KEY1', 'KEY2']);

    assert.equal(await store.transaction((tx) => tx.revokeApiKey('KEY1', T0 + 30)), true);
    assert.equal(await store.transaction((tx) => tx.revokeApiKey('KEY1', T0 + 40)), false, 'a revoked key stays revoked at its first time');
    assert.equal(await store.transaction((tx) => tx.revokeApiKey('nope', T0 + 40)), false);
    assert.equal((await store.findApiKey('KEY1'))?.revokedAt, T0 + 30);
    assert.equal((await store.findApiKey('KEY2'))?.revokedAt, null);
  });

  it('creates, replaces and deletes program grants', async () => {
    const { store } = await open();
    await seedProgram(store);
    const grant = { userId: IDS.applicant, programId: IDS.program, role: 'applicant' as const, sensitive: false };
    await store.transaction((tx) => tx.setGrant(grant));
    assert.deepEqual(await store.findGrant(IDS.applicant, IDS.program), grant);
    assert.deepEqual(await store.listGrants(IDS.applicant), [grant]);

    const promoted = { ...grant, role: 'editor' as const, sensitive: true };
    await store.transaction((tx) => tx.setGrant(promoted));
    assert.deepEqual(await store.listGrants(IDS.applicant), [promoted], 'a second grant replaces the first');
    assert.deepEqual(await store.listGrants(IDS.admin), []);

    assert.equal(await store.transaction((tx) => tx.deleteGrant(IDS.applicant, IDS.program)), true);
    assert.equal(await store.transaction((tx) => tx.deleteGrant(IDS.applicant, IDS.program)), false);
    assert.equal(await store.findGrant(IDS.applicant, IDS.program), null);
  });
});
