import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { formatLoadReport, loadListRows } from '../domain/lists/list-load.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { withContext } from './cli-context.ts';
import { CliError } from './cli-error.ts';

/** `apas list load`: a long list's rows from a CSV file. */
export const listCommands: CliCommand[] = [
  {
    name: 'list load',
    summary: 'Replace the rows of a program\'s custom list of "rows: csv" with the rows of a CSV file.',
    notes: [
      'The file\'s first line names its columns; every column the program file declares for the list must be there',
      '(others are ignored), each key filled in and unique, each cell of its column\'s type. With a problem nothing is',
      'loaded; --dry-run lists every problem by line and changes nothing (exit status 1 when there are problems).',
      'The rows are replaced in one transaction. Projects keep the values they hold, also those the new rows lack.',
    ],
    args: [{ name: 'FILE', description: 'The CSV file (UTF-8, comma-separated, a header line first)' }],
    options: {
      program: { type: 'string', value: 'PROGRAM', required: true, description: 'The program\'s custom id or id' },
      list: { type: 'string', value: 'LIST', required: true, description: 'The custom list\'s customId or name' },
      agency: { type: 'string', value: 'AGENCY', description: 'The agency\'s custom id or id (when program custom ids repeat across agencies)' },
      'dry-run': { type: 'boolean', description: 'Check the file and report, loading nothing' },
    },
    async run(input, io) {
      const file = input.args[0]!;
      let body: string;
      try {
        body = await readFile(path.resolve(io.cwd, file), 'utf8');
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
      }
      const target = { agencyRef: optionalText(input, 'agency') ?? null, programRef: text(input, 'program'), listRef: text(input, 'list') };
      const report = await withContext(io, (ctx) => loadListRows(ctx, target, body, { dryRun: input.options['dry-run'] === true }));
      io.out(formatLoadReport(report));
      return report.problems.length > 0 ? 1 : 0;
    },
  },
];
