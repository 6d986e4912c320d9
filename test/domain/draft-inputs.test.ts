import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { draftInputs, shownKey } from '../../src/domain/projects/draft-inputs.ts';
import { MASK } from '../../src/domain/projects/value-check.ts';
import type { DataField, Form, ProgramModel } from '../../src/model/model.ts';

// How a form page's post becomes SetProjectData inputs: the web's spelling of values (lines, checkboxes, the mask),
// never a rule of its own; the values are then checked by the API's resolveInputs.

function field(id: string, over: Partial<DataField>): DataField {
  return { id, customId: id.toLowerCase(), name: id, type: 'text', multiValue: false, sensitive: false, listId: null, group: null, maxLength: null, min: null, max: null, position: 0, ...over };
}

const FIELDS = [
  field('NAME', {}), field('SECRET', { sensitive: true }), field('SERIALS', { multiValue: true }), field('PINS', { multiValue: true, sensitive: true }),
  field('SIZES', { type: 'choice', multiValue: true, listId: 'L' }), field('KW', { type: 'number' }), field('OFFFORM', {}),
];
const FORM: Form = {
  id: 'F', customId: 'f', name: 'Form', leadsToStatusId: null, position: 0, availableIn: [], attachments: [], roles: null,
  fields: FIELDS.filter((f) => f.id !== 'OFFFORM').map((f, i) => ({ fieldId: f.id, required: false, position: i })),
};
const MODEL = {
  program: {} as ProgramModel['program'], statuses: [], forms: [FORM], fields: FIELDS, lists: [{ id: 'L', customId: null, name: 'L', choices: [] }],
  retired: { statuses: [], fields: [] },
} as ProgramModel;

describe('draftInputs', () => {
  it('writes only controls that differ from what the page showed (their shownKey controls), in the spelling they are saved in', () => {
    const shown = { [shownKey('NAME')]: 'IQ8PLUS', [shownKey('KW')]: '7.5', [shownKey('SERIALS')]: ['A1', 'B2'], [shownKey('SIZES')]: ['S'], [shownKey('SECRET')]: '' };
    // As shown (the multi-value text joined by lines, a checkbox list with its empty marker): nothing to write.
    assert.deepEqual(draftInputs(MODEL, FORM, { ...shown, NAME: 'IQ8PLUS', KW: ' 7.5 ', SERIALS: 'A1\r\nB2\n', SIZES: ['', 'S'], SECRET: '' }), []);
    // Changed, cleared, or typed into a field shown empty: written; a control without a shown value is written as before.
    assert.deepEqual(draftInputs(MODEL, FORM, { ...shown, NAME: '', KW: '8', SERIALS: 'A1\nB2', SIZES: ['', 'S', 'M'], SECRET: 'x', PINS: '' }), [
      { dataFieldId: 'NAME', value: null, values: null }, { dataFieldId: 'SECRET', value: 'x', values: null },
      { dataFieldId: 'PINS', value: null, values: null }, { dataFieldId: 'SIZES', value: null, values: ['S', 'M'] }, { dataFieldId: 'KW', value: '8', values: null },
    ]);
  });

  it('leaves out what was not sent and fields of other forms; keeps text as typed and trims other types; blank clears', () => {
    assert.deepEqual(draftInputs(MODEL, FORM, { NAME: '  Jo  ', KW: ' 7.5 ', OFFFORM: 'x', _csrf: 't', action: 'save' }), [
      { dataFieldId: 'NAME', value: '  Jo  ', values: null }, { dataFieldId: 'KW', value: '7.5', values: null },
    ]);
    assert.deepEqual(draftInputs(MODEL, FORM, { NAME: '   ', KW: '' }), [
      { dataFieldId: 'NAME', value: null, values: null }, { dataFieldId: 'KW', value: null, values: null },
    ]);
  });

  it('reads multi-value text one value per line (blank lines dropped) and checkboxes one value each (the empty marker dropped)', () => {
    assert.deepEqual(draftInputs(MODEL, FORM, { SERIALS: 'A1\r\n\r\n  B2 \nC3\n', SIZES: ['', 'S', 'M'] }), [
      { dataFieldId: 'SERIALS', value: null, values: ['A1', 'B2', 'C3'] }, { dataFieldId: 'SIZES', value: null, values: ['S', 'M'] },
    ]);
    assert.deepEqual(draftInputs(MODEL, FORM, { SERIALS: '\n', SIZES: '' }), [
      { dataFieldId: 'SERIALS', value: null, values: null }, { dataFieldId: 'SIZES', value: null, values: null },
    ]);
  });

  it('keeps a sensitive value whose mask was sent back, and takes a new one', () => {
    assert.deepEqual(draftInputs(MODEL, FORM, { SECRET: MASK, PINS: `${MASK}\n${MASK}` }), []);
    assert.deepEqual(draftInputs(MODEL, FORM, { SECRET: 'new', PINS: '5678\n1234' }), [
      { dataFieldId: 'SECRET', value: 'new', values: null }, { dataFieldId: 'PINS', value: null, values: ['5678', '1234'] },
    ]);
    // Masked values beside new ones cannot be told apart from a value typed as the mask: refused beside the field.
    assert.throws(() => draftInputs(MODEL, FORM, { PINS: `${MASK}\n1234` }),
      (e) => e instanceof ApiError && e.code === 'VALIDATION_FAILED' && e.fields[0]?.dataFieldId === 'PINS' && e.fields[0].code === 'MASKED_VALUE');
    assert.deepEqual(draftInputs(MODEL, FORM, { NAME: MASK }), [{ dataFieldId: 'NAME', value: MASK, values: null }], 'only sensitive fields know the mask');
  });

  it('refuses a single-value field sent twice', () => {
    assert.throws(() => draftInputs(MODEL, FORM, { NAME: ['a', 'b'] }), (e) => e instanceof ApiError && e.code === 'INVALID_PARAMETER');
  });
});
