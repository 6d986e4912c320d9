import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import { ApiError, type ErrorCode } from '../../src/domain/api-error.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { parseApiKey, verifySecret } from '../../src/domain/accounts/secrets.ts';
import { sampleProgram } from './sample-program.ts';
import { type TestEnv, testEnv } from './test-store.ts';

let env: TestEnv;
let accounts: AccountService;
const PASSWORD = 'correct horse battery';

before(async () => {
  env = await testEnv();
  accounts = new AccountService(env);
  await accounts.createAgency('acme', 'Acme Utility');
  await accounts.createAgency('other', 'Other Utility');
  await importProgram(env, 'acme', validateProgramFile(sampleProgram()));
  await importProgram(env, 'other', validateProgramFile({ ...sampleProgram(), customId: 'ELSEWHERE' }));
  await accounts.createUser({ agency: 'acme', email: 'Pat@Example.org', name: 'Pat', password: PASSWORD });
});
after(async () => {
  await env.cleanup();
});

async function rejectsWith(promise: Promise<unknown>, code: ErrorCode, message: RegExp): Promise<void> {
  await assert.rejects(promise, (e: unknown) => {
    assert.ok(e instanceof ApiError, String(e));
    assert.equal(e.code, code);
    assert.match(e.message, message);
    return true;
  });
}

/** Every audit row as text, to prove no secret ever lands there. */
async function auditText(): Promise<string> {
  return JSON.stringify(await env.store.audit.list({ limit: 10000 }));
}

test('agencies: created once, with a URL-safe id', async () => {
  const agency = await env.store.accounts.findAgency('acme');
  assert.equal(agency?.name, 'Acme Utility');
  await rejectsWith(accounts.createAgency('acme', 'Again'), 'CONFLICT', /agency "acme" already exists/);
  await rejectsWith(accounts.createAgency('has space', 'X'), 'INVALID_PARAMETER', /agency id "has space" must be/);
  await rejectsWith(accounts.createAgency('blank', '   '), 'INVALID_PARAMETER', /agency name must be 1 to 200 characters/);
});

test('users: e-mail lower-cased and unique, password hashed', async () => {
  const user = await env.store.accounts.findUserByEmail('pat@example.org');
  assert.ok(user);
  assert.equal(user.email, 'pat@example.org');
  assert.equal(await verifySecret(user.passwordHash, PASSWORD), true);
  await rejectsWith(accounts.createUser({ agency: 'acme', email: 'PAT@example.org', name: 'P', password: PASSWORD }), 'CONFLICT', /already exists/);
  await rejectsWith(accounts.createUser({ agency: 'nope', email: 'x@example.org', name: 'X', password: PASSWORD }), 'NOT_FOUND', /agency "nope" not found/);
  await rejectsWith(accounts.createUser({ agency: 'acme', email: 'not-an-email', name: 'X', password: PASSWORD }), 'INVALID_PARAMETER', /not an e-mail address/);
  await rejectsWith(accounts.createUser({ agency: 'acme', email: 'x@example.org', name: 'X', password: 'short' }), 'INVALID_PARAMETER', /at least 12 characters/);
  await rejectsWith(accounts.createUser({ agency: 'acme', email: 'x@example.org', name: 'X', password: 'p'.repeat(1025) }), 'INVALID_PARAMETER', /at most 1024 characters/);
  assert.equal(await env.store.accounts.findUserByEmail('x@example.org'), null);
});

test('agency admins are flagged', async () => {
  const admin = await accounts.createUser({ agency: 'acme', email: 'boss@example.org', name: 'Boss', password: PASSWORD, agencyAdmin: true });
  assert.equal(admin.agencyAdmin, true);
  assert.equal(admin.agencyId, (await env.store.accounts.findAgency('acme'))!.id);
});

