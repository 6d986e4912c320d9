import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { parseApiKey, verifySecret } from '../../src/domain/accounts/secrets.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import { openSecretBox } from '../../src/store/open-secret-box.ts';
import { type ApasResult, ROOT, runApas, runApasInProcess } from '../support/run-apas.ts';

const SOLAR = path.join(ROOT, 'programs', 'residential-solar.yaml');

let dir = '';
let dbFile = '';

/** The keys the CLI seals with: the key file it makes beside the database. */
function cliSecrets() {
  return openSecretBox({ database: { kind: 'sqlite', file: dbFile }, secretKeys: { keys: null, file: null } });
}

before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'apas-cli-e2e-'));
  dbFile = path.join(dir, 'apas.db');
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

type Result = ApasResult;

/**
 * Runs an `apas` command line against the test database, feeding `stdin` (empty unless given): in this process, as
 * most tests here do (a process of its own costs 1–2 s of CPU to load the CLI, and this file runs about ninety), or
 * as `node bin/apas.js …` with `spawned`, as the tests of the command's own process do.
 */
function apas(args: string[], stdin = '', env: Record<string, string> = {}, spawned = false): Promise<Result> {
  return (spawned ? runApas : runApasInProcess)(args, { cwd: dir, stdin, env: { DATABASE_URL: dbFile, ...env } });
}

function assertNoStack(r: Result): void {
  assert.doesNotMatch(r.stderr, /\n\s+at .+:\d+:\d+/, `expected no stack trace in: ${r.stderr}`);
}

async function expectFailure(args: string[], code: number, message: RegExp, stdin = '', spawned = false): Promise<Result> {
  const r = await apas(args, stdin, {}, spawned);
  assert.equal(r.code, code, `apas ${args.join(' ')}: ${r.stderr}`);
  assert.match(r.stderr, message);
  assertNoStack(r);
  return r;
}

async function expectSuccess(args: string[], stdin = '', spawned = false): Promise<Result> {
  const r = await apas(args, stdin, {}, spawned);
  assert.equal(r.code, 0, `apas ${args.join(' ')} failed: ${r.stderr}`);
  return r;
}

test('help and usage errors', async () => {
  // The installed command's own process: its exit codes, and dist/ built from these sources.
  const help = await expectSuccess(['help'], '', true);
  assert.match(help.stdout, /program import/);
  assert.match((await expectSuccess(['user', 'create', '--help'])).stdout, /Usage: apas user create --agency AGENCY --email EMAIL --name NAME \[--agency-admin\]/);
  assert.match((await expectSuccess(['help', 'key'])).stdout, /apas key create --user EMAIL/);
  await expectFailure([], 2, /Usage: apas COMMAND/, '', true);
  await expectFailure(['frobnicate'], 2, /unknown command "frobnicate"/);
  await expectFailure(['agency', 'create', '--id', 'x'], 2, /missing --name\nRun "apas help agency create" for usage/);
  await expectFailure(['agency', 'create', '--id', 'x', '--name', 'X', '--colour', 'red'], 2, /Unknown option '--colour'/);
});

test('configuration errors are one clear line', async () => {
  const r = await apas(['migrate'], '', { DATABASE_URL: 'mysql://nope' }, true);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /^apas: DATABASE_URL must be a SQLite file path/);
  assertNoStack(r);
});

