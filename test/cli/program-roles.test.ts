import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { AccountService } from '../../src/domain/accounts/account-service.ts';
import type { ApiError } from '../../src/domain/api-error.ts';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { type ImportReport, importProgram } from '../../src/domain/programs/program-import.ts';
import { runApasInProcess } from '../support/run-apas.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// A program file's own roles: imported with the program, exported back unchanged, reported by the import's diff,
// refused with the YAML line of the problem; grants accept them, and an import may not remove one that users hold.

const scope = importScope('roles', 'AR');

const REVIEWER = {
  customId: 'Reviewer', name: 'Plan reviewer', privileges: ['readProjects', 'reviewAttachments', 'moveStatus'],
  transitions: [{ from: 'Review', to: ['Approved'] }],
};

function withRoles(roles: Record<string, unknown>[] = [REVIEWER]) {
  const program = sampleProgram();
  program.forms[1]!.roles = ['applicant', 'Reviewer'];
  return { ...program, roles };
}

function lines(report: ImportReport): string[] {
  return report.changes.map(describeChange);
}

test('roles are imported with the program (transitions by status id), exported, and round-trip with no changes', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(withRoles()));
  assert.ok(lines(first).includes('created role Reviewer'));
  const program = await scope.env.store.programs.findProgram(first.programId);
  const model = await scope.env.store.programs.loadProgramModel(program!);
  const id = (ref: string) => model.statuses.find((s) => s.customId === ref)!.id;
  assert.deepEqual(program?.roles, [{ ...REVIEWER, transitions: [{ from: id('Review'), to: [id('Approved')] }] }]);
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  assert.deepEqual(exported.roles, [REVIEWER]);
  for (const format of ['yaml', 'json'] as const) {
    const text = formatProgramFile(exported, format);
    assert.match(text, /Reviewer/);
    const again = await importProgram(scope.env, scope.agency, parseProgramFile(text, format));
    assert.deepEqual(lines(again), [], `${format}: importing the export changes nothing`);
  }
});

test('the import reports added, changed and removed roles, also in a dry run', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(withRoles()));
  const changed = withRoles([
    { ...REVIEWER, name: 'Senior reviewer', privileges: [...REVIEWER.privileges, 'inquiries'], transitions: [{ from: 'Review', to: ['Approved', 'Rejected'] }] },
    { customId: 'Auditor', name: 'Auditor', privileges: ['readProjects', 'readHistory'] },
  ]);
  const dry = await importProgram(scope.env, scope.agency, validateProgramFile(changed), { dryRun: true });
  assert.deepEqual(lines(dry), ['updated role Reviewer (name, privileges, transitions)', 'created role Auditor']);
  assert.equal((await scope.env.store.programs.findProgram(dry.programId))?.roles?.length, 1, 'a dry run writes nothing');
  await importProgram(scope.env, scope.agency, validateProgramFile(changed));
  const removed = { ...changed, forms: sampleProgram().forms, roles: [changed.roles[1]!] };
  assert.deepEqual(lines(await importProgram(scope.env, scope.agency, validateProgramFile(removed))), ['updated form Finish (roles)', 'removed role Reviewer']);
});

test('an import that removes a role users hold is refused, naming them, and changes nothing', async () => {
  const first = await importProgram(scope.env, scope.agency, validateProgramFile(withRoles()));
  const accounts = new AccountService(scope.env);
  await accounts.createUser({ agency: scope.agency, email: `rev@${scope.agency}.example`, name: 'Rev', password: 'a long password here' });
  const grant = await accounts.grant(`rev@${scope.agency}.example`, 'PV', 'Reviewer');
  assert.equal(grant.role, 'Reviewer');
  const before = await scope.env.store.programs.loadProgramDefinition(first.programId);
  const without = { ...sampleProgram() };
  await assert.rejects(importProgram(scope.env, scope.agency, validateProgramFile(without), { dryRun: true }), (e: ApiError) =>
    e.code === 'INVALID_REQUEST' && /cannot remove role "Reviewer" \(held by rev@roles\d+\.example\)/.test(e.message));
  await assert.rejects(importProgram(scope.env, scope.agency, validateProgramFile(without)), /cannot remove role "Reviewer"/);
  assert.deepEqual(await scope.env.store.programs.loadProgramDefinition(first.programId), before);
  await accounts.grant(`rev@${scope.agency}.example`, 'PV', 'reader');
  assert.deepEqual(lines(await importProgram(scope.env, scope.agency, validateProgramFile(without))), ['updated form Finish (roles)', 'removed role Reviewer']);
});

