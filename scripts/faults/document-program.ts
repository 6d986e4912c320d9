import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { DEMO_AGENCY, DEMO_PROGRAM_PATH } from '../../src/domain/programs/demo.ts';
import { ROOT, serverEnv } from './server-process.ts';

/** The document the fault runs generate: a staff-only letter on the demo's review checklist. */
export const LONG_LETTER = 'CrashLetter';

/** The agreement the envelope fault run signs: the project's owner signs it, signed in. */
export const OWNER_AGREEMENT = 'CrashAgreement';

// About 180,000 characters of Markdown (the output limit is 200,000): some forty pages, which take pdfkit a second
// or more to lay out, so that a kill aimed at the render lands in it. Nothing in the service is slowed for the test.
const LONG_BODY = [
  '# {{ project.number }}', '',
  '{% for i in (1..1400) %}Paragraph {{ i }} of {{ project.number }}: the quick brown fox jumps over the lazy dog, again and again, to fill the page with text that wraps.',
  '', '{% endfor %}',
].join('\n');

/** The demo program file with the fault runs' documents added to its own: the long letter, and an agreement its owner signs. */
function programWithDocuments(): string {
  const file = parseDocument(fs.readFileSync(DEMO_PROGRAM_PATH, 'utf8'));
  const ours = [
    { customId: LONG_LETTER, name: 'Crash letter', title: 'A long letter', form: 'ReviewChecklist', footer: 'Page {{ page }} of {{ pages }}', body: LONG_BODY },
    {
      customId: OWNER_AGREEMENT, name: 'Crash agreement', title: 'A long agreement', form: 'ReviewChecklist', visibleToApplicant: true, body: LONG_BODY,
      signers: [{ customId: 'Customer', name: 'Customer', owner: true }],
    },
  ];
  const theirs = (file.get('documents') as { items?: unknown[] } | undefined)?.items ?? [];
  file.set('documents', file.createNode([...theirs, ...ours]));
  return file.toString();
}

/**
 * Imports the demo program with the fault runs' documents, with `apas program import` against the running server's
 * database, as an operator would; throws with the command's output when it fails.
 */
export async function importDocumentProgram(databaseUrl: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-doc-program-'));
  const file = path.join(dir, 'program.yaml');
  fs.writeFileSync(file, programWithDocuments());
  try {
    const child = spawn(process.execPath, ['bin/apas.js', 'program', 'import', file, '--agency', DEMO_AGENCY.customId], {
      cwd: ROOT, env: serverEnv(databaseUrl, 0), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (output += c.toString('utf8')));
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`apas program import exited with ${code}:\n${output.slice(-3000)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
