import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { capabilityEdges, capabilityOf, CHECKED_DIRS, circles, importEdges } from '../../scripts/import-cycles.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The imports between capabilities of src/domain that still close a circle (docs/architecture.md, "Capabilities"),
 * as `from>to`. A new one fails the test; so does one that no longer closes a circle, so that the list only shrinks.
 */
const KNOWN_CAPABILITY_CIRCLE_EDGES: string[] = [
  'automations>inquiries', // automations/automation-actions.ts → inquiries/inquiry-thread.ts
  'automations>workflow', // automations/automation-actions.ts → workflow/named-mail.ts
  'automations>deadlines', // automations/automation-actions.ts → deadlines/applicant-deadlines-text.ts
  'automations>projects', // automations/automation-actions.ts → projects/value-check.ts
  'automations>rules', // automations/automation-actions.ts → rules/form-rules.ts
  'automations>events', // automations/automation-service.ts → events/background-work.ts
  'automations>programs', // automations/check-automations.ts → programs/program-parts.ts
  'deadlines>events', // deadlines/deadline-poller.ts → events/background-work.ts
  'deadlines>projects', // deadlines/deadline-poller.ts → projects/change-project.ts
  'events>projects', // events/event-service.ts → projects/project-context.ts
  'inquiries>projects', // inquiries/inquiry-service.ts → projects/change-project.ts
  'programs>projects', // programs/catalog-service.ts → projects/project-context.ts
  'programs>automations', // programs/program-changes.ts → automations/check-automations.ts
  'programs>workflow', // programs/program-changes.ts → workflow/status-reasons.ts
  'projects>rules', // projects/application-service.ts → rules/form-rules.ts
  'projects>workflow', // projects/project-service.ts → workflow/status-reasons.ts
  'rules>projects', // rules/enforce-form-rules.ts → projects/field-rules.ts
  'rules>programs', // rules/rule-problems.ts → programs/program-lines.ts
  'workflow>programs', // workflow/mail-preview.ts → programs/program-check.ts
  'workflow>projects', // workflow/mail-preview.ts → projects/submit-service.ts
  'workflow>deadlines', // workflow/template-mail-service.ts → deadlines/applicant-deadlines-text.ts
];

test('circles are found between files and only there, type-only imports marked', () => {
  assert.deepEqual(circles([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'c', to: 'a' }, { from: 'c', to: 'd' }]), [['a', 'b', 'c']]);
  assert.deepEqual(circles([{ from: 'a', to: 'b' }, { from: 'b', to: 'c' }, { from: 'a', to: 'c' }]), []);
  assert.deepEqual(circles([{ from: 'a', to: 'a' }]), [['a']]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-cycles-'));
  try {
    fs.mkdirSync(path.join(dir, 'src/domain/one'), { recursive: true });
    fs.mkdirSync(path.join(dir, 'src/domain/two'));
    fs.writeFileSync(path.join(dir, 'src/domain/one/a.ts'), "import { b } from '../two/b.ts';\nexport const a = b;\n");
    fs.writeFileSync(path.join(dir, 'src/domain/two/b.ts'), "import type { A } from '../one/c.ts';\nimport {\n  type X,\n  type Y,\n} from '../one/d.ts';\nexport const b = 1;\n");
    const edges = importEdges(dir, ['src']);
    assert.deepEqual(edges, [
      { from: 'src/domain/one/a.ts', to: 'src/domain/two/b.ts', typeOnly: false },
      { from: 'src/domain/two/b.ts', to: 'src/domain/one/c.ts', typeOnly: true },
      { from: 'src/domain/two/b.ts', to: 'src/domain/one/d.ts', typeOnly: true },
    ]);
    assert.deepEqual(circles(capabilityEdges(edges)), [['one', 'two']], 'a type-only import back closes a circle of capabilities');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.equal(capabilityOf('src/domain/queue/queue-attention.ts'), 'queue');
  assert.equal(capabilityOf('src/domain/api-error.ts'), 'domain');
  assert.equal(capabilityOf('src/store/store.ts'), undefined);
});

test('no file of src, bench or scripts imports itself through others, type-only imports included', () => {
  const found = circles(importEdges(ROOT, CHECKED_DIRS));
  assert.deepEqual(found.map((c) => c.join(' ↔ ')), []);
});

test('the capabilities of src/domain import one another in one direction (no circle but the known ones)', () => {
  const edges = capabilityEdges(importEdges(ROOT, ['src']));
  const inCircle = circles(edges);
  const closing = edges.filter((e) => inCircle.some((c) => c.includes(e.from) && c.includes(e.to)));
  const names = closing.map((e) => `${e.from}>${e.to}`);
  const unknown = closing.filter((e) => !KNOWN_CAPABILITY_CIRCLE_EDGES.includes(`${e.from}>${e.to}`)).map((e) => `${e.from}>${e.to} (${e.via})`);
  assert.deepEqual(unknown, [], 'imports that close a new circle of capabilities');
  assert.deepEqual(KNOWN_CAPABILITY_CIRCLE_EDGES.filter((k) => !names.includes(k)), [], 'known circle edges that no longer close a circle: take them off the list');
});
