import assert from 'node:assert/strict';
import { after, before, beforeEach } from 'node:test';
import { ApiError } from '../../src/domain/api-error.ts';
import { parseProgramFile } from '../../src/domain/programs/program-file.ts';
import { importProgram } from '../../src/domain/programs/program-import.ts';
import { type TestEnv, testEnv } from './test-store.ts';

// What the tests of a program file's parts share: one store per test file and a fresh agency for each test (named
// `<prefix><n>`), and the problems of a refused import.

/** The store of a test file and the agency of the test running now. */
export interface ImportScope { env: TestEnv; agency: string }

/** Registers the hooks: a store before the file's tests, a new agency before each, the store removed after them. */
export function importScope(prefix: string, idPrefix: string): ImportScope {
  const scope = { agency: '' } as ImportScope;
  let n = 0;
  before(async () => {
    scope.env = await testEnv();
  });
  after(async () => {
    await scope.env.cleanup();
  });
  beforeEach(async () => {
    scope.agency = `${prefix}${++n}`;
    await scope.env.store.transaction((tx) => tx.accounts.insertAgency({ id: `${idPrefix}${String(n).padStart(10, '0')}`, customId: scope.agency, name: scope.agency }, 1));
  });
  return scope;
}

/** The problems of a refused import of a YAML program file, one per line (failing the test when it is not refused). */
export async function refusedImport(scope: ImportScope, yaml: string, file = 'program.yaml'): Promise<string[]> {
  try {
    await importProgram(scope.env, scope.agency, parseProgramFile(yaml, 'yaml', file));
  } catch (error) {
    assert.ok(error instanceof ApiError && error.code === 'INVALID_REQUEST', String(error));
    return error.message.split('\n').slice(1).map((l) => l.replace(/^ {2}- /, ''));
  }
  assert.fail('the import was not refused');
}

/**
 * `line N, column C` of the nth line of `text` holding `needle`, at the first character there of `part` (the needle
 * itself unless given).
 */
export function placeOf(text: string): (needle: string, nth?: number, part?: string) => string {
  const lines = text.split('\n');
  return (needle, nth = 0, part = needle) => {
    const index = lines.map((l, i) => (l.includes(needle) ? i : -1)).filter((i) => i >= 0)[nth];
    assert.ok(index !== undefined, `"${needle}" (${nth}) is in the text`);
    return `line ${index + 1}, column ${lines[index]!.indexOf(part) + 1}`;
  };
}
