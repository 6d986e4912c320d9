import path from 'node:path';
import { loadConfig } from '../config.ts';
import { BackupError } from '../store/backup-error.ts';
import { createBackup, PG_DUMP_NOTE } from '../store/create-backup.ts';
import { restoreBackup } from '../store/restore-backup.ts';
import { type CliCommand, text } from './cli-command.ts';
import { CliError } from './cli-error.ts';

/** Exit codes beyond 0/1/2, so that a script can tell a refused target from a damaged archive. */
export const EXIT = { targetNotEmpty: 3, badArchive: 4 } as const;

// Backup failures are the operator's to fix: one line, and an exit code per kind.
async function reported<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // A full disk or a missing permission is the operator's to fix too, and its message names the file.
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw new CliError((error as Error).message);
    if (!(error instanceof BackupError)) throw error;
    throw new CliError(error.message, error.kind === 'target' ? EXIT.targetNotEmpty : error.kind === 'archive' ? EXIT.badArchive : 1);
  }
}

/** `apas backup --out FILE` and `apas restore FILE [--check]`. */
export const backupCommands: CliCommand[] = [
  {
    name: 'backup',
    summary: 'Write a consistent backup of the installation (database and uploaded files) to one file while the server runs.',
    notes: [
      'On SQLite the file holds the database and every file it references. On PostgreSQL with APAS_BLOB_STORE=local it',
      'holds the files only: run pg_dump first, then this. With APAS_BLOB_STORE=database on PostgreSQL, pg_dump alone',
      'covers everything and this command refuses. The file appears under its name only once complete. See docs/operations.md.',
    ],
    options: { out: { type: 'string', value: 'FILE', required: true, description: 'The backup file to write (replaced if it exists)' } },
    async run(input, io) {
      const config = loadConfig(io.env);
      const out = path.resolve(io.cwd, text(input, 'out'));
      const report = await reported(() => createBackup({ config, out, log: (line) => io.err(line) }));
      if (report.manifest.dialect === 'postgres') io.err(PG_DUMP_NOTE);
      io.out(out);
      return 0;
    },
  },
  {
    name: 'restore',
    summary: 'Restore a backup made by "apas backup" into an empty data directory (DATABASE_URL and APAS_BLOB_DIR).',
    notes: [
      'Everything is verified (checksums, counts, SQLite\'s integrity check, every attachment\'s file) before anything is',
      'put in place, so a damaged file changes nothing. On PostgreSQL, restore the pg_dump first. Exit codes: 3 when the',
      'target is not empty, 4 when the file is damaged or not a backup.',
    ],
    args: [{ name: 'FILE', description: 'The backup file' }],
    options: { check: { type: 'boolean', description: 'Only verify the backup file completely; write nothing' } },
    async run(input, io) {
      const config = loadConfig(io.env);
      const file = path.resolve(io.cwd, input.args[0]!);
      const checkOnly = input.options.check === true;
      const report = await reported(() => restoreBackup({ config, file, checkOnly, log: (line) => io.err(line) }));
      if (checkOnly) io.out(`${file} is a complete backup: every checksum matches.`);
      else {
        const where = config.database.kind === 'sqlite' ? config.database.file : 'the PostgreSQL database';
        io.out(`Restored ${report.manifest.counts.projects} projects and ${report.blobs} files into ${where}${report.manifest.blobStore === 'local' ? ` and ${config.blobDir}` : ''}.`);
      }
      return 0;
    },
  },
];
