import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { checkMove } from '../store/move-check.ts';
import { moveInstallation } from '../store/move-installation.ts';
import { reported } from './backup-commands.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import type { CliIo } from './cli-context.ts';

/** The exit code of a `--check` that found differences between the source and the target. */
export const DIFFERENCES_EXIT = 6;

/** The target's configuration: the source's settings with the target's database and files (`--blobs`, `--blob-dir`). */
export function targetEnv(io: Pick<CliIo, 'env' | 'cwd'>, to: string, blobs: string | undefined, blobDir: string | undefined): NodeJS.ProcessEnv {
  const source = loadConfig(io.env);
  const kind = blobs ?? source.blobStore;
  const env: NodeJS.ProcessEnv = { ...io.env, DATABASE_URL: to, APAS_BLOB_STORE: kind };
  // Files kept in a directory stay in the source's directory unless another is named.
  if (blobDir !== undefined) env.APAS_BLOB_DIR = path.resolve(io.cwd, blobDir);
  else if (kind === 'local' && source.blobStore === 'local') env.APAS_BLOB_DIR = source.blobDir;
  return env;
}

/** `apas move --to DATABASE_URL [--blobs local|database|s3] [--blob-dir DIR] [--files-only] [--check]`. */
export const moveCommand: CliCommand = {
  name: 'move',
  summary: 'Copy this installation (database and files) into another database and blob store: SQLite or PostgreSQL, files local, in the database or in S3.',
  notes: [
    'The source is the installation DATABASE_URL and APAS_BLOB_STORE name; it is only read. The target must be empty (it is',
    'migrated first); an interrupted move continues when run again with the same source. Files keep their place unless',
    '--blobs or --blob-dir say otherwise. Sealed secrets are copied sealed: the target needs the source\'s key. --files-only',
    'copies the files while the source still serves; stop it, then run again without it. --check compares the source and',
    'the target (row counts and contents per table, every file\'s SHA-256) and exits 6 on a difference; 3 is a target that is',
    'not empty, 5 a key that does not open the sealed secrets. See docs/operations.md, "Moving an installation".',
  ],
  options: {
    to: { type: 'string', value: 'DATABASE_URL', required: true, description: 'The target database: a SQLite file path or a postgres:// URL' },
    blobs: { type: 'string', value: 'KIND', description: 'Where the target keeps files: local, database or s3 (default: where the source keeps them)' },
    'blob-dir': { type: 'string', value: 'DIR', description: 'The target\'s directory for --blobs local (default: the source\'s)' },
    'files-only': { type: 'boolean', description: 'Copy only the files the target lacks (safe while the source serves)' },
    check: { type: 'boolean', description: 'Compare the source and the target; change nothing' },
  },
  async run(input, io) {
    const source = loadConfig(io.env);
    let target: ReturnType<typeof loadConfig>;
    try {
      target = loadConfig(targetEnv(io, text(input, 'to'), optionalText(input, 'blobs'), optionalText(input, 'blob-dir')));
    } catch (error) {
      // The target's settings come from --to and --blobs; say so rather than name the variables they stand for.
      if (error instanceof ConfigError) throw new ConfigError(`the target (--to, --blobs): ${error.message}`);
      throw error;
    }
    const log = (line: string) => io.err(line);
    if (input.options.check === true) {
      const report = await reported(() => checkMove({ source, target }));
      for (const line of report.differences) io.out(line);
      const rows = report.tables.reduce((n, t) => n + t.source, 0);
      if (report.differences.length > 0) {
        io.err(`${report.differences.length} difference(s) between the source and the target.`);
        return DIFFERENCES_EXIT;
      }
      io.out(`The target holds the same ${rows} rows in ${report.tables.length} tables and the same ${report.files} files as the source.`);
      return 0;
    }
    const report = await reported(() => moveInstallation({ source, target, filesOnly: input.options['files-only'] === true, log }));
    if (!report.finished) io.out(`Copied ${report.files} files; stop the server and run "apas move" again without --files-only to copy the rest.`);
    else io.out(`Moved ${report.tables.reduce((n, t) => n + t.rows, 0)} rows and ${report.filesShared ? 'no files (they stay where they are)' : `${report.files} files`}; check it with "apas move --check".`);
    return 0;
  },
};
