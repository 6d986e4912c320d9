import path from 'node:path';
import { ConfigError, loadConfig } from '../config.ts';
import { checkMove } from '../store/move-check.ts';
import { moveInstallation } from '../store/move-installation.ts';
import { reported } from './backup-commands.ts';
import { type CliCommand, optionalText, text } from './cli-command.ts';
import type { CliIo } from './cli-context.ts';

/** The exit code of a `--check` that found differences between the source and the target. */
export const DIFFERENCES_EXIT = 6;

/** Where the target keeps its files, as the options name it; what is left out is the source's. */
export interface TargetFiles { blobs?: string; blobDir?: string; s3Bucket?: string; s3Prefix?: string }

/**
 * The target's configuration: the source's settings with the target's database and files (`--blobs`, `--blob-dir`,
 * and `--s3-bucket`/`--s3-prefix`, which name another bucket or prefix through the same endpoint and credentials).
 */
export function targetEnv(io: Pick<CliIo, 'env' | 'cwd'>, to: string, files: TargetFiles): NodeJS.ProcessEnv {
  const source = loadConfig(io.env);
  const kind = files.blobs ?? source.blobStore;
  const env: NodeJS.ProcessEnv = { ...io.env, DATABASE_URL: to, APAS_BLOB_STORE: kind };
  // Files kept in a directory stay in the source's directory unless another is named.
  if (files.blobDir !== undefined) env.APAS_BLOB_DIR = path.resolve(io.cwd, files.blobDir);
  else if (kind === 'local' && source.blobStore === 'local') env.APAS_BLOB_DIR = source.blobDir;
  if ((files.s3Bucket !== undefined || files.s3Prefix !== undefined) && kind !== 's3') {
    throw new ConfigError('--s3-bucket and --s3-prefix name the target\'s bucket: use them with --blobs s3 (or a source whose files are in S3)');
  }
  if (files.s3Bucket !== undefined) env.APAS_S3_BUCKET = files.s3Bucket;
  if (files.s3Prefix !== undefined) env.APAS_S3_PREFIX = files.s3Prefix;
  return env;
}

/** `apas move --to DATABASE_URL [--blobs local|database|s3] [--blob-dir DIR] [--s3-bucket B] [--s3-prefix P] [--files-only] [--check]`. */
export const moveCommand: CliCommand = {
  name: 'move',
  summary: 'Copy this installation (database and files) into another database and blob store: SQLite or PostgreSQL, files local, in the database or in S3.',
  notes: [
    'The source is the installation DATABASE_URL and APAS_BLOB_STORE name; it is only read. The target must be empty (it is',
    'migrated first); an interrupted move continues when run again with the same source. Files keep their place unless',
    '--blobs, --blob-dir, --s3-bucket or --s3-prefix say otherwise. Sealed secrets are copied sealed: the target needs the source\'s key. --files-only',
    'copies the files while the source still serves; stop it, then run again without it. --check compares the source and',
    'the target (row counts and contents per table, every file\'s SHA-256) and exits 6 on a difference; 3 is a target that is',
    'not empty, 5 a key that does not open the sealed secrets. See docs/operations.md, "Moving an installation".',
  ],
  options: {
    to: { type: 'string', value: 'DATABASE_URL', required: true, description: 'The target database: a SQLite file path or a postgres:// URL' },
    blobs: { type: 'string', value: 'KIND', description: 'Where the target keeps files: local, database or s3 (default: where the source keeps them)' },
    'blob-dir': { type: 'string', value: 'DIR', description: 'The target\'s directory for --blobs local (default: the source\'s)' },
    's3-bucket': { type: 'string', value: 'BUCKET', description: 'The target\'s bucket for --blobs s3 (default: APAS_S3_BUCKET), through the same endpoint and credentials' },
    's3-prefix': { type: 'string', value: 'PREFIX', description: 'The target\'s key prefix in that bucket (default: APAS_S3_PREFIX)' },
    'files-only': { type: 'boolean', description: 'Copy only the files the target lacks (safe while the source serves)' },
    check: { type: 'boolean', description: 'Compare the source and the target; change nothing' },
  },
  async run(input, io) {
    const source = loadConfig(io.env);
    let target: ReturnType<typeof loadConfig>;
    try {
      target = loadConfig(targetEnv(io, text(input, 'to'), {
        blobs: optionalText(input, 'blobs'), blobDir: optionalText(input, 'blob-dir'), s3Bucket: optionalText(input, 's3-bucket'), s3Prefix: optionalText(input, 's3-prefix'),
      }));
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
