import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { CliIo } from '../../src/cli/cli-context.ts';
import { runCli } from '../../src/cli/main.ts';
import { IDS, seedProgram } from '../support/fixtures.ts';
import { type TestEnv, testEnv } from './test-store.ts';

let env: TestEnv;

before(async () => {
  env = await testEnv();
  await seedProgram(env.store);
});
after(async () => {
  await env.cleanup();
});

/** Runs `apas …` in this process against the test database, with `stdin` piped in. */
async function apas(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = {
    out: (t) => out.push(t), err: (t) => err.push(t), readStdin: async () => stdin, stdinIsTty: false,
    env: { DATABASE_URL: env.file }, cwd: env.dir,
  };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const SET = ['agency', 'sso', 'set', '--agency', 'acme', '--label', 'Entra ID', '--issuer', 'https://login.example.org/tenant/v2.0/', '--client-id', 'apas-client'];

test('apas agency sso: set reads the secret from stdin and never prints it; show and disable; a bad mapping changes nothing', async () => {
  assert.equal((await apas([...SET, '--secret', 'x'])).code, 2, 'a secret on the command line is refused');
  const first = await apas([...SET, '--map', 'admins = admin']);
  assert.equal(first.code, 1, 'the first set needs the secret');
  assert.match(first.err, /client secret/);
  assert.equal(await env.store.signOn.findSettings(IDS.agency), null);

  const set = await apas([...SET, '--secret-stdin', '--map', 'admins = admin; cn=reviewers,ou=staff = solar editor sensitive', '--no-passwords'], 'top-secret-value\n');
  assert.equal(set.code, 0, set.err);
  assert.doesNotMatch(set.out, /top-secret-value/);
  assert.match(set.out, /issuer {11}https:\/\/login\.example\.org\/tenant\/v2\.0$/m, 'the issuer without its trailing slash');
  assert.match(set.out, /staff passwords {2}off/);
  const stored = await env.store.signOn.findSettings(IDS.agency);
  assert.equal(stored?.clientSecret, 'top-secret-value');
  assert.deepEqual(stored?.groupGrants, [
    { group: 'admins', agencyAdmin: true },
    { group: 'cn=reviewers,ou=staff', agencyAdmin: false, programId: IDS.program, role: 'editor', sensitive: true },
  ]);
  assert.deepEqual(stored?.scopes, ['openid', 'email', 'profile', 'groups']);

  const bad = await apas([...SET, '--map', 'applicants = solar applicant']);
  assert.equal(bad.code, 1);
  assert.match(bad.err, /not a staff role/);
  assert.deepEqual(await env.store.signOn.findSettings(IDS.agency), stored, 'a refused set changes nothing');

  const shown = await apas(['agency', 'sso', 'show', '--agency', 'acme']);
  assert.equal(shown.code, 0, shown.err);
  assert.match(shown.out, /^ {2}cn=reviewers,ou=staff = solar editor sensitive$/m);
  assert.doesNotMatch(shown.out, /top-secret-value/);

  assert.equal((await apas(['agency', 'sso', 'disable', '--agency', 'acme'])).code, 0);
  assert.deepEqual(await env.store.signOn.findPolicy(IDS.agency), { enabled: false, allowPasswords: false, label: 'Entra ID' });
  const usage = await apas(['agency', 'sso']);
  assert.equal(usage.code, 2);
  assert.match(usage.err, /apas agency sso set\|show\|disable/);
});
