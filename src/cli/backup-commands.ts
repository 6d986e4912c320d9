import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config.ts';
import { newAgeIdentity, readIdentities, readRecipients } from '../store/backup-encryption.ts';
import { BackupError, type BackupErrorKind } from '../store/backup-error.ts';
import { createBackup, PG_DUMP_NOTE } from '../store/create-backup.ts';
import { restoreBackup } from '../store/restore-backup.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import { CliError } from './cli-error.ts';

/** Exit codes beyond 0/1/2, so that a script can tell a refused target from a damaged archive. */
export const EXIT = { targetNotEmpty: 3, badArchive: 4, keyMissing: 5 } as const;

/** Backup, restore and move failures are the operator's to fix: one line, and an exit code per kind. */
export async function reported<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    // A full disk or a missing permission is the operator's to fix too, and its message names the file.
    if ((error as NodeJS.ErrnoException).syscall !== undefined) throw new CliError((error as Error).message);
    if (!(error instanceof BackupError)) throw error;
    const codes: Record<BackupErrorKind, number> = { target: EXIT.targetNotEmpty, archive: EXIT.badArchive, keys: EXIT.keyMissing, setup: 1 };
    throw new CliError(error.message, codes[error.kind]);
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
      'covers everything and this command refuses. With APAS_BLOB_STORE=s3 the files are copied from the bucket into the',
      'file. The file appears under its name only once complete. See docs/operations.md.',
    ],
    options: {
      out: { type: 'string', value: 'FILE', required: true, description: 'The backup file to write (replaced if it exists)' },
      'recipients-file': { type: 'string', value: 'FILE', description: 'Encrypt the backup with age for the public keys (age1…) in FILE, one a line' },
    },
    async run(input, io) {
      const config = loadConfig(io.env);
      const out = path.resolve(io.cwd, text(input, 'out'));
      const recipientsFile = optionalText(input, 'recipients-file');
      const report = await reported(async () => {
        const recipients = recipientsFile === undefined ? [] : readRecipients(path.resolve(io.cwd, recipientsFile));
        return createBackup({ config, out, recipients, log: (line) => io.err(line) });
      });
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
      'put in place, so a damaged file changes nothing. On PostgreSQL, restore the pg_dump first. The backup holds secrets',
      'sealed with a key it does not hold: the key the restored installation will use (APAS_SECRET_KEYS, APAS_SECRET_KEY_FILE',
      'or, on SQLite, apas-secret.key beside DATABASE_URL) must open them all, else nothing is restored. Exit codes: 3 when',
      'the target is not empty, 4 when the file is damaged or not a backup, 5 when the key is missing or wrong.',
    ],
    args: [{ name: 'FILE', description: 'The backup file' }],
    options: {
      check: { type: 'boolean', description: 'Only verify the backup file completely; write nothing' },
      'identity-file': { type: 'string', value: 'FILE', description: 'The age identity (AGE-SECRET-KEY-1…) that opens an encrypted backup' },
      'key-lost': { type: 'boolean', description: 'Restore although no configured key opens the sealed secrets; then run "apas secrets drop-unreadable"' },
    },
    async run(input, io) {
      const config = loadConfig(io.env);
      const file = path.resolve(io.cwd, input.args[0]!);
      const checkOnly = input.options.check === true;
      const identityFile = optionalText(input, 'identity-file');
      const report = await reported(async () => {
        const identities = identityFile === undefined ? [] : readIdentities(path.resolve(io.cwd, identityFile));
        return restoreBackup({ config, file, checkOnly, identities, keyLost: input.options['key-lost'] === true, log: (line) => io.err(line) });
      });
      if (checkOnly) io.out(`${file} is a complete backup: every checksum matches.`);
      else {
        const where = config.database.kind === 'sqlite' ? config.database.file : 'the PostgreSQL database';
        const files = report.manifest.blobStore === 'local' ? ` and ${config.blobDir}` : report.manifest.blobStore === 's3' ? ` and s3://${config.s3?.bucket}/${config.s3?.prefix}` : '';
        io.out(`Restored ${report.manifest.counts.projects} projects and ${report.blobs} files into ${where}${files}.`);
      }
      return 0;
    },
  },
  {
    name: 'backup-keygen',
    summary: 'Make an age key pair for encrypted backups: the identity goes to --out (keep it off the server), the public key to standard output.',
    notes: ['Give the public key to "apas backup --recipients-file"; "apas restore --identity-file" needs the identity. Any age tool reads these files.'],
    options: { out: { type: 'string', value: 'FILE', required: true, description: 'The identity file to write (must not exist)' } },
    async run(input, io) {
      const out = path.resolve(io.cwd, text(input, 'out'));
      const { identity, recipient } = await newAgeIdentity();
      try {
        fs.writeFileSync(out, `# created: ${new Date().toISOString()}\n# public key: ${recipient}\n${identity}\n`, { flag: 'wx', mode: 0o600 });
      } catch (error) {
        throw new CliError(`cannot write ${out}: ${(error as NodeJS.ErrnoException).code === 'EEXIST' ? 'it exists already' : (error as Error).message}`);
      }
      io.out(recipient);
      io.err(`Wrote the identity to ${out}. Keep it away from the server and its backups; it alone opens them.`);
      return 0;
    },
  },
];
