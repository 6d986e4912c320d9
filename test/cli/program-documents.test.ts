import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { describeChange } from '../../src/domain/programs/program-changes.ts';
import { exportProgram, formatProgramFile } from '../../src/domain/programs/program-export.ts';
import { parseProgramFile, validateProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { sampleProgram } from './sample-program.ts';
import { importScope, placeOf, refusedImport } from './import-scope.ts';

// A program file's document templates (`documents:`): stored with the program and an attachment definition on their
// form, exported back unchanged, reported by the import's diff, and refused with the line and column of each problem,
// Liquid's inside a template's text included.

const scope = importScope('documents', 'DO');

const LETTER = {
  customId: 'ApprovalLetter', name: 'Approval letter', title: 'Approval of your application', form: 'Apply', visibleToApplicant: true,
  footer: 'Page {{ page }} of {{ pages }}',
  body: '# Approval\n\nDear {{ fields.Customer }},\n\nProject {{ project.number }} is approved on {{ today | date: "%B %-d, %Y" }}.\n',
};
const AGREEMENT = {
  customId: 'Agreement', name: 'Interconnection agreement', title: 'Interconnection agreement', language: 'en-US', form: 'Finish',
  body: 'Between {{ program.name }} and {{ owner.name }}: account {{ fields.Account }}.\n', sensitiveFields: ['Account'],
  signers: [{ customId: 'Customer', name: 'Customer', owner: true }, { customId: 'Agency', name: 'Plan reviewer', role: 'editor' }],
  order: 'parallel', disclosure: 'You agree to sign electronically.',
};

function withDocuments(...documents: Record<string, unknown>[]) {
  return { ...sampleProgram(), documents };
}

test('documents are stored with an attachment on their form, exported back, and a second import changes nothing', async () => {
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withDocuments(LETTER, AGREEMENT)));
  const lines = report.changes.map(describeChange);
  assert.ok(lines.includes('created document ApprovalLetter'), lines.join('\n'));
  assert.ok(lines.includes('created attachment Apply/ApprovalLetter'), lines.join('\n'));
  const program = (await scope.env.store.programs.listPrograms(report.agencyId))[0]!;
  const model = await scope.env.store.programs.loadProgramModel(program);
  const apply = model.forms.find((f) => f.customId === 'Apply')!;
  assert.deepEqual(apply.attachments.map((a) => [a.customId, a.allowedTypes, a.document ?? null]), [
    ['SitePlan', ['application/pdf'], null], ['ApprovalLetter', ['application/pdf'], 'ApprovalLetter'],
  ]);
  const [letter, agreement] = model.program.documents!;
  assert.equal(letter!.attachmentId, apply.attachments[1]!.id);
  assert.equal(letter!.language, 'en');
  assert.equal(letter!.order, 'sequential');
  assert.match(letter!.version, /^[0-9a-f]{12}$/);
  const account = model.fields.find((f) => f.customId === 'Account')!;
  assert.deepEqual(agreement!.sensitiveFields, [account.id]);
  assert.deepEqual(agreement!.signers, [
    { customId: 'Customer', name: 'Customer', kind: 'owner' }, { customId: 'Agency', name: 'Plan reviewer', kind: 'role', role: 'editor' },
  ]);
  const exported = await exportProgram(scope.env.store, scope.agency, 'PV');
  // The documents' attachments come from `documents:`, so the forms do not list them.
  assert.deepEqual(exported.forms[0]!.attachments.map((a) => a.customId), ['SitePlan']);
  const text = formatProgramFile(exported, 'yaml');
  assert.match(text, /documents:\n {2}- customId: ApprovalLetter\n/);
  const again = await importProgram(scope.env, scope.agency, parseProgramFile(text));
  assert.deepEqual(again.changes, []);
  const json = await importProgram(scope.env, scope.agency, parseProgramFile(formatProgramFile(exported, 'json'), 'json'));
  assert.deepEqual(json.changes, []);
});

test('the import diff names what changed in a document, and a changed body gives a new version', async () => {
  await importProgram(scope.env, scope.agency, validateProgramFile(withDocuments(LETTER)));
  const before = (await exportProgram(scope.env.store, scope.agency, 'PV')).documents;
  const report = await importProgram(scope.env, scope.agency, validateProgramFile(withDocuments({ ...LETTER, body: 'Approved.' }, AGREEMENT)));
  assert.deepEqual(report.changes.map(describeChange).filter((l) => l.includes('document')), ['updated document ApprovalLetter (body)', 'created document Agreement']);
  const program = (await scope.env.store.programs.listPrograms(report.agencyId))[0]!;
  const versions = (await scope.env.store.programs.loadProgramModel(program)).program.documents!.map((d) => d.version);
  assert.equal(before!.length, 1);
  assert.notEqual(versions[0], (await versionOf(LETTER)));
  const removed = await importProgram(scope.env, scope.agency, validateProgramFile(withDocuments()), { dryRun: true });
  assert.deepEqual(removed.changes.map(describeChange), ['retired attachment Apply/ApprovalLetter', 'retired attachment Finish/Agreement', 'removed document ApprovalLetter', 'removed document Agreement']);
});

