import assert from 'node:assert/strict';
import { it } from 'node:test';
import { forEachDialect } from '../support/databases.ts';
import { agency, IDS, seedProgram, T0, user } from '../support/fixtures.ts';

forEachDialect('store: agencies, users, API keys and grants', ({ open }) => {
  it('stores agencies and finds them by id or custom id', async () => {
    const { store } = await open();
    const second = { id: 'AGENCY000002', customId: null, name: 'Second Agency' };
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertAgency(second, T0 + 1);
    });
    assert.deepEqual(await store.accounts.findAgency(IDS.agency), agency());
    assert.deepEqual(await store.accounts.findAgency('acme'), agency());
    assert.deepEqual(await store.accounts.findAgency('AGENCY000002'), second);
    assert.equal(await store.accounts.findAgency('nope'), null);
    assert.deepEqual(await store.accounts.listAgencies(), [agency(), second]);
  });

  it('stores users with their password hash and flags, e-mail matched case-insensitively', async () => {
    const { store } = await open();
    const mixed = user(IDS.applicant, { email: 'Jane.Doe@Example.ORG', name: 'Jane', disabled: true });
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertUser(user(IDS.admin), 'hash-1', T0);
      await tx.accounts.insertUser(mixed, 'hash-2', T0);
    });
    const stored = { ...mixed, email: 'jane.doe@example.org', passwordHash: 'hash-2' };
    assert.deepEqual(await store.accounts.findUserByEmail('JANE.DOE@example.org'), stored);
    assert.deepEqual(await store.accounts.findUserById(IDS.applicant), stored);
    assert.equal(await store.accounts.findUserByEmail('nobody@example.org'), null);
    assert.equal(await store.accounts.findUserById('nope'), null);

    await store.transaction((tx) => tx.accounts.updateUser(IDS.applicant, { name: 'Jane D.', passwordHash: 'hash-3', agencyAdmin: true, disabled: false }, T0 + 5));
    assert.deepEqual(await store.accounts.findUserById(IDS.applicant), { ...stored, name: 'Jane D.', passwordHash: 'hash-3', agencyAdmin: true, disabled: false });
    await store.transaction((tx) => tx.accounts.updateUser(IDS.applicant, { disabled: true }, T0 + 6));
    assert.equal((await store.accounts.findUserById(IDS.applicant))?.name, 'Jane D.', 'fields left out stay as they were');
    assert.equal((await store.accounts.findUserById(IDS.applicant))?.disabled, true);

    const many = await store.accounts.usersByIds([IDS.applicant, IDS.admin, IDS.admin, 'nope']);
    assert.deepEqual(many.map((u) => u.id).sort(), [IDS.admin, IDS.applicant]);
    for (const u of many) assert.equal('passwordHash' in u, false, 'usersByIds never returns secrets');
    assert.deepEqual(await store.accounts.usersByIds([]), []);
  });

  it('stores API keys, lists them oldest first and revokes each once', async () => {
    const { store } = await open();
    const key = (id: string, createdAt: number) => ({ id, userId: IDS.admin, name: `key ${id}`, secretHash: `secret-${id}`, createdAt, revokedAt: null });
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(agency(), T0);
      await tx.accounts.insertUser(user(IDS.admin), 'hash', T0);
      await tx.accounts.insertApiKey(key('KEY2', T0 + 20));
      await tx.accounts.insertApiKey(key('KEY1', T0 + 10));
    });
    assert.deepEqual(await store.accounts.findApiKey('KEY1'), { ...key('KEY1', T0 + 10), lastUsedAt: null });
    assert.equal(await store.accounts.findApiKey('nope'), null);
    assert.deepEqual((await store.accounts.listApiKeys(IDS.admin)).map((k) => k.id), ['KEY1', 'KEY2']);

    assert.equal(await store.transaction((tx) => tx.accounts.revokeApiKey('KEY1', T0 + 30)), true);
    assert.equal(await store.transaction((tx) => tx.accounts.revokeApiKey('KEY1', T0 + 40)), false, 'a revoked key stays revoked at its first time');
    assert.equal(await store.transaction((tx) => tx.accounts.revokeApiKey('nope', T0 + 40)), false);
    assert.equal((await store.accounts.findApiKey('KEY1'))?.revokedAt, T0 + 30);
    assert.equal((await store.accounts.findApiKey('KEY2'))?.revokedAt, null);
  });

  it('creates, replaces and deletes program grants', async () => {
    const { store } = await open();
    await seedProgram(store);
    const grant = { userId: IDS.applicant, programId: IDS.program, role: 'applicant' as const, sensitive: false };
    await store.transaction((tx) => tx.accounts.setGrant(grant));
    assert.deepEqual(await store.accounts.findGrant(IDS.applicant, IDS.program), grant);
    assert.deepEqual(await store.accounts.listGrants(IDS.applicant), [grant]);

    const promoted = { ...grant, role: 'editor' as const, sensitive: true };
    await store.transaction((tx) => tx.accounts.setGrant(promoted));
    assert.deepEqual(await store.accounts.listGrants(IDS.applicant), [promoted], 'a second grant replaces the first');
    assert.deepEqual(await store.accounts.listGrants(IDS.admin), []);

    assert.equal(await store.transaction((tx) => tx.accounts.deleteGrant(IDS.applicant, IDS.program)), true);
    assert.equal(await store.transaction((tx) => tx.accounts.deleteGrant(IDS.applicant, IDS.program)), false);
    assert.equal(await store.accounts.findGrant(IDS.applicant, IDS.program), null);
  });

  it('lists the active users with a role in a program, and the agency admins, by name', async () => {
    const { store } = await open();
    const program = await seedProgram(store);
    const other = { id: 'AGENCY000002', customId: null, name: 'Other Agency' };
    const u = (id: string, name: string, overrides: Partial<Parameters<typeof user>[1]> = {}) => user(id, { name, ...overrides });
    await store.transaction(async (tx) => {
      await tx.accounts.insertAgency(other, T0);
      await tx.accounts.insertUser(u('USER00000011', 'Zoe Reader'), 'h', T0);
      await tx.accounts.insertUser(u('USER00000012', 'Eve Editor'), 'h', T0);
      await tx.accounts.insertUser(u('USER00000013', 'Dan Disabled', { disabled: true }), 'h', T0);
      await tx.accounts.insertUser(u('USER00000014', 'Oscar Other', { agencyId: other.id, agencyAdmin: true }), 'h', T0);
      await tx.accounts.insertUser(u('USER00000015', 'Ned Nothing'), 'h', T0);
      await tx.accounts.setGrant({ userId: 'USER00000011', programId: IDS.program, role: 'reader', sensitive: false });
      await tx.accounts.setGrant({ userId: 'USER00000012', programId: IDS.program, role: 'editor', sensitive: false });
      await tx.accounts.setGrant({ userId: 'USER00000013', programId: IDS.program, role: 'admin', sensitive: false });
      await tx.accounts.setGrant({ userId: IDS.applicant, programId: IDS.program, role: 'applicant', sensitive: false });
    });
    const names = async (roles: ('reader' | 'editor' | 'admin')[], limit = 10) => (await store.accounts.usersWithProgramRole(program, roles, limit)).map((x) => x.name);
    // The agency admin (User USER00000001) is admin of every program of the agency; the other agency's admin is not.
    assert.deepEqual(await names(['reader', 'editor', 'admin']), ['Eve Editor', 'User USER00000001', 'Zoe Reader']);
    assert.deepEqual(await names(['editor']), ['Eve Editor', 'User USER00000001']);
    assert.deepEqual(await names([]), ['User USER00000001']);
    assert.deepEqual(await names(['reader', 'editor', 'admin'], 2), ['Eve Editor', 'User USER00000001']);
    for (const x of await store.accounts.usersWithProgramRole(program, ['reader'], 10)) assert.equal('passwordHash' in x, false, 'no secrets');
  });
});
