import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SqliteBinding as Database } from '../../src/store/sqlite-binding.ts';
import type { CliIo } from '../../src/cli/cli-context.ts';
import { runCli } from '../../src/cli/main.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { type TestEnv, testEnv } from './test-store.ts';

// `apas connection …`: where a program's connections go and how they sign in, per program row (a test copy has its
// own), the agency's allowlist of hosts, secrets read from standard input only, sealed at rest, re-wrapped by a
// rotation, never printed; a refused set changes nothing.

let env: TestEnv;
let programId: string;
const AGENCY = 'utility';

before(async () => {
  env = await testEnv();
  await env.store.transaction((tx) => tx.accounts.insertAgency({ id: 'AG0000000001', customId: AGENCY, name: 'Utility' }, 1));
  const file = validateProgramFile({
    ...sampleProgram(),
    connections: [{ customId: 'accountLookup', name: 'Account lookup', request: '{"account": Customer}', response: { properties: { name: { type: 'string' } } }, set: { Customer: 'response.name' } }],
  });
  await importProgram(env, AGENCY, file);
  programId = (await env.store.programs.findProgram('PV', 'AG0000000001'))!.id;
});
after(async () => {
  await env.cleanup();
});

async function apas(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), readStdin: async () => stdin, stdinIsTty: false, env: { DATABASE_URL: env.file }, cwd: env.dir };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const SET: string[] = ['connection', 'set', '--program', 'PV', '--agency', AGENCY, '--connection', 'accountLookup', '--url', 'https://billing.example.com/accounts'];

function rawAuth(): string | undefined {
  const db = new Database(env.file, { readonly: true });
  try {
    return (db.prepare('select auth from connection_settings').get() as { auth: string } | undefined)?.auth;
  } finally {
    db.close();
  }
}

test('a host off the allowlist, a secret on the command line and an unknown connection are refused and change nothing', async () => {
  const off = await apas([...SET, '--header-secret', 'X-Api-Key'], 'k-123');
  assert.equal(off.code, 1);
  assert.match(off.err, /billing\.example\.com is not on the agency's allowlist/);
  assert.equal((await apas([...SET, '--header-secret', 'X-Api-Key=k-123'])).code, 2);
  assert.equal((await apas(['connection', 'allow-host', '--agency', AGENCY, 'Billing.Example.com'])).out, 'billing.example.com');
  const unknown = await apas([...SET.slice(0, 7), 'nowhere', '--url', 'https://billing.example.com/'], '');
  assert.equal(unknown.code, 1);
  assert.match(unknown.err, /has no connection "nowhere"; its connections are accountLookup/);
  const plain = await apas([...SET.slice(0, -1), 'http://billing.example.com/accounts']);
  assert.equal(plain.code, 1);
  assert.match(plain.err, /must use https/);
  assert.equal(await env.store.connections.findSettings(programId, 'accountLookup'), null);
});

test('set seals the header secret, list shows where each goes but never the secret, and a rotation re-wraps it', async () => {
  await apas(['connection', 'allow-host', '--agency', AGENCY, 'billing.example.com']);
  const set = await apas([...SET, '--header-secret', 'X-Api-Key'], 'k-123\n');
  assert.equal(set.code, 0, set.err);
  assert.doesNotMatch(set.out, /k-123/);
  assert.deepEqual((await env.store.connections.findSettings(programId, 'accountLookup'))?.auth, { kind: 'header', name: 'X-Api-Key', value: 'k-123' });
  const sealed = rawAuth();
  assert.match(sealed ?? '', /^sealed:v1:/);
  assert.doesNotMatch(sealed ?? '', /k-123/);
  const list = await apas(['connection', 'list', '--agency', AGENCY]);
  assert.equal(list.code, 0, list.err);
  assert.match(list.out, /^PV {2}accountLookup {2}https:\/\/billing\.example\.com\/accounts {2}header {2}set /m);
  assert.doesNotMatch(list.out, /k-123/);
  // `apas secrets rotate` re-wraps every value the pass counts: the connection's sign-in is one of them.
  const counted = (r: { byKey: Record<string, number> }) => Object.values(r.byKey).reduce((a, b) => a + b, 0);
  const withIt = counted(await env.store.resealSecrets('count'));
  await env.store.transaction((tx) => tx.connections.deleteSettings(programId, 'accountLookup'));
  assert.equal(counted(await env.store.resealSecrets('count')), withIt - 1);
  assert.equal((await apas([...SET, '--header-secret', 'X-Api-Key'], 'k-123')).code, 0);
  assert.deepEqual((await env.store.connections.findSettings(programId, 'accountLookup'))?.auth, { kind: 'header', name: 'X-Api-Key', value: 'k-123' });
  assert.equal((await apas(['connection', 'remove', '--program', 'PV', '--agency', AGENCY, '--connection', 'accountLookup'])).code, 0);
  assert.match((await apas(['connection', 'list', '--program', 'PV', '--agency', AGENCY])).out, /accountLookup {2}\(not set/);
});