// The version of a template as a fresh import stores it.
async function versionOf(document: Record<string, unknown>): Promise<string> {
  const report = await importProgram(scope.env, `${scope.agency}`, validateProgramFile({ ...withDocuments(document), customId: 'PV2' }));
  const program = (await scope.env.store.programs.listPrograms(report.agencyId)).find((p) => p.customId === 'PV2')!;
  return (await scope.env.store.programs.loadProgramModel(program)).program.documents![0]!.version;
}

test('unknown variables and tags are refused at their line and column in the body and header', async () => {
  const yaml = stringify(withDocuments({
    ...LETTER,
    body: '# Approval\n\nDear {{ fields.Nobody }},\n\n{{ project.number }} {{ today }} {{ fields.Size | round }}\n',
  }, {
    ...LETTER, customId: 'Second', name: 'Second letter',
    header: 'Ref {{ project.numbr }}',
    body: 'Account {{ fields.Account }} {% frobnicate %}\n',
  }));
  const at = placeOf(yaml);
  const problems = await refusedImport(scope, yaml);
  // A text Liquid cannot parse reports that one problem; one it parses, each unknown variable.
  assert.deepEqual(problems, [
    `document "ApprovalLetter" (${at('Dear {{', 0, 'fields.Nobody')}): body: unknown variable "fields.Nobody": no field has the customId "Nobody"`,
    `document "Second" (${at('Account {{', 0, '{% frobnicate')}): body: unknown tag "frobnicate"`,
    `document "Second" (${at('Ref {{', 0, 'project.numbr')}): header: unknown variable "project.numbr": a project has project.number, project.status, project.statusDate, project.reason, project.message, project.createdDate, project.submittedDate`,
  ]);
});

test('each of an unknown filter, an include tag and an unlisted sensitive field is placed where the body writes it', async () => {
  const cases: [string, string, string][] = [
    ['Hello {{ project.number | shout }}\n', 'shout', 'unknown filter "shout"'],
    ['Hello\n  {% include "letterhead" %}\n', '{% include', 'unknown tag "include": a document template is one text and reads no other'],
    ['Hello {% render "x" %}\n', '{% render', 'unknown tag "render": a document template is one text and reads no other'],
    ['Account:\n{{ fields.Account }}\n', 'fields.Account', '"fields.Account": field "Account" is sensitive; list it under sensitiveFields to show it'],
    ['Hi {{ deadlines.Nope }}\n', 'deadlines.Nope', 'unknown variable "deadlines.Nope": no deadline has the customId "Nope"'],
    ['Hi {{ page }}\n', 'page', 'unknown variable "page": page numbers are for a header or footer'],
    ['Hi {{ fields.Customer\n', '{{ fields', 'output "{{ fields.Customer\\n" not closed'],
  ];
  for (const [body, needle, message] of cases) {
    const yaml = stringify(withDocuments({ ...LETTER, footer: undefined, body }));
    const at = placeOf(yaml);
    const problems = await refusedImport(scope, yaml);
    const line = body.split('\n').find((l) => l.includes(needle))!;
    assert.deepEqual(problems, [`document "ApprovalLetter" (${at(line.trim(), 0, needle)}): body: ${message}`], body);
  }
});

test('a document naming an unknown form, role or field, a signer named twice over and a clashing attachment are refused', async () => {
  const file = withDocuments({
    ...LETTER, form: 'Nowhere', sensitiveFields: ['Customer'],
    signers: [
      { customId: 'S1', name: 'A', owner: true, role: 'editor' }, { customId: 'S2', name: 'B', role: 'mayor' },
      { customId: 'S3', name: 'C', emailField: 'Size' }, { customId: 'S1', name: 'D', nameField: 'Customer', owner: true },
    ],
  }, { ...AGREEMENT, customId: 'SitePlan', name: 'Plan', form: 'Apply', logo: 'bm90IGEgcG5n' });
  const text = stringify(file);
  const at = placeOf(text);
  const problems = await refusedImport(scope, text);
  assert.deepEqual(problems, [
    `document "ApprovalLetter" (${at('form: Nowhere', 0, 'Nowhere')}): form: no form has the customId or name "Nowhere"`,
    `document "ApprovalLetter" (${at('- customId: S1', 0, 'customId')}): a signer is named by exactly one of owner: true, emailField or role (found 2)`,
    `document "ApprovalLetter" (${at('role: mayor', 0, 'mayor')}): no role has the customId "mayor"`,
    `document "ApprovalLetter" (${at('emailField: Size', 0, 'Size')}): emailField "Size" must be a text field with one value that people fill in`,
    `document "ApprovalLetter" (${at('- customId: S1', 1, 'S1')}): another signer of the document has the customId "S1"`,
    `document "ApprovalLetter" (${at('nameField: Customer', 0, 'Customer')}): nameField goes with emailField`,
    `document "ApprovalLetter" (${at('- Customer', 0, 'Customer')}): field "Customer" is not sensitive; only sensitive fields are listed here`,
    `document "SitePlan" (${at('customId: SitePlan', 1, 'SitePlan')}): form "Apply" already has an attachment with the customId "SitePlan", which the document's files would use`,
    `document "SitePlan" (${at('logo:', 0, 'bm90')}): logo is not a PNG image`,
  ]);
});
