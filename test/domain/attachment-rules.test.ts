import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { attachmentProblems, cleanFileName, findDefinition, mediaTypeOf, typeAllowed } from '../../src/domain/projects/attachment-rules.ts';
import type { ProgramModel } from '../../src/model/model.ts';
import { IDS, programRows } from '../support/fixtures.ts';

function model(): ProgramModel {
  const rows = programRows();
  const form = rows.forms[0]!;
  const second = { ...form, id: 'FORM00000002', customId: 'completion', name: 'Completion', attachments: [{ ...form.attachments[0]!, id: 'ATTACH000009', formId: 'FORM00000002' }] };
  return { program: rows.program, statuses: rows.statuses, fields: rows.fields, lists: rows.lists, forms: [form, second], retired: { statuses: [], fields: [] } };
}

test('mediaTypeOf: the lower-cased type without parameters, or null for anything that is not one', () => {
  assert.equal(mediaTypeOf('application/pdf'), 'application/pdf');
  assert.equal(mediaTypeOf(' Text/CSV ; charset=utf-8'), 'text/csv');
  assert.equal(mediaTypeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document'), 'application/vnd.openxmlformats-officedocument.wordprocessingml.document');
  for (const bad of [null, '', 'pdf', 'application/', '/pdf', 'a/b/c', 'text/c sv', 'text/"csv"']) assert.equal(mediaTypeOf(bad), null, String(bad));
});

test('typeAllowed: exact types (any case) and type/* wildcards', () => {
  assert.equal(typeAllowed('application/pdf', ['application/pdf']), true);
  assert.equal(typeAllowed('application/pdf', ['Application/PDF']), true);
  assert.equal(typeAllowed('image/png', ['image/*']), true);
  assert.equal(typeAllowed('image/png', ['application/pdf', 'image/jpeg']), false);
  assert.equal(typeAllowed('imagex/png', ['image/*']), false);
  assert.equal(typeAllowed('application/octet-stream', ['application/octet-stream']), true);
});

test('cleanFileName: last path segment, no controls or bidi overrides, trimmed, at most 255 characters, else "attachment"', () => {
  assert.equal(cleanFileName('site plan.pdf'), 'site plan.pdf');
  assert.equal(cleanFileName('C:\\Users\\pat\\plan.pdf'), 'plan.pdf');
  assert.equal(cleanFileName('/etc/../passwd'), 'passwd');
  assert.equal(cleanFileName('  a\u0000b\u0007c\u009f\u202ed.pdf  '), 'abcd.pdf');
  assert.equal(cleanFileName('\ud83d\ude00 emoji \ud800.pdf'), '\ud83d\ude00 emoji .pdf', 'a lone surrogate goes, a pair stays');
  for (const empty of [null, '', '   ', '.', '..', 'dir/', '\u0001']) assert.equal(cleanFileName(empty), 'attachment', String(empty));
  const long = cleanFileName(`${'x'.repeat(400)}.pdf`);
  assert.equal(long.length, 255);
  assert.ok(long.endsWith('x.pdf'));
  assert.equal([...cleanFileName('\ud83d\ude00'.repeat(300))].length, 255, 'counted in characters, never splitting a pair');
  assert.equal(cleanFileName(`${'y'.repeat(255)}`), 'y'.repeat(255));
});

test('findDefinition: by generated id, by custom id when only one form has it, else INVALID_PARAMETER; unknown is NOT_FOUND', () => {
  const m = model();
  assert.equal(findDefinition(m, IDS.photo).definition.id, IDS.photo);
  assert.equal(findDefinition(m, 'ATTACH000009').form.id, 'FORM00000002');
  assert.throws(() => findDefinition(m, 'photo'), (e: unknown) => e instanceof ApiError && e.code === 'INVALID_PARAMETER' && e.message.includes(IDS.photo));
  assert.throws(() => findDefinition(m, 'nothing'), (e: unknown) => e instanceof ApiError && e.code === 'NOT_FOUND');
  const single = { ...m, forms: [m.forms[0]!] };
  assert.equal(findDefinition(single, 'photo').definition.id, IDS.photo);
});

test('attachmentProblems: one ATTACHMENT_REQUIRED per required definition without a file', () => {
  const form = { ...model().forms[0]! };
  assert.deepEqual(attachmentProblems(form, new Set()), [], 'the fixture photo is optional');
  form.attachments = form.attachments.map((a) => ({ ...a, required: true }));
  assert.deepEqual(attachmentProblems(form, new Set()), [
    { dataFieldId: IDS.photo, customId: 'photo', name: 'Site photo', code: 'ATTACHMENT_REQUIRED', message: 'Site photo must be uploaded.' },
  ]);
  assert.deepEqual(attachmentProblems(form, new Set([IDS.photo])), []);
});
