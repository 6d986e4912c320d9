import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { runApasInProcess } from '../support/run-apas.ts';
import { sampleProgram } from './sample-program.ts';

// `apas grant add --groups`: a grant limited to a program's access groups, refused for a group the program does not
// have (the grant left as it was), listed by `grant list`, and lifted by a grant added again without --groups.

test('apas grant add --groups limits a grant to the program\'s access groups, and grant list shows the limit', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apas-groups-cli-'));
  try {
    const run = (args: string[], stdin = '') => runApasInProcess(args, { cwd: dir, stdin, env: { DATABASE_URL: path.join(dir, 'apas.db') } });
    const groups = [{ customId: 'small', name: 'Small systems', if: 'Size < 10.0' }, { customId: 'large', name: 'Large systems', if: 'Size >= 10.0' }];
    writeFileSync(path.join(dir, 'pv.yaml'), stringify({ ...sampleProgram(), accessGroups: groups }));
    for (const args of [['agency', 'create', '--id', 'city', '--name', 'City'], ['program', 'import', 'pv.yaml', '--agency', 'city']]) {
      const r = await run(args);
      assert.equal(r.code, 0, r.stderr);
      if (args[0] === 'program') assert.match(r.stdout, /created access group small/);
    }
    assert.equal((await run(['user', 'create', '--agency', 'city', '--email', 'rev@city.example', '--name', 'Rev'], 'rev password 123')).code, 0);
    const added = await run(['grant', 'add', '--user', 'rev@city.example', '--program', 'PV', '--role', 'editor', '--groups', 'small']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Granted rev@city.example the role editor in program PV limited to the access groups small\./);
    const refused = await run(['grant', 'add', '--user', 'rev@city.example', '--program', 'PV', '--role', 'editor', '--groups', 'small,west']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /program PV has no access group "west"; its groups are small, large/);
    assert.match((await run(['grant', 'list', '--program', 'PV'])).stdout, /PV {2}rev@city\.example {2}editor {2}groups small\n/);
    assert.equal((await run(['grant', 'add', '--user', 'rev@city.example', '--program', 'PV', '--role', 'editor'])).code, 0);
    assert.match((await run(['grant', 'list', '--program', 'PV'])).stdout, /PV {2}rev@city\.example {2}editor\n/);
    assert.match((await run(['grant', 'add', '--help'])).stdout, /--groups GROUPS/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('apas program import --long-transaction MINUTES: checked, listed in the help, and the import with it recounts as any', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apas-groups-cli-'));
  try {
    const run = (args: string[]) => runApasInProcess(args, { cwd: dir, env: { DATABASE_URL: path.join(dir, 'apas.db') } });
    const groups = [{ customId: 'small', name: 'Small systems', if: 'Size < 10.0' }];
    writeFileSync(path.join(dir, 'pv.yaml'), stringify({ ...sampleProgram(), accessGroups: groups }));
    assert.equal((await run(['agency', 'create', '--id', 'city', '--name', 'City'])).code, 0);
    for (const bad of ['0', '121', 'ten', '0.5', '5m']) {
      const refused = await run(['program', 'import', 'pv.yaml', '--agency', 'city', '--long-transaction', bad]);
      assert.equal(refused.code, 2, bad);
      assert.match(refused.stderr, new RegExp(`--long-transaction must be a number of minutes from 1 to 120, got "${bad}"`));
    }
    assert.equal((await run(['program', 'list', '--agency', 'city'])).stdout.includes('PV'), false, 'a refused import creates nothing');
    const imported = await run(['program', 'import', 'pv.yaml', '--agency', 'city', '--long-transaction', '10']);
    assert.equal(imported.code, 0, imported.stderr);
    writeFileSync(path.join(dir, 'pv.yaml'), stringify({ ...sampleProgram(), accessGroups: [{ ...groups[0], if: 'Size < 5.0' }] }));
    const changed = await run(['program', 'import', 'pv.yaml', '--agency', 'city', '--long-transaction', '2.5']);
    assert.equal(changed.code, 0, changed.stderr);
    assert.match(changed.stdout, /access group small/);
    assert.match((await run(['program', 'import', '--help'])).stdout, /--long-transaction MINUTES/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
