import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { runCli } from '../../src/cli/main.ts';
import type { CliIo } from '../../src/cli/cli-context.ts';
import { validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { seedProgram } from '../support/fixtures.ts';
import { sampleProgram } from './sample-program.ts';
import { type TestEnv, testEnv } from './test-store.ts';

// `apas list load`: a list of `rows: csv` loaded from a file, its dry run listing problems by line.

let env: TestEnv;

before(async () => {
  env = await testEnv();
  await seedProgram(env.store);
  const program = sampleProgram();
  program.customLists.push({ customId: 'Modules', name: 'Approved modules', rows: 'csv', key: 'Model', columns: [{ name: 'Model' }, { name: 'Watts', type: 'integer' }] });
  program.fields.push({ customId: 'Module', name: 'Module', type: 'choice', list: 'Modules' });
  await importProgram(env, 'acme', validateProgramFile(program));
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

const rows = async () => (await env.store.programs.loadProgramModel((await env.store.programs.findProgram('PV'))!)).lists.find((l) => l.customId === 'Modules')!.choices.map((c) => c.value);

test('apas list load: a dry run lists the problems by line and loads nothing; a good file replaces the rows', async () => {
  writeFileSync(path.join(env.dir, 'bad.csv'), 'Model,Watts\nM-400,400\nM-410,four hundred ten\n,420\n');
  const dry = await apas(['list', 'load', '--program', 'PV', '--list', 'Modules', '--dry-run', 'bad.csv']);
  assert.equal(dry.code, 1, dry.err);
  assert.equal(dry.out, [
    'The CSV file for list Modules has 2 problems; nothing was loaded:',
    '  line 3: Watts must be a whole number; got "four hundred ten"',
    '  line 4: Model is empty (the key of each row must be filled in)',
  ].join('\n'));
  const refused = await apas(['list', 'load', '--program', 'PV', '--list', 'Modules', 'bad.csv']);
  assert.equal(refused.code, 1);
  assert.match(refused.err, /line 3: Watts must be a whole number/);
  assert.deepEqual(await rows(), []);

  writeFileSync(path.join(env.dir, 'good.csv'), 'Model,Watts,Extra\nM-400,400,x\nM-410,410,y\n');
  const checked = await apas(['list', 'load', '--program', 'PV', '--list', 'Modules', '--dry-run', 'good.csv']);
  assert.equal(checked.code, 0, checked.err);
  assert.equal(checked.out, 'Dry run: list Modules of program PV would hold 2 rows (now 0).\nColumns the program does not declare were ignored: Extra.');
  assert.deepEqual(await rows(), []);
  const loaded = await apas(['list', 'load', '--program', 'PV', '--list', 'Modules', 'good.csv']);
  assert.equal(loaded.code, 0, loaded.err);
  assert.match(loaded.out, /^Loaded 2 rows into list Modules of program PV \(it held 0\)\./);
  assert.deepEqual(await rows(), ['M-400', 'M-410']);

  const makes = await apas(['list', 'load', '--program', 'PV', '--list', 'Makes', 'good.csv']);
  assert.equal(makes.code, 1);
  assert.match(makes.err, /has its choices in the program file/);
});

test('a list of rows: csv needs its key among its columns and a customId, and takes no choices nor multi-value fields', async () => {
  const program = sampleProgram();
  program.customLists.push({ name: 'Batteries', rows: 'csv', key: 'Model', label: 'Title', columns: [{ name: 'Sku' }, { name: 'Sku' }], choices: ['x'] });
  program.fields.push({ customId: 'Packs', name: 'Packs', type: 'choice', list: 'Batteries', multiValue: true });
  await assert.rejects(importProgram(env, 'acme', validateProgramFile(program)), (e: Error) => {
    for (const wanted of [
      /custom list "Batteries": a list of "rows: csv" takes its choices from the CSV file, not from "choices"/,
      /custom list "Batteries": a list of "rows: csv" needs a customId, which loading its rows names/,
      /custom list "Batteries": the column "Sku" appears twice/,
      /custom list "Batteries": "Model" is not one of its columns/,
      /custom list "Batteries": "Title" is not one of its columns/,
      /field "Packs": a field choosing from a list of "rows: csv" takes one value/,
    ]) assert.match(e.message, wanted);
    return true;
  });
});
