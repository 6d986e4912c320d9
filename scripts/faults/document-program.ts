import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** The demo program file with `documents:` added: the long letter, and (when asked) an agreement its owner signs. */
function programWithDocuments(): string {
  const demo = fs.readFileSync(DEMO_PROGRAM_PATH, 'utf8');
  if (/^documents:/m.test(demo)) throw new Error(`${DEMO_PROGRAM_PATH} has documents: of its own; the fault runs add theirs under other customIds`);
  const indent = (text: string) => text.split('\n').map((line) => `      ${line}`).join('\n');
  return `${demo.trimEnd()}\n\ndocuments:\n`
    + `  - customId: ${LONG_LETTER}\n    name: Crash letter\n    title: A long letter\n    form: ReviewChecklist\n`
    + `    footer: 'Page {{ page }} of {{ pages }}'\n    body: |\n${indent(LONG_BODY)}\n`
    + `  - customId: ${OWNER_AGREEMENT}\n    name: Crash agreement\n    title: A long agreement\n    form: ReviewChecklist\n    visibleToApplicant: true\n`
    + `    body: |\n${indent(LONG_BODY)}\n    signers:\n      - { customId: Customer, name: Customer, owner: true }\n`;
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
