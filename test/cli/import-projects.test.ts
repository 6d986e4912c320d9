import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/cli-context.ts';
import { IDS, seedProgram } from '../support/fixtures.ts';
import { type TestEnv, testEnv } from './test-store.ts';

// `apas import projects`: the command's report, exit codes and refusals (the import itself: test/imports).

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

const ADMIN = 'user00000001@example.org';

test('apas import projects: a dry run reports each row, the run imports, a second run finds them unchanged', async () => {
  writeFileSync(path.join(env.dir, 'apps.csv'), 'Ref,name,kw\nK-1,Ann,4\nK-2,Bob,2000\n');
  writeFileSync(path.join(env.dir, 'map.txt'), 'Ref = externalId\n');
  const args = ['import', 'projects', '--program', 'solar', '--as', ADMIN, '--mapping', 'map.txt', 'apps.csv'];
  const dry = await apas([...args, '--dry-run']);
  assert.equal(dry.code, 1, dry.err);
  assert.match(dry.out, /^line 2 {2}K-1 {2}would be created {2}project /m);
  assert.match(dry.out, /^line 3 {2}K-2 {2}refused\n {2}line 3, column "kw": /m);
  assert.equal(dry.err, 'Dry run of 2 rows: 1 created, 0 updated, 0 unchanged, 1 refused; nothing was kept.');
  assert.equal((await env.store.projects.listProjects({ programId: IDS.program, limit: 10, offset: 0 })).length, 0);

  const real = await apas(args);
  assert.equal(real.code, 1);
  assert.match(real.out, /^line 2 {2}K-1 {2}created {2}project /m);
  assert.equal(real.err, 'Imported 2 rows: 1 created, 0 updated, 0 unchanged, 1 refused.');
  writeFileSync(path.join(env.dir, 'apps.csv'), 'Ref,name,kw\nK-1,Ann,4\n');
  const again = await apas(args);
  assert.equal(again.code, 0, again.err);
  assert.equal(again.err, 'Imported 1 rows: 0 created, 0 updated, 1 unchanged, 0 refused.');
  assert.equal((await env.store.projects.listProjects({ programId: IDS.program, limit: 10, offset: 0 })).length, 1);
});

test('apas import projects: refuses a bad header, a bad file, a missing file and a user who administers nothing', async () => {
  writeFileSync(path.join(env.dir, 'bad.csv'), 'Nope,name\nX,Y\n');
  const header = await apas(['import', 'projects', '--program', 'solar', '--as', ADMIN, 'bad.csv']);
  assert.equal(header.code, 1);
  assert.match(header.err, /line 1, column "Nope": Column "Nope" names no data field/);
  assert.match(header.err, /no row was tried/);
  writeFileSync(path.join(env.dir, 'latin1.csv'), Buffer.from([0x45, 0x78, 0x74, 0x65, 0x72, 0x6e, 0x61, 0x6c, 0x49, 0x64, 0x0a, 0xe9, 0x0a]));
  const encoding = await apas(['import', 'projects', '--program', 'solar', '--as', ADMIN, 'latin1.csv']);
  assert.equal(encoding.code, 1);
  assert.match(encoding.err, /not UTF-8 \(from line 2\); save it as CSV UTF-8/);
  const missing = await apas(['import', 'projects', '--program', 'solar', '--as', ADMIN, 'none.csv']);
  assert.equal(missing.code, 1);
  assert.match(missing.err, /cannot read none.csv: no such file/);
  const applicant = await apas(['import', 'projects', '--program', 'solar', '--as', 'user00000002@example.org', 'bad.csv']);
  assert.equal(applicant.code, 1);
  assert.match(applicant.err, /administration console is for agency admins/);
});