test('migrate, agencies and users', async () => {
  assert.match((await expectSuccess(['migrate'])).stdout, /is up to date/);
  assert.match((await expectSuccess(['agency', 'create', '--id', 'city', '--name', 'City Utility'])).stdout, /Created agency city/);
  await expectFailure(['agency', 'create', '--id', 'city', '--name', 'Again'], 1, /agency "city" already exists/);
  assert.match((await expectSuccess(['agency', 'list'])).stdout, /^city\s+\w{12}\s+City Utility$/m);

  const created = await expectSuccess(['user', 'create', '--agency', 'city', '--email', 'Ops@City.example', '--name', 'Ops', '--agency-admin'], 'a long enough password\n');
  assert.match(created.stdout, /Created user ops@city.example .*as agency admin/);
  await expectFailure(['user', 'create', '--agency', 'city', '--email', 'x@city.example', '--name', 'X', '--password', 'secret'], 2, /never from the command line/);
  await expectFailure(['user', 'create', '--agency', 'city', '--email', 'x@city.example', '--name', 'X'], 2, /no password on standard input/);
  await expectFailure(['user', 'create', '--agency', 'city', '--email', 'x@city.example', '--name', 'X'], 1, /at least 12 characters/, 'short\n');
  await expectFailure(['user', 'create', '--agency', 'city', '--email', 'ops@city.example', '--name', 'X'], 1, /already exists/, 'a long enough password');
  await expectFailure(['user', 'create', '--agency', 'town', '--email', 'y@city.example', '--name', 'Y'], 1, /agency "town" not found/, 'a long enough password');

  await expectSuccess(['user', 'set-password', '--email', 'ops@city.example'], 'another long password\r\n');
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  try {
    const user = await store.accounts.findUserByEmail('ops@city.example');
    assert.equal(await verifySecret(user!.passwordHash, 'another long password'), true, 'only the trailing newline is stripped');
  } finally {
    await store.close();
  }
  assert.match((await expectSuccess(['user', 'disable', '--email', 'ops@city.example'])).stdout, /Disabled user ops@city.example/);
  assert.match((await expectSuccess(['user', 'enable', '--email', 'ops@city.example'])).stdout, /Enabled user/);
  await expectFailure(['user', 'disable', '--email', 'nobody@city.example'], 1, /no user has the e-mail nobody@city.example/);
});

test('program import, export and re-import', async () => {
  const first = await expectSuccess(['program', 'import', SOLAR, '--agency', 'city']);
  assert.match(first.stdout, /^Program RES-SOLAR \(id \w+\) was created:/);
  assert.match(first.stdout, /created form Application/);
  assert.match((await expectSuccess(['program', 'import', SOLAR, '--agency', 'city'])).stdout, /: no changes\.$/m);
  assert.match((await expectSuccess(['program', 'list', '--agency', 'city'])).stdout, /^RES-SOLAR\s+\w{12}\s+Residential Solar Interconnection$/m);

  await expectSuccess(['program', 'export', 'RES-SOLAR', '--agency', 'city', '--out', 'exported.yaml']);
  assert.match(readFileSync(path.join(dir, 'exported.yaml'), 'utf8'), /^customId: RES-SOLAR$/m);
  assert.match((await expectSuccess(['program', 'import', 'exported.yaml', '--agency', 'city'])).stdout, /no changes/);
  const json = await expectSuccess(['program', 'export', 'RES-SOLAR', '--agency', 'city', '--format', 'json']);
  assert.equal(JSON.parse(json.stdout).numberPrefix, 'SOLAR');
  await expectFailure(['program', 'export', 'RES-SOLAR', '--agency', 'city', '--format', 'xml'], 2, /--format must be yaml or json/);
  await expectFailure(['program', 'export', 'NOPE', '--agency', 'city'], 1, /program "NOPE" not found/);

  const changed = readFileSync(SOLAR, 'utf8').replace('name: Residential Solar Interconnection', 'name: Rooftop Solar');
  writeFileSync(path.join(dir, 'changed.yaml'), changed);
  const dry = await expectSuccess(['program', 'import', 'changed.yaml', '--agency', 'city', '--dry-run']);
  assert.match(dry.stdout, /would be updated:\n {2}updated program RES-SOLAR \(name\)/);
  assert.match((await expectSuccess(['program', 'import', 'changed.yaml', '--agency', 'city'])).stdout, /was updated:\n {2}updated program RES-SOLAR \(name\)/);
  // Each import that changed the program recorded a version, published by the operator, with the file as it was read.
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  try {
    const program = (await store.programs.findProgram('RES-SOLAR'))!;
    const versions = await store.programs.listProgramVersions(program.id);
    assert.deepEqual(versions.map((v) => [v.version, v.publisher, v.publishedBy, v.fileName]), [[2, 'operator (command line)', null, 'changed.yaml'], [1, 'operator (command line)', null, 'residential-solar.yaml']]);
    assert.deepEqual(versions[0]!.changes, ['updated program RES-SOLAR (name)']);
    assert.equal((await store.programs.findProgramVersion(program.id, 2))!.content, changed);
  } finally {
    await store.close();
  }

  writeFileSync(path.join(dir, 'bad.yaml'), 'customId: BAD\nname: Bad\nnumberPrefix: bad\nstatuses:\n  - { name: Draft, initial: true, next: [Gone] }\n');
  await expectFailure(['program', 'import', 'bad.yaml', '--agency', 'city'], 1, /bad\.yaml is not a valid program \(1 problem\):\n {2}- numberPrefix \(line 3, column 15\): must be 1 to 16 upper-case letters or digits/);
  writeFileSync(path.join(dir, 'bad.yaml'), 'customId: BAD\nname: Bad\nnumberPrefix: BAD\nstatuses:\n  - { name: Draft, initial: true, next: [Gone] }\n');
  await expectFailure(['program', 'import', 'bad.yaml', '--agency', 'city'], 1, /status "Draft" \(line 5, column 42\): next: no status has the customId or name "Gone"\n {2}- status "Draft" \(line 5, column 13\): the initial status must be named "Unsubmitted"/);
  await expectFailure(['program', 'import', 'missing.yaml', '--agency', 'city'], 1, /cannot read missing\.yaml: no such file/);
  await expectFailure(['program', 'import', SOLAR, '--agency', 'town'], 1, /agency "town" not found/);
  await expectFailure(['program', 'import', '--agency', 'city'], 2, /missing FILE/);
});

