import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { draftInputs, shownKey } from '../../src/domain/projects/draft-inputs.ts';
import { tableCellKey, tableCountKey } from '../../src/domain/projects/table-inputs.ts';
import { encodeRows, resolveTableInput, tableCells, tableProblems, tableRows } from '../../src/domain/projects/table-values.ts';
import type { DataField, Form, ProgramModel } from '../../src/model/model.ts';

// The stored text of a table value, the checks of its cells, and how a form page's post becomes a table input
// (docs/programs.md and docs/web.md, "Table fields").

const TABLE: DataField = {
  id: 'INV', customId: 'Inverters', name: 'Inverters', type: 'table', multiValue: false, sensitive: false, listId: null, group: null,
  maxLength: null, min: null, max: null, position: 0,
  table: {
    minRows: 1, maxRows: 3,
    columns: [
      { customId: 'Make', name: 'Manufacturer', type: 'choice', listId: 'L', required: true, maxLength: null, min: null, max: null },
      { customId: 'Model', name: 'Model', type: 'text', listId: null, required: false, maxLength: 5, min: null, max: null },
      { customId: 'Qty', name: 'Quantity', type: 'integer', listId: null, required: true, maxLength: null, min: 1, max: null },
    ],
  },
};
const FORM: Form = {
  id: 'F', customId: 'f', name: 'Form', leadsToStatusId: null, position: 0, availableIn: [], attachments: [], roles: null,
  fields: [{ fieldId: 'INV', required: false, position: 0 }],
};
const MODEL = {
  program: {} as ProgramModel['program'], statuses: [], forms: [FORM], fields: [TABLE],
  lists: [{ id: 'L', customId: null, name: 'L', choices: [{ value: 'SMA', label: 'SMA' }] }], retired: { statuses: [], fields: [] },
} as ProgramModel;

describe('table values', () => {
  it('store rows as JSON in column order without empty cells; read back only current columns and text cells', () => {
    assert.equal(encodeRows(TABLE, [{ Qty: '2', Make: 'SMA', Model: '' }, {}]), '[{"Make":"SMA","Qty":"2"},{}]');
    assert.equal(encodeRows(TABLE, []), null);
    assert.deepEqual(tableRows(TABLE, '[{"Qty":"2","Gone":"x","Make":7},{}]'), [{ Qty: '2' }, {}]);
    assert.deepEqual(tableRows(TABLE, 'not rows'), [], 'a value of another type reads as no rows');
    assert.deepEqual(tableCells(TABLE, '[{"Make":"SMA"},{"Qty":"3"}]'), [{ row: 0, column: 'Make', value: 'SMA' }, { row: 1, column: 'Qty', value: '3' }]);
  });

  it('check what is filled on a draft save, and required columns and minRows on submission', () => {
    const codes = (input: Parameters<typeof resolveTableInput>[2]) => resolveTableInput(MODEL, TABLE, input).problems.map((p) => [p.code, p.row, p.column]);
    assert.deepEqual(codes([[{ column: 'Model', value: 'x' }]]), [], 'a draft may leave required columns empty');
    assert.deepEqual(codes([[{ column: 'Make', value: 'ABB' }, { column: 'Model', value: 'toolong' }, { column: 'Qty', value: '0' }, { column: 'Qty', value: '1' }]]), [
      ['NOT_IN_LIST', 1, 'Make'], ['TOO_LONG', 1, 'Model'], ['OUT_OF_RANGE', 1, 'Qty'], ['DUPLICATE_COLUMN', 1, 'Qty'],
    ]);
    assert.deepEqual(codes([[], [], [], []]), [['TOO_MANY_ROWS', undefined, undefined]]);
    assert.deepEqual(tableProblems(MODEL, TABLE, null).map((p) => p.code), ['TOO_FEW_ROWS']);
    assert.deepEqual(tableProblems(MODEL, TABLE, '[{"Make":"SMA","Qty":"1"},{"Model":"x"}]').map((p) => [p.code, p.row, p.column]), [['REQUIRED', 2, 'Make'], ['REQUIRED', 2, 'Qty']]);
  });

  it('read a form page post: cells by row and column, the pressed button applied, unchanged tables left out', () => {
    const shown = '[{"Make":"SMA","Qty":"2"}]';
    const post = { [shownKey('INV')]: shown, [tableCountKey('INV')]: '1', [tableCellKey('INV', 0, 'Make')]: 'SMA', [tableCellKey('INV', 0, 'Qty')]: ' 2 ' };
    assert.deepEqual(draftInputs(MODEL, FORM, post), [], 'as shown: nothing written');
    assert.deepEqual(draftInputs(MODEL, FORM, { ...post, action: 'addrow:INV' }), [{
      dataFieldId: 'INV', value: null, values: null, rows: [[{ column: 'Make', value: 'SMA' }, { column: 'Qty', value: '2' }], []],
    }]);
    assert.deepEqual(draftInputs(MODEL, FORM, { ...post, action: 'removerow:INV:0' }), [{ dataFieldId: 'INV', value: null, values: null, rows: [] }]);
    assert.deepEqual(draftInputs(MODEL, FORM, { [tableCellKey('INV', 0, 'Make')]: 'SMA' }), [], 'no row count: the table was not on the page');
    assert.throws(() => draftInputs(MODEL, FORM, { [tableCountKey('INV')]: '-1' }), (e) => e instanceof ApiError && e.code === 'INVALID_PARAMETER');
    assert.throws(() => draftInputs(MODEL, FORM, { [tableCountKey('INV')]: '1', [tableCellKey('INV', 0, 'Make')]: ['a', 'b'] }), (e) => e instanceof ApiError && e.code === 'INVALID_PARAMETER');
  });
});