test('grants accept a program\'s own roles and refuse others with the list of valid roles', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(withRoles()));
  const accounts = new AccountService(scope.env);
  await accounts.createUser({ agency: scope.agency, email: `g@${scope.agency}.example`, name: 'G', password: 'a long password here' });
  assert.equal((await accounts.grant(`g@${scope.agency}.example`, 'PV', 'Reviewer')).role, 'Reviewer');
  await assert.rejects(accounts.grant(`g@${scope.agency}.example`, 'PV', 'reviewer'), (e: ApiError) =>
    e.code === 'INVALID_PARAMETER' && /role must be one of applicant, reader, editor, admin, Reviewer in program PV, got "reviewer"/.test(e.message));
  assert.deepEqual((await accounts.listGrants({ user: `g@${scope.agency}.example` })).map((g) => g.role), ['Reviewer']);
});

test('refusals name the YAML line of each problem', async () => {
  const file = withRoles([
    { customId: 'Reviewer', name: 'Plan reviewer', privileges: ['readProjects', 'approveEverything'], transitions: [{ from: 'Review', to: ['Unsubmitted'] }] },
    { customId: 'editor', name: 'Checker', privileges: ['readProjects'] },
    { customId: 'Mover', name: 'Mover', privileges: ['readProjects'], transitions: [{ from: 'Nowhere', to: ['Approved'] }] },
  ]);
  file.forms[0]!.roles = ['applicant', 'Reviwer'];
  const yaml = stringify(file);
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  assert.deepEqual(problems.sort(), [
    `form "Apply" (${at('- Reviwer', 0, 'Reviwer')}): roles: no role is named "Reviwer"; the roles are applicant, reader, editor, admin, Reviewer, Mover`,
    `role "Mover" (${at('from: Nowhere')}): transitions: no status has the customId or name "Nowhere"`,
    `role "Mover" (${at('customId: Mover')}): transitions limit the privilege moveStatus, which the role does not have`,
    `role "Reviewer" (${at('- approveEverything', 0, 'approveEverything')}): unknown privilege "approveEverything"; the privileges are readProjects, revealSensitive, createProjects, editOwnProjects, editData, overrideForms, changeOwner, assign, reviewAttachments, inquiries, moveStatus, readHistory, readAllData, export, manageWebhooks, manageDeadlines, runAutomations, administerProgram, generateDocuments`,
    `role "Reviewer" (${at('customId: Reviewer')}): transitions limit the privilege moveStatus, which the role does not have`,
    `role "Reviewer" (${at('from: Review')}): transitions: the workflow has no transition from "Review" to "Unsubmitted" (add it to the status's next, or leave it out here)`,
    `role "editor" (${at('customId: editor')}): the customId "editor" is the name of a built-in role; choose another`,
  ].sort());
});

test('apas grant add takes a program\'s own role, refuses an unknown one with the list, and grant list shows it', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'apas-roles-cli-'));
  try {
    const run = (args: string[], stdin = '') => runApasInProcess(args, { cwd: dir, stdin, env: { DATABASE_URL: path.join(dir, 'apas.db') } });
    writeFileSync(path.join(dir, 'pv.yaml'), stringify(withRoles()));
    for (const args of [['agency', 'create', '--id', 'city', '--name', 'City'], ['program', 'import', 'pv.yaml', '--agency', 'city']]) {
      const r = await run(args);
      assert.equal(r.code, 0, r.stderr);
    }
    assert.equal((await run(['user', 'create', '--agency', 'city', '--email', 'rev@city.example', '--name', 'Rev'], 'rev password 123')).code, 0);
    const refused = await run(['grant', 'add', '--user', 'rev@city.example', '--program', 'PV', '--role', 'Approver']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /role must be one of applicant, reader, editor, admin, Reviewer in program PV, got "Approver"/);
    const added = await run(['grant', 'add', '--user', 'rev@city.example', '--program', 'PV', '--role', 'Reviewer']);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Granted rev@city.example the role Reviewer in program PV/);
    assert.match((await run(['grant', 'list', '--program', 'PV'])).stdout, /PV {2}rev@city\.example {2}Reviewer/);
    assert.match((await run(['grant', 'add', '--help'])).stdout, /reviewAttachments: approve or reject files/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
