import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ALL_DIALECTS, chosenDialects } from '../support/dialects.ts';

// APAS_TEST_DIALECTS (.ci/run's older Node lines): which databases the contract tests run on.

test('every dialect unless APAS_TEST_DIALECTS names some; an unknown name stops the run', () => {
  assert.deepEqual(chosenDialects(undefined), ALL_DIALECTS);
  assert.deepEqual(chosenDialects(' '), ALL_DIALECTS);
  assert.deepEqual(chosenDialects('sqlite'), ['sqlite']);
  assert.deepEqual(chosenDialects('postgres, sqlite'), ['sqlite', 'postgres']);
  assert.throws(() => chosenDialects('sqlite,mysql'), /APAS_TEST_DIALECTS: unknown dialect "mysql"; use sqlite, postgres/);
});