test('grants', async () => {
  await expectSuccess(['user', 'create', '--agency', 'city', '--email', 'pat@city.example', '--name', 'Pat'], 'pat password 123');
  const added = await expectSuccess(['grant', 'add', '--user', 'pat@city.example', '--program', 'RES-SOLAR', '--role', 'editor', '--sensitive']);
  assert.match(added.stdout, /Granted pat@city.example the role editor in program RES-SOLAR with sensitive data/);
  await expectFailure(['grant', 'add', '--user', 'pat@city.example', '--program', 'RES-SOLAR', '--role', 'owner'], 1, /role must be one of/);
  await expectFailure(['grant', 'add', '--user', 'pat@city.example', '--program', 'NOPE', '--role', 'reader'], 1, /program "NOPE" not found/);
  await expectSuccess(['grant', 'remove', '--user', 'pat@city.example', '--program', 'RES-SOLAR']);
  await expectFailure(['grant', 'remove', '--user', 'pat@city.example', '--program', 'RES-SOLAR'], 1, /has no grant/);
});

test('API keys are printed once and work', async () => {
  const created = await expectSuccess(['key', 'create', '--user', 'pat@city.example', '--name', 'integration']);
  const key = created.stdout.trim();
  assert.equal(created.stdout, `${key}\n`, 'standard output holds the key alone');
  assert.match(created.stderr, /shown only once/);
  const parts = parseApiKey(key);
  assert.ok(parts, `${key} must parse`);
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  try {
    const record = await store.accounts.findApiKey(parts.id);
    assert.equal(await verifySecret(record!.secretHash, parts.secret), true);
  } finally {
    await store.close();
  }
  const listed = await expectSuccess(['key', 'list', '--user', 'pat@city.example']);
  assert.match(listed.stdout, new RegExp(`^${parts.id}\\s+\\S+\\s+active\\s+integration$`, 'm'));
  assert.ok(!listed.stdout.includes(parts.secret) && !listed.stderr.includes(parts.secret));
  await expectSuccess(['key', 'revoke', '--id', parts.id]);
  assert.match((await expectSuccess(['key', 'list', '--user', 'pat@city.example'])).stdout, /revoked/);
  await expectFailure(['key', 'revoke', '--id', parts.id], 1, /no active API key/);
});

