import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { DEMO_CLAIM_PROGRAM, DEMO_CREDENTIALS, formatDemoCredentials, seedDemo } from '../../src/domain/programs/demo.ts';
import { parseApiKey, verifySecret } from '../../src/domain/accounts/secrets.ts';
import { spyOnSaves, type TestEnv, testEnv } from './test-store.ts';

let env: TestEnv;

before(async () => {
  env = await testEnv();
});
after(async () => {
  await env.cleanup();
});

test('every demo API key is shaped like a real key', () => {
  for (const c of DEMO_CREDENTIALS) assert.ok(parseApiKey(c.apiKey), `${c.apiKey} must match the key pattern`);
});

test('seeding twice creates the demo once and then changes nothing', async () => {
  const first = await seedDemo(env);
  assert.equal(first.created, true);
  assert.ok(first.actions.includes('created agency demo'));
  assert.ok(first.actions.includes('created program RES-SOLAR'));
  // The claims first: the interconnection program's relation IncentiveClaim names them.
  assert.ok(first.actions.indexOf('created program INCENTIVE-CLAIM') < first.actions.indexOf('created program RES-SOLAR'));

  const spy = spyOnSaves(env.store);
  const auditsBefore = (await env.store.audit.list({ limit: 10000 })).length;
  const second = await seedDemo({ ...env, store: spy.store });
  assert.deepEqual(second, { created: false, actions: [], programId: first.programId });
  assert.equal(spy.saves(), 0);
  assert.equal((await env.store.audit.list({ limit: 10000 })).length, auditsBefore);
});

test('the demo accounts sign in with their documented credentials', async () => {
  const program = await env.store.programs.findProgram('RES-SOLAR', (await env.store.accounts.findAgency('demo'))!.id);
  const claims = await env.store.programs.findProgram(DEMO_CLAIM_PROGRAM, (await env.store.accounts.findAgency('demo'))!.id);
  assert.ok(program && claims);
  for (const c of DEMO_CREDENTIALS) {
    const user = await env.store.accounts.findUserByEmail(c.email);
    assert.ok(user, c.email);
    assert.equal(user.agencyAdmin, c.agencyAdmin);
    assert.equal(await verifySecret(user.passwordHash, c.password), true, `${c.email} password`);
    const parts = parseApiKey(c.apiKey)!;
    const key = await env.store.accounts.findApiKey(parts.id);
    assert.equal(key?.userId, user.id);
    assert.equal(await verifySecret(key!.secretHash, parts.secret), true, `${c.email} API key`);
    const grant = await env.store.accounts.findGrant(user.id, program.id);
    assert.equal(grant?.role ?? null, c.grant);
    assert.deepEqual(grant?.accessGroups ?? null, c.groups ?? null, `${c.email} access groups`);
    assert.equal((await env.store.accounts.findGrant(user.id, claims.id))?.role ?? null, c.claimGrant ?? null, `${c.email} in ${DEMO_CLAIM_PROGRAM}`);
  }
  // Two reviewers of one territory each (docs/programs.md, "Access groups").
  assert.deepEqual(DEMO_CREDENTIALS.filter((c) => c.groups).map((c) => [c.email, c.grant, c.groups]), [
    ['north@demo.apas.local', 'editor', ['north']], ['south@demo.apas.local', 'editor', ['south']],
  ]);
  assert.match(formatDemoCredentials(), /north reviewer +north@demo\.apas\.local .*demo-north-password/);
  assert.match(formatDemoCredentials(), /applicant@demo\.apas\.local .*demo-applicant-password/);
});

test('the demo program has the documented workflow and forms', async () => {
  const program = (await env.store.programs.findProgram('RES-SOLAR', (await env.store.accounts.findAgency('demo'))!.id))!;
  const model = await env.store.programs.loadProgramModel(program);
  assert.equal(program.numberPrefix, 'SOLAR');
  assert.deepEqual(model.statuses.map((s) => s.name), [
    'Unsubmitted', 'Application Review', 'Engineering Review', 'Approved for Installation', 'Application Rejected', 'Withdrawn', 'Inspection Pending', 'Permission to Operate',
  ]);
  // Its automations (docs/programs.md, "Automations"): engineering review above 10 kW AC, the question and inspection
  // deadlines and what their passing does, a mail on applicants' answers, and the daily reminder of old drafts.
  assert.deepEqual(program.automations?.map((a) => [a.customId, a.when.trigger]), [
    ['EngineeringReviewAbove10kW', 'form.submitted'], ['QuestionAsked', 'inquiry.note_added'], ['AnswerReminder', 'deadline.passed'],
    ['WithdrawUnanswered', 'deadline.passed'], ['InspectionStarts', 'status.entered'], ['InspectionDone', 'status.left'],
    ['ApplicantAnswered', 'inquiry.note_added'], ['InspectionScheduled', 'deadline.started'], ['InspectionOnTime', 'deadline.satisfied'],
    ['ResizedAbove10kW', 'field.changed'], ['IncentiveClaimAtPto', 'status.entered'], ['ApplicationStarted', 'project.created'], ['CertificateRejected', 'attachment.reviewed'],
    ['CertificateReplaced', 'attachment.uploaded'], ['ApprovedDocuments', 'status.entered'], ['AgreementSigned', 'envelope.completed'],
    ['DraftReminderDaily', 'schedule'],
  ]);
  // Its documents ("Documents and signatures"): the approval letter, and the agreement the owner then a plan reviewer sign.
  assert.deepEqual(model.program.documents?.map((d) => [d.customId, d.visibleToApplicant, d.signers.map((s) => s.kind === 'role' ? s.role : s.kind), d.order]), [
    ['ApprovalLetter', true, [], 'sequential'], ['InterconnectionAgreement', true, ['owner', 'Reviewer'], 'sequential'],
  ]);
  const letter = model.forms[0]!.attachments.find((a) => a.customId === 'ApprovalLetter');
  assert.equal(letter?.allowedTypes[0], 'application/pdf');
  assert.deepEqual(model.forms.map((f) => f.name), ['Interconnection Application', 'Completion Certificate', 'Review Checklist']);
  assert.ok(model.fields.some((f) => f.multiValue) && model.fields.some((f) => f.sensitive));
  assert.deepEqual([...new Set(model.fields.map((f) => f.type))].sort(), ['boolean', 'choice', 'date', 'integer', 'number', 'table', 'text']);
  // Every rule kind of docs/programs.md is used: calculated fields, and visibleIf, requiredIf, readOnlyIf and validations.
  assert.ok(model.fields.some((f) => f.formula));
  const rules = model.forms.flatMap((f) => f.fields.map((ff) => ff.rules).filter((r) => r !== null && r !== undefined));
  for (const kind of ['visibleIf', 'requiredIf', 'readOnlyIf'] as const) assert.ok(rules.some((r) => r[kind] !== null), kind);
  assert.ok(rules.some((r) => r.validations.length > 0));
  // Its incentive claims (a child relation) and its territories (access groups over the calculated field Territory).
  assert.deepEqual(model.program.relations?.map((r) => [r.customId, r.kind]), [['IncentiveClaim', 'child']]);
  assert.deepEqual(model.program.accessGroups?.map((g) => [g.customId, g.if]), [['north', 'Territory == "North"'], ['south', 'Territory == "South"']]);
  const sitePlan = model.forms[0]!.attachments.find((a) => a.customId === 'SitePlan');
  assert.deepEqual([sitePlan?.required, sitePlan?.allowedTypes], [true, ['application/pdf']]);
});
