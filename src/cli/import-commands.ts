import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../domain/api-error.ts';
import type { Caller } from '../domain/caller.ts';
import { problemText, rowText, summaryText } from '../domain/imports/import-report-text.ts';
import { IMPORT_BOUNDS, ProjectImportService } from '../domain/imports/project-import-service.ts';
import { changeReactions } from '../domain/wiring/change-reactions.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { CliError } from './cli-error.ts';

async function readBounded(file: string, cwd: string, maxBytes: number): Promise<Uint8Array> {
  const where = path.resolve(cwd, file);
  try {
    // Refused before reading: a file far over the bound is never loaded.
    const size = (await stat(where)).size;
    if (size > maxBytes) throw new CliError(`${file} has ${size} bytes; an import takes at most ${maxBytes}. Split it into several files.`);
    return await readFile(where);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

/** `apas import projects`: projects of a program created or updated from a CSV file's rows (src/domain/imports). */
export const importCommands: CliCommand[] = [
  {
    name: 'import projects',
    summary: 'Create or update a program\'s projects from the rows of a CSV file, and report each row.',
    notes: [
      'The header names each column: ExternalId (required: the row\'s id in your records), Owner (an e-mail address),',
      'Status (a new project\'s first status), and data fields by customId or name; --mapping maps other headers.',
      'Each row is a change of its own, made as the --as user (an agency admin or an admin of the program), through',
      'the same checks, rules, audit and events as the API. Run it again after a stop: rows already imported are',
      'found by their external id and updated (or left unchanged), never duplicated. Exit code 1 when the file or any',
      'row was refused (the other rows are imported).',
    ],
    args: [{ name: 'FILE', description: 'The CSV file (UTF-8, comma-separated, a header line first)' }],
    options: {
      program: { type: 'string', value: 'PROGRAM', required: true, description: 'The program\'s custom id or id' },
      as: { type: 'string', value: 'EMAIL', required: true, description: 'The importing admin: an agency admin, or an admin of the program' },
      mapping: { type: 'string', value: 'FILE', description: 'A text file of "Column = target" lines (a field\'s customId or name, externalId, owner, status, or -)' },
      'dry-run': { type: 'boolean', description: 'Check every row as the import would, report, and keep nothing' },
    },
    async run(input, io) {
      const csv = await readBounded(input.args[0]!, io.cwd, IMPORT_BOUNDS.maxBytes);
      const mappingFile = optionalText(input, 'mapping');
      const mapping = mappingFile === undefined ? undefined : new TextDecoder().decode(await readBounded(mappingFile, io.cwd, 1024 * 1024));
      const dryRun = input.options['dry-run'] === true;
      const report = await withContext(io, async (ctx) => {
        const user = await ctx.store.accounts.findUserByEmail(text(input, 'as'));
        if (!user || user.disabled) throw new ApiError('UNKNOWN_USER', `No active user has the e-mail address "${text(input, 'as')}".`);
        const caller: Caller = { user, apiKeyId: '', grants: await ctx.store.accounts.listGrants(user.id) };
        const deps = { ...ctx, publicUrl: ctx.config.publicUrl, maxNumbersPerRequest: ctx.config.maxNumbersPerRequest, reactions: changeReactions() };
        return new ProjectImportService(deps).importProjects(caller, { programRef: text(input, 'program'), csv, mapping, dryRun }, (row) => {
          for (const line of rowText(row, dryRun)) io.out(line);
        });
      });
      if (report.problems.length > 0) {
        for (const p of report.problems) io.err(problemText(p));
        io.err('The file was not imported: no row was tried. Fix the header or the mapping and run it again.');
        return 1;
      }
      io.err(summaryText(report));
      return report.counts.refused > 0 ? 1 : 0;
    },
  },
];
