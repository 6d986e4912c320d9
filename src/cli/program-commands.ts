import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../domain/api-error.ts';
import { exportProgram, formatProgramFile } from '../domain/programs/program-export.ts';
import { formatOfPath, parseProgramFile, type ProgramFileFormat } from '../domain/programs/program-file.ts';
import { formatImportReport, importProgram, OPERATOR_PUBLISHER } from '../domain/programs/program-import.ts';
import { previewMail } from '../domain/workflow/mail-preview.ts';
import { previewDocument } from '../domain/documents/document-preview.ts';
import { loadDocumentFonts } from '../domain/documents/document-fonts.ts';
import { programCheckers } from '../domain/wiring/program-checkers.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { CliError, UsageError } from './cli-error.ts';

const agency = { type: 'string', value: 'AGENCY', required: true, description: 'The agency\'s custom id or id' } as const;

async function readProgramText(file: string, cwd: string): Promise<string> {
  try {
    return await readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

function exportFormat(format: string | undefined, out: string | undefined): ProgramFileFormat {
  if (format === undefined) return out === undefined ? 'yaml' : formatOfPath(out);
  if (format !== 'yaml' && format !== 'json') throw new UsageError(`--format must be yaml or json, got "${format}"`, 'program export');
  return format;
}

/** The most minutes `program import --long-transaction` allows: a transaction held longer is an outage of its own. */
export const MAX_LONG_TRANSACTION_MINUTES = 120;

// `--long-transaction MINUTES` in ms, or undefined when not given (the import keeps the 30 s of every change).
function longTransactionMs(minutes: string | undefined): number | undefined {
  if (minutes === undefined) return undefined;
  const n = Number(minutes);
  if (!/^\d+(\.\d+)?$/.test(minutes) || n < 1 || n > MAX_LONG_TRANSACTION_MINUTES) {
    throw new UsageError(`--long-transaction must be a number of minutes from 1 to ${MAX_LONG_TRANSACTION_MINUTES}, got "${minutes}"`, 'program import');
  }
  return Math.round(n * 60_000);
}

/** `apas program import|export|preview-mail|preview-document|list`. */
export const programCommands: CliCommand[] = [
  {
    name: 'program import',
    summary: 'Create or update a program from a YAML or JSON program file and print what changed.',
    notes: [
      'The file is checked against schemas/program.schema.json and for consistency first. Importing the same file',
      'again changes nothing. Parts are matched to existing ones by customId, else by name, so they keep their ids.',
      'An import that changes the program records its next version (kept with this file, published by the operator),',
      'which the console\'s version history lists. An import that changes a condition of the access groups recounts',
      'every project\'s membership in its one transaction, which may take 30 s at most; a bigger program is imported with',
      '--long-transaction in a quiet hour (while it runs, changes of the program\'s projects wait; on SQLite every write).',
    ],
    args: [{ name: 'FILE', description: 'The program file (.yaml, .yml or .json)' }],
    options: {
      agency, 'dry-run': { type: 'boolean', description: 'Report the changes without making them' },
      'long-transaction': {
        type: 'string', value: 'MINUTES',
        description: `Let this import's one transaction run up to MINUTES minutes (1 to ${MAX_LONG_TRANSACTION_MINUTES}) instead of 30 s, for a program too big to recount its access groups in 30 s; run it in a quiet hour (docs/operations.md)`,
      },
    },
    async run(input, io) {
      const file = input.args[0]!;
      const maxTransactionMs = longTransactionMs(optionalText(input, 'long-transaction'));
      const body = await readProgramText(file, io.cwd);
      const program = parseProgramFile(body, formatOfPath(file), file);
      // The version an import records keeps this file, published by the operator.
      const publication = { text: body, fileName: path.basename(file), publisher: OPERATOR_PUBLISHER };
      const options = { dryRun: input.options['dry-run'] === true, source: file, publication, ...(maxTransactionMs === undefined ? {} : { maxTransactionMs }) };
      const report = await withContext(io, (ctx) => importProgram(ctx, text(input, 'agency'), program, options));
      io.out(formatImportReport(report));
      return 0;
    },
  },
  {
    name: 'program export',
    summary: 'Write a program\'s active definition as a program file (to standard output unless --out is given).',
    args: [{ name: 'PROGRAM', description: 'The program\'s custom id or id' }],
    options: {
      agency,
      out: { type: 'string', value: 'FILE', description: 'Write to this file instead of standard output' },
      format: { type: 'string', value: 'yaml|json', description: 'The output format (default: from --out\'s extension, else yaml)' },
    },
    async run(input, io) {
      const out = optionalText(input, 'out');
      const format = exportFormat(optionalText(input, 'format'), out);
      const file = await withContext(io, ({ store }) => exportProgram(store, text(input, 'agency'), input.args[0]!));
      const body = formatProgramFile(file, format);
      if (out === undefined) io.out(body.replace(/\n$/, ''));
      else {
        await writeFile(path.resolve(io.cwd, out), body, 'utf8');
        io.err(`Wrote program ${file.customId} to ${out}.`);
      }
      return 0;
    },
  },
  {
    name: 'program preview-mail',
    summary: 'Print a mail of a program file, filled in with sample values: a status\'s status-changed mail, or a named template.',
    notes: [
      'The file is checked as an import would check it. The sample project is number 42 of the program, the reason',
      'the status\'s first one, and the message a sample text. Nothing is read from or written to a database.',
    ],
    args: [{ name: 'FILE', description: 'The program file (.yaml, .yml or .json)' }],
    options: {
      status: { type: 'string', value: 'STATUS', description: 'The mail of a move into this status (its customId or name)' },
      template: { type: 'string', value: 'TEMPLATE', description: 'The named template with this customId (mailTemplates:)' },
    },
    async run(input, io) {
      const file = input.args[0]!;
      const status = optionalText(input, 'status');
      const template = optionalText(input, 'template');
      if ((status === undefined) === (template === undefined)) throw new UsageError('give either --status or --template', 'program preview-mail');
      const program = parseProgramFile(await readProgramText(file, io.cwd), formatOfPath(file), file);
      const preview = previewMail(program, status === undefined ? { template: template! } : { status }, programCheckers(), file);
      io.err(`From ${preview.source}, with sample values:`);
      io.out(`Subject: ${preview.mail.subject}\n\n${preview.mail.text.replace(/\n$/, '')}`);
      return 0;
    },
  },
  {
    name: 'program preview-document',
    summary: 'Write the PDF of a document template of a program file, over a sample project or a real one.',
    notes: [
      'The file is checked as an import would check it. Without --project the sample project is number 42 of the',
      'program, every field filled in with a sample of its type. With --project the project (its number or id) of the',
      'program with the file\'s customId is read from the database as it is now; nothing is written there.',
    ],
    args: [{ name: 'FILE', description: 'The program file (.yaml, .yml or .json)' }],
    options: {
      document: { type: 'string', value: 'DOCUMENT', required: true, description: 'The document template\'s customId (documents:)' },
      project: { type: 'string', value: 'PROJECT', description: 'A real project\'s number or id, instead of the sample' },
      out: { type: 'string', value: 'FILE', required: true, description: 'Write the PDF to this file' },
    },
    async run(input, io) {
      const file = input.args[0]!;
      const program = parseProgramFile(await readProgramText(file, io.cwd), formatOfPath(file), file);
      const document = text(input, 'document');
      const project = optionalText(input, 'project');
      const fonts = loadDocumentFonts();
      const rendered = project === undefined
        ? await previewDocument(program, document, programCheckers(), fonts, Date.now(), undefined, file)
        : await withContext(io, ({ store, clock }) => previewDocument(program, document, programCheckers(), fonts, clock.now(), { store, project }, file));
      const out = text(input, 'out');
      await writeFile(path.resolve(io.cwd, out), rendered.pdf);
      io.err(`Wrote document ${document} (template version ${rendered.templateVersion}, ${rendered.pdf.length} bytes) of ${project === undefined ? 'the sample project' : `project ${project}`} to ${out}.`);
      return 0;
    },
  },
  {
    name: 'program list',
    summary: 'List the programs of an agency: custom id, id and name.',
    options: { agency },
    async run(input, io) {
      const programs = await withContext(io, async ({ store }) => {
        const found = await store.accounts.findAgency(text(input, 'agency'));
        if (!found) throw new ApiError('NOT_FOUND', `agency "${text(input, 'agency')}" not found`);
        return store.programs.listPrograms(found.id);
      });
      for (const p of programs) io.out(`${p.customId.padEnd(20)} ${p.id}  ${p.name}`);
      if (programs.length === 0) io.err('This agency has no programs yet; add one with "apas program import".');
      return 0;
    },
  },
];
