import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

// An operator reads docs/operations.md for the settings: a variable added to src/config.ts must be listed there too.
test('docs/operations.md lists every setting src/config.ts reads', () => {
  const config = fs.readFileSync(path.join(ROOT, 'src', 'config.ts'), 'utf8');
  const doc = fs.readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const settings = new Set(config.match(/\b(?:APAS_[A-Z_]+|DATABASE_URL)\b/g) ?? []);
  assert.ok(settings.size >= 15, `found only ${[...settings].join(', ')}`);
  for (const name of settings) assert.match(doc, new RegExp(`\\| \`${name}\` \\|`), `${name} is not in the settings table of docs/operations.md`);
});
