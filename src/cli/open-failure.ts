import type { Config } from '../config.ts';
import { NewerDatabaseError } from '../store/schema-migrations.ts';
import { CliError } from './cli-error.ts';

/** The configured database in words, without its password: `SQLite database /path` or `PostgreSQL database NAME on HOST:PORT`. */
export function databaseWhere(config: Pick<Config, 'database'>): string {
  if (config.database.kind === 'sqlite') return `SQLite database ${config.database.file}`;
  const url = new URL(config.database.url);
  return `PostgreSQL database ${decodeURIComponent(url.pathname.replace(/^\//, '')) || '(default)'} on ${url.hostname}:${url.port || '5432'}`;
}

/** Where the configured database is, for a log line's `path`: the SQLite file, or `HOST:PORT/NAME` (no password). */
export function databaseLocation(config: Pick<Config, 'database'>): string {
  if (config.database.kind === 'sqlite') return config.database.file;
  const url = new URL(config.database.url);
  return `${url.hostname}:${url.port || '5432'}/${decodeURIComponent(url.pathname.replace(/^\//, ''))}`;
}

/** A database that cannot be opened is an operator's problem to fix, not a bug: one line, no stack. */
export function openFailure(config: Pick<Config, 'database'>, error: unknown): CliError {
  if (error instanceof NewerDatabaseError) return new CliError(`${databaseWhere(config)}: ${error.message}`);
  return new CliError(`cannot open the ${databaseWhere(config)} (DATABASE_URL): ${(error as Error).message}`);
}
