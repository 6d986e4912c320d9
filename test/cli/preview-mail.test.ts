import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { stringify } from 'yaml';
import { runApasInProcess } from '../support/run-apas.ts';
import { sampleProgram } from './sample-program.ts';

// apas program preview-mail: a status's status-changed mail or a named template of a program file, filled in with
// sample values, without a database; problems of the file are reported as an import reports them.

let dir = '';
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'apas-preview-'));
  const program = sampleProgram();
  program.statuses[3] = {
    customId: 'Rejected', name: 'Rejected', reasonRequired: true, reasons: [{ customId: 'Big', name: 'Too big' }],
    mailTemplate: { subject: '{{programName}}: {{projectNumber}} rejected', text: 'Status: {{status}}\nReason: {{reason}}\nNote: {{message}}\n{{link}}\n' },
  };
  writeFileSync(path.join(dir, 'pv.yaml'), stringify({ ...program, mailTemplates: [{ customId: 'Nudge', subject: 'About {{projectNumber}}', text: 'Still {{status}}.' }] }));
  writeFileSync(path.join(dir, 'plain.json'), JSON.stringify(sampleProgram()));
  const bad = sampleProgram();
  bad.statuses[3] = { customId: 'Rejected', name: 'Rejected', mailTemplate: { subject: 'x', text: '{{reasn}}' } };
  writeFileSync(path.join(dir, 'bad.yaml'), stringify(bad));
});
after(() => {
  rmSync(dir, { recursive: true, force: true });
});

// In this process (runApasInProcess): the same exit codes and output as `node bin/apas.js`, without a process each.
const run = (args: string[]) => runApasInProcess(['program', 'preview-mail', ...args], { cwd: dir, env: {} });

test('prints a status\'s own template with sample values, and says which template it used', async () => {
  const r = await run(['pv.yaml', '--status', 'Rejected']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, [
    'Subject: Small PV: PV-00042 rejected', '', 'Status: Rejected', 'Reason: Too big', 'Note: A message from the reviewer, as typed on the review page.',
    'https://apas.example.org/MvcProjects/LandingPage?ProgramId=PV&ProjectId=SAMPLEPROJCT', '',
  ].join('\n'));
  assert.match(r.stderr, /From the mailTemplate of status "Rejected", with sample values:/);
});

test('prints the default wording for a status without a template (by name), and a named template', async () => {
  const byName = await run(['plain.json', '--status', 'In review']);
  assert.equal(byName.code, 0, byName.stderr);
  assert.match(byName.stdout, /^Subject: Small PV: project PV-00042 is now In review\n\nThe status of your project PV-00042 in Small PV changed to "In review"\./);
  assert.match(byName.stderr, /From the default statusChanged wording/);
  const named = await run(['pv.yaml', '--template', 'Nudge']);
  assert.equal(named.code, 0, named.stderr);
  assert.equal(named.stdout, 'Subject: About PV-00042\n\nStill Unsubmitted.\n');
});

test('refuses an unknown status or template, both or neither option, and a file with problems', async () => {
  const status = await run(['pv.yaml', '--status', 'Nope']);
  assert.equal(status.code, 1);
  assert.match(status.stderr, /no status "Nope"; its statuses are Unsubmitted, Review, Approved, Rejected/);
  const template = await run(['pv.yaml', '--template', 'Nope']);
  assert.equal(template.code, 1);
  assert.match(template.stderr, /no mail template "Nope"; its templates are Nudge/);
  for (const args of [['pv.yaml'], ['pv.yaml', '--status', 'Rejected', '--template', 'Nudge']]) {
    const usage = await run(args);
    assert.equal(usage.code, 2, args.join(' '));
    assert.match(usage.stderr, /give either --status or --template/);
  }
  const bad = await run(['bad.yaml', '--status', 'Rejected']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /bad\.yaml is not a valid program \(1 problem\):\n {2}- status "Rejected": mailTemplate\.text \(line \d+, column \d+\): unknown placeholder "\{\{reasn\}\}"/);
});
