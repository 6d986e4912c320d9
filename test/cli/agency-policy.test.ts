import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/cli-context.ts';
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

async function apas(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIo = { out: (t) => out.push(t), err: (t) => err.push(t), readStdin: async () => '', stdinIsTty: false, env: { DATABASE_URL: env.file }, cwd: env.dir };
  const code = await runCli(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('apas agency policy: shows the defaults, sets one setting at a time with an audit row, refuses a bad value', async () => {
  const shown = await apas(['agency', 'policy', '--agency', 'acme']);
  assert.equal(shown.code, 0, shown.err);
  assert.equal(shown.out, 'own-credentials  off\nown-webhooks     off\nnever set (the defaults)');

  const set = await apas(['agency', 'policy', '--agency', 'acme', '--own-webhooks', 'on']);
  assert.equal(set.code, 0, set.err);
  assert.match(set.out, /^own-credentials {2}off\nown-webhooks {5}on\nset \S+ by the operator$/);
  const stored = await env.store.agencyPolicies.findPolicy(IDS.agency);
  assert.deepEqual([stored.ownCredentials, stored.ownWebhooks, stored.updatedBy], [false, true, null]);
  const audit = await env.store.audit.list({ action: 'agency.policy.set' });
  assert.equal(audit.length, 1);

  const bad = await apas(['agency', 'policy', '--agency', 'acme', '--own-credentials', 'yes']);
  assert.equal(bad.code, 2);
  assert.match(bad.err, /on or off/);
  const unknown = await apas(['agency', 'policy', '--agency', 'nope', '--own-credentials', 'on']);
  assert.equal(unknown.code, 1);
  assert.deepEqual(await env.store.agencyPolicies.findPolicy(IDS.agency), stored, 'a refused command changes nothing');
});