test('OAuth clients: the secret is printed once and stored hashed; list and revoke', async () => {
  const created = await expectSuccess(['client', 'create', '--user', 'pat@city.example', '--name', 'CRM sync']);
  const m = /^client_id=([0-9A-Z]{12})\nclient_secret=([0-9A-Z]{40})\n$/.exec(created.stdout);
  assert.ok(m, `standard output holds the id and secret alone: ${created.stdout}`);
  const [, id, secret] = m;
  assert.match(created.stderr, /shown only once/);
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  try {
    const record = await store.oauth.findClient(id!);
    assert.equal(record?.userId, (await store.accounts.findUserByEmail('pat@city.example'))?.id);
    assert.equal(await verifySecret(record!.secretHash, secret!), true);
    assert.ok(!JSON.stringify(record).includes(secret!), 'only a hash is stored');
  } finally {
    await store.close();
  }
  const listed = await expectSuccess(['client', 'list', '--user', 'pat@city.example']);
  assert.match(listed.stdout, new RegExp(`^${id}\\s+\\S+\\s+active\\s+CRM sync$`, 'm'));
  assert.ok(!listed.stdout.includes(secret!) && !listed.stderr.includes(secret!));
  assert.match((await expectSuccess(['client', 'revoke', id!])).stdout, new RegExp(`Revoked OAuth client ${id} and its tokens`));
  assert.match((await expectSuccess(['client', 'list', '--user', 'pat@city.example'])).stdout, /revoked/);
  await expectFailure(['client', 'revoke', id!], 1, /no active OAuth client has the id/);
  await expectFailure(['client', 'revoke'], 2, /missing CLIENT_ID/);
  await expectFailure(['client', 'create', '--user', 'pat@city.example'], 2, /missing --name/);
  await expectFailure(['client', 'create', '--user', 'nobody@city.example', '--name', 'X'], 1, /no user has the e-mail nobody@city.example/);
  assert.match((await expectSuccess(['help', 'client'])).stdout, /apas client revoke CLIENT_ID/);
});

test('MFA enrolment prints the otpauth URI once, and can be turned off', async () => {
  const enrolled = await expectSuccess(['user', 'mfa-enrol', '--email', 'pat@city.example', '--issuer', 'City Utility']);
  const uri = new URL(enrolled.stdout.trim());
  assert.equal(uri.protocol, 'otpauth:');
  assert.equal(uri.host, 'totp');
  assert.equal(uri.searchParams.get('issuer'), 'City Utility');
  assert.match(uri.searchParams.get('secret') ?? '', /^[A-Z2-7]{32}$/);
  assert.match(enrolled.stderr, /shown only once/);
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  try {
    const user = await store.accounts.findUserByEmail('pat@city.example');
    assert.equal((await store.mfa.getMfa(user!.id))?.secret, uri.searchParams.get('secret'));
  } finally {
    await store.close();
  }
  await expectSuccess(['user', 'mfa-disable', '--email', 'pat@city.example']);
  await expectFailure(['user', 'mfa-disable', '--email', 'pat@city.example'], 1, /not enrolled/);
  await expectFailure(['user', 'mfa-enrol', '--email', 'nobody@city.example'], 1, /No user has the e-mail address/);
});

test('the demo seeds once and prints its credentials', async () => {
  const first = await expectSuccess(['demo']);
  assert.match(first.stdout, /Demo data created:/);
  assert.match(first.stdout, /apas_DEMOADMIN000_demoAdminKeyDemoAdminKeyDemoAdmin1/);
  const second = await expectSuccess(['demo']);
  assert.match(second.stdout, /already present; nothing changed/);
  assert.match(second.stdout, /reviewer@demo\.apas\.local .*demo-reviewer-password/);
});