test('passwords can be replaced, and users disabled and enabled', async () => {
  await accounts.setPassword('pat@example.org', 'a brand new password');
  assert.equal(await verifySecret((await env.store.accounts.findUserByEmail('pat@example.org'))!.passwordHash, 'a brand new password'), true);
  await rejectsWith(accounts.setPassword('ghost@example.org', 'whatever it is here'), 'UNKNOWN_USER', /no user has the e-mail ghost@example.org/);
  assert.equal((await accounts.setDisabled('pat@example.org', true)).disabled, true);
  assert.equal((await env.store.accounts.findUserByEmail('pat@example.org'))!.disabled, true);
  await accounts.setDisabled('pat@example.org', false);
  assert.equal((await env.store.accounts.findUserByEmail('pat@example.org'))!.disabled, false);
});

test('grants: valid role, program of the user\'s own agency, replaced not duplicated', async () => {
  const user = (await env.store.accounts.findUserByEmail('pat@example.org'))!;
  const grant = await accounts.grant('pat@example.org', 'PV', 'editor', true);
  assert.deepEqual(grant, { userId: user.id, programId: grant.programId, role: 'editor', sensitive: true });
  await accounts.grant('pat@example.org', 'PV', 'reader');
  assert.deepEqual(await env.store.accounts.listGrants(user.id), [{ userId: user.id, programId: grant.programId, role: 'reader', sensitive: false }]);
  await rejectsWith(accounts.grant('pat@example.org', 'PV', 'owner'), 'INVALID_PARAMETER', /role must be one of applicant, reader, editor, admin/);
  await rejectsWith(accounts.grant('pat@example.org', 'NOPE', 'reader'), 'NOT_FOUND', /program "NOPE" not found/);
  await rejectsWith(accounts.grant('pat@example.org', 'ELSEWHERE', 'reader'), 'NOT_FOUND', /program "ELSEWHERE" not found/);
  await rejectsWith(accounts.grant('ghost@example.org', 'PV', 'reader'), 'UNKNOWN_USER', /ghost@example.org/);
  await accounts.revokeGrant('pat@example.org', 'PV');
  assert.deepEqual(await env.store.accounts.listGrants(user.id), []);
  await rejectsWith(accounts.revokeGrant('pat@example.org', 'PV'), 'NOT_FOUND', /has no grant in program "PV"/);
});

test('API keys: the full key is returned once, only its hash is stored', async () => {
  const created = await accounts.createApiKey('pat@example.org', 'ci');
  const parts = parseApiKey(created.key);
  assert.ok(parts, `${created.key} should parse`);
  assert.equal(parts.id, created.id);
  const record = await env.store.accounts.findApiKey(created.id);
  assert.ok(record);
  assert.equal(await verifySecret(record.secretHash, parts.secret), true);
  assert.ok(!record.secretHash.includes(parts.secret));
  const listed = await accounts.listApiKeys('pat@example.org');
  assert.deepEqual(listed.map((k) => [k.id, k.name, k.revokedAt]), [[created.id, 'ci', null]]);
  assert.equal('secretHash' in listed[0]!, false);
  await accounts.revokeApiKey(created.id);
  assert.notEqual((await env.store.accounts.findApiKey(created.id))!.revokedAt, null);
  await rejectsWith(accounts.revokeApiKey(created.id), 'NOT_FOUND', /no active API key has the id/);
  await rejectsWith(accounts.revokeApiKey('NOSUCHKEY000'), 'NOT_FOUND', /no active API key/);
  await rejectsWith(accounts.createApiKey('ghost@example.org'), 'UNKNOWN_USER', /ghost@example.org/);
  const audit = await auditText();
  assert.ok(!audit.includes(parts.secret), 'the key secret must never be audited');
  assert.ok(audit.includes('apikey.create') && audit.includes('apikey.revoke'));
});

test('every write is audited, never with a password or hash', async () => {
  const audit = await auditText();
  for (const action of ['agency.create', 'user.create', 'user.password', 'user.disable', 'user.enable', 'grant.set', 'grant.remove']) {
    assert.ok(audit.includes(`"${action}"`), `missing audit action ${action}`);
  }
  assert.ok(!audit.includes(PASSWORD) && !audit.includes('a brand new password') && !audit.includes('$argon2'));
});
