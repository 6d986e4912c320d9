import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readCsvRecords } from '../../src/domain/csv-records.ts';
import { readCsv } from '../../src/domain/imports/csv-table.ts';
import { readListCsv } from '../../src/domain/lists/list-csv.ts';

// The one CSV reader the project import (strict) and the long lists (lenient) share: the same records from the same
// text, and each caller's own words and limits for what stops it.

const BOUNDS = { maxBytes: 10_000, maxRows: 3, maxColumns: 3, maxCellChars: 20 };
const bytes = (text: string) => new TextEncoder().encode(text);
const importProblem = (text: string) => {
  try {
    readCsv(bytes(text), BOUNDS);
  } catch (error) {
    return (error as Error).message;
  }
  return null;
};

test('strict and lenient read the same records: quotes, doubled quotes, line breaks in cells, CRLF, LF, a lone CR, a BOM, blank lines', () => {
  const text = '\uFEFFa,b\r\n"x, y","say ""hi"""\n\n"two\nlines",z\rlast,';
  const expected = [
    { line: 1, cells: ['a', 'b'] }, { line: 2, cells: ['x, y', 'say "hi"'] }, { line: 4, cells: ['two\nlines', 'z'] }, { line: 6, cells: ['last', ''] },
  ];
  assert.deepEqual(readCsvRecords(text), { records: expected, problem: null });
  assert.deepEqual(readCsvRecords(text, { strict: true }), { records: expected, problem: null });
  assert.deepEqual(readCsv(bytes(text), { ...BOUNDS, maxRows: 10 }).rows, expected.slice(1));
});

test('text after a closing quote and a quote in an unquoted cell: kept by the lenient reading, refused by the strict one with its line', () => {
  assert.deepEqual(readCsvRecords('h\n"a"b,c"d\n').records[1]!.cells, ['ab', 'c"d']);
  assert.deepEqual(readCsvRecords('h\n\n"a"b\n', { strict: true }).problem, { kind: 'textAfterQuote', line: 3 });
  assert.deepEqual(readCsvRecords('h\nc"d\n', { strict: true }).problem, { kind: 'quoteInCell', line: 2 });
  assert.match(importProblem('h\n"a"b\n')!, /line 2 has text after a closing quote/);
  assert.match(importProblem('h\nc"d\n')!, /line 2 has a quote inside an unquoted cell/);
});

test('a quote left open stops both; each caller words it, the import at the quote\'s line, the list at its record\'s', () => {
  assert.deepEqual(readCsvRecords('h\nx,"open\nmore\n').problem, { kind: 'unclosedQuote', line: 2, recordLine: 2 });
  assert.deepEqual(readCsvRecords('h\nx,"a\nb",\n"c').problem, { kind: 'unclosedQuote', line: 4, recordLine: 4 });
  assert.match(importProblem('h\n"a\nb",\n"open')!, /the quote opened on line 4 is never closed/);
  const list = readListCsv({ key: 'Model', label: 'Model', columns: [{ name: 'Model', type: 'text' }] }, 'Model\nA\n"B\n');
  assert.deepEqual(list.problems, [{ line: 3, message: 'a quoted cell is not closed (a " is missing)' }]);
});

test('the limits are the caller\'s: a long cell, too many cells, too many records', () => {
  assert.deepEqual(readCsvRecords('a,b\n', { maxCellChars: 0 }).problem, { kind: 'longCell', line: 1, chars: 1 });
  assert.equal(readCsvRecords('a,b,c,d\n').problem, null, 'no limits unless given');
  assert.match(importProblem(`h\n${'x'.repeat(21)}\n`)!, /a cell on line 2 has 21 characters; a cell holds at most 20/);
  assert.match(importProblem('a,b,c,d\n')!, /line 1 has more than 3 cells/);
  assert.match(importProblem('h\n1\n2\n3\n4\n5\n')!, /it has more than 3 rows/);
});