test('user list and grant list show who may do what, without SQL and without secrets', async () => {
  await expectSuccess(['grant', 'add', '--user', 'pat@city.example', '--program', 'RES-SOLAR', '--role', 'reader']);
  const users = await expectSuccess(['user', 'list', '--agency', 'city']);
  assert.match(users.stdout, /^ops@city\.example {2}\w{12} {2}city {2}Ops {2}agency-admin$/m);
  assert.match(users.stdout, /^pat@city\.example {2}\w{12} {2}city {2}Pat$/m);
  assert.doesNotMatch(users.stdout, /demo\.apas\.local/, 'only the agency asked for');
  assert.doesNotMatch(users.stdout, /argon2/, 'no password hash');
  assert.match((await expectSuccess(['user', 'list'])).stdout, /^admin@demo\.apas\.local /m);
  await expectFailure(['user', 'list', '--agency', 'town'], 1, /agency "town" not found/);

  assert.equal((await expectSuccess(['grant', 'list', '--user', 'pat@city.example'])).stdout, 'RES-SOLAR  pat@city.example  reader\n');
  const solar = await expectSuccess(['grant', 'list', '--program', 'RES-SOLAR', '--agency', 'city']);
  assert.equal(solar.stdout, 'RES-SOLAR  pat@city.example  reader\n', 'the city program only, not the demo agency\'s RES-SOLAR');
  assert.match((await expectSuccess(['grant', 'list'])).stdout, /^RES-SOLAR {2}applicant@demo\.apas\.local {2}applicant$/m);
  await expectFailure(['grant', 'list', '--program', 'RES-SOLAR'], 1, /program "RES-SOLAR" not found \(name its agency with --agency/);
  await expectFailure(['grant', 'list', '--user', 'nobody@city.example'], 1, /no user has the e-mail nobody@city.example/);
  const none = await expectSuccess(['grant', 'list', '--user', 'ops@city.example']);
  assert.equal(none.stdout, '');
  assert.match(none.stderr, /No grants match/);
});

test('organization list and organization members show the installer organizations without SQL', async () => {
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  const T = Date.UTC(2026, 0, 1);
  try {
    const pat = (await store.accounts.findUserByEmail('pat@city.example'))!;
    const ops = (await store.accounts.findUserByEmail('ops@city.example'))!;
    await store.transaction(async (tx) => {
      await tx.organizations.insertOrganization({ id: 'ORGCITY00001', agencyId: pat.agencyId, name: 'Sunny Installers', defaults: {}, createdAt: T, createdBy: pat.id });
      await tx.organizations.addMember('ORGCITY00001', pat.id, 'admin', T);
      await tx.organizations.addMember('ORGCITY00001', ops.id, 'member', T + 1);
      await tx.organizations.insertInvitation({
        id: 'INVCITY00001', organizationId: 'ORGCITY00001', email: 'new@city.example', tokenHash: 'x'.repeat(64), invitedBy: pat.id, createdAt: T, expiresAt: Date.UTC(2099, 0, 1), usedAt: null,
      });
    });
  } finally {
    await store.close();
  }
  assert.match((await expectSuccess(['organization', 'list'])).stdout, /^ORGCITY00001 {2}city {5}2 members {2}Sunny Installers$/m);
  assert.equal((await expectSuccess(['organization', 'list', '--agency', 'city'])).stdout, 'ORGCITY00001  city     2 members  Sunny Installers\n');
  const demo = await expectSuccess(['organization', 'list', '--agency', 'demo']);
  assert.doesNotMatch(demo.stdout, /Sunny/, 'only the agency asked for');
  await expectFailure(['organization', 'list', '--agency', 'town'], 1, /agency "town" not found/);
  const members = await expectSuccess(['organization', 'members', 'ORGCITY00001']);
  assert.equal(members.stdout, [
    'Sunny Installers (ORGCITY00001)',
    'member   ops@city.example  member  since 2026-01-01T00:00:00.001+00:00  Ops',
    'member   pat@city.example  admin   since 2026-01-01T00:00:00.000+00:00  Pat',
    'invited  new@city.example  by Pat  expires 2099-01-01T00:00:00.000+00:00',
    '',
  ].join('\n'));
  await expectFailure(['organization', 'members', 'NOSUCHORG001'], 1, /organization NOSUCHORG001 not found/);
  await expectFailure(['organization', 'members'], 2, /missing ORG/);
  assert.match((await expectSuccess(['help', 'organization'])).stdout, /apas organization list \[--agency AGENCY\][\s\S]*apas organization members ORG/);
});

test('mail list and mail retry: the queue without SQL; a failed mail is sent again', async () => {
  const store = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  const T = Date.UTC(2026, 0, 1);
  try {
    await store.transaction(async (tx) => {
      for (const [id, n] of [['MAILFAILED01', 1], ['MAILFAILED02', 2], ['MAILPENDING1', 3]] as const) {
        await tx.mail.enqueueMail({ id, kind: 'statusChanged', eventId: `EVENT0000${n}`, to: `u${n}@city.example`, subject: 'S', text: 'secret link', html: '<p>secret link</p>', createdAt: T + n });
      }
      // An account mail given up: its link's token is gone, so it is never sent again.
      await tx.mail.enqueueMail({ id: 'MAILACCOUNT1', kind: 'account.reset', eventId: null, to: 'u4@city.example', subject: 'S', text: 'link', html: '<p>link</p>', createdAt: T });
      await tx.mail.markMailFailed('MAILACCOUNT1', 40, '550 mailbox unavailable', null);
      await tx.mail.markMailFailed('MAILFAILED01', 40, '550 mailbox unavailable', null);
      await tx.mail.markMailFailed('MAILFAILED02', 40, 'connect ECONNREFUSED', null);
    });
  } finally {
    await store.close();
  }
  const all = await expectSuccess(['mail', 'list']);
  assert.deepEqual(all.stdout.trim().split('\n').map((l) => l.split(/\s+/).slice(0, 3).join(' ')), [
    'MAILACCOUNT1 failed account.reset', 'MAILFAILED01 failed statusChanged', 'MAILFAILED02 failed statusChanged', 'MAILPENDING1 pending statusChanged',
  ]);
  assert.match(all.stdout, /MAILFAILED01 {2}failed .* u1@city\.example .*attempts=40 {2}gave up {2}last error: 550 mailbox unavailable/);
  assert.doesNotMatch(all.stdout, /secret link/, 'never the text, which may hold a live link');
  const failed = await expectSuccess(['mail', 'list', '--status', 'failed', '--limit', '1']);
  assert.match(failed.stdout, /^MAILFAILED02 /, 'the newest one');
  assert.equal(failed.stdout.trim().split('\n').length, 1);
  await expectFailure(['mail', 'list', '--status', 'lost'], 2, /--status must be one of pending, sent, failed, test/);
  await expectFailure(['mail', 'list', '--limit', '0'], 2, /--limit must be a whole number/);

  await expectFailure(['mail', 'retry'], 2, /give either --id MAIL_ID or --all-failed/);
  await expectFailure(['mail', 'retry', '--id', 'MAILFAILED01', '--all-failed'], 2, /give either/);
  await expectFailure(['mail', 'retry', '--id', 'NOSUCHMAIL00'], 1, /no mail has the id NOSUCHMAIL00/);
  await expectFailure(['mail', 'retry', '--id', 'MAILPENDING1'], 1, /has not failed: it is pending/);
  await expectFailure(['mail', 'retry', '--id', 'MAILACCOUNT1'], 1, /is an account mail \(account.reset\): its link was withdrawn/);
  assert.match((await expectSuccess(['mail', 'retry', '--id', 'MAILFAILED01'])).stdout, /Queued 1 failed mail again: MAILFAILED01/);
  assert.match((await expectSuccess(['mail', 'list', '--status', 'pending'])).stdout, /^MAILFAILED01 {2}pending .*attempts=0/m);
  assert.match((await expectSuccess(['mail', 'retry', '--all-failed'])).stdout, /Queued 1 failed mail again: MAILFAILED02/);
  assert.match((await expectSuccess(['mail', 'retry', '--all-failed'])).stdout, /No failed notification mail to send again/);
  const check = createKyselyStore(await openDatabase({ kind: 'sqlite', file: dbFile }), { secrets: cliSecrets() });
  try {
    assert.deepEqual((await check.mail.listMail('failed')).map((m) => m.id), ['MAILACCOUNT1'], 'only the account mail stays failed');
    assert.equal((await check.audit.list({ action: 'mail.retry' })).length, 2, 'each retry that queued something is audited');
  } finally {
    await check.close();
  }
  assert.match((await expectSuccess(['help', 'mail'])).stdout, /apas mail retry \[--id MAIL_ID\] \[--all-failed\]/);
});
