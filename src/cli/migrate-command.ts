import { loadConfig } from '../config.ts';
import { KNOWN_MIGRATIONS, openDatabase } from '../store/database.ts';
import { migrationStatus, NewerDatabaseError } from '../store/schema-migrations.ts';
import type { CliCommand } from './cli-command.ts';
import type { CliIo } from './cli-context.ts';
import { CliError } from './cli-error.ts';
import { databaseWhere, openFailure } from './open-failure.ts';

/** `apas migrate [--status]`: applies pending migrations, saying which, or reports applied and pending ones. */
export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'Create or upgrade the database schema. Safe to run at any time; several instances may run it at once.',
  options: { status: { type: 'boolean', description: 'List the applied and the pending migrations, and change nothing' } },
  notes: ['A database upgraded by a newer version of apas (one with migrations this version does not know) is refused.'],
  async run(input, io) {
    return input.options.status ? status(io) : apply(io);
  },
};

async function apply(io: CliIo): Promise<number> {
  const config = loadConfig(io.env);
  let count = 0;
  let opened: Awaited<ReturnType<typeof openDatabase>>;
  try {
    opened = await openDatabase(config.database, {
      poolSize: 2, connectTimeoutMs: config.db.connectTimeoutMs,
      onMigration: (name) => {
        count++;
        io.out(`Applied migration ${name}`);
      },
    });
  } catch (error) {
    throw openFailure(config, error);
  }
  await opened.db.destroy();
  await opened.changes.close();
  const total = Object.keys(KNOWN_MIGRATIONS).length;
  io.out(`${databaseWhere(config)} is up to date: ${count === 0 ? 'no migration was pending' : `applied ${count} migration${count === 1 ? '' : 's'}`} (${total} in all).`);
  return 0;
}

async function status(io: CliIo): Promise<number> {
  const config = loadConfig(io.env);
  let opened: Awaited<ReturnType<typeof openDatabase>>;
  try {
    opened = await openDatabase(config.database, { poolSize: 1, connectTimeoutMs: config.db.connectTimeoutMs, migrate: false });
  } catch (error) {
    throw openFailure(config, error);
  }
  try {
    const report = await migrationStatus(opened.db, KNOWN_MIGRATIONS);
    io.out(`${databaseWhere(config)}:`);
    io.out(`Applied (${report.applied.length}):`);
    for (const m of report.applied) io.out(`  ${m.name}  ${m.executedAt.toISOString()}`);
    io.out(`Pending (${report.pending.length}):${report.pending.length === 0 ? ' none' : ''}`);
    for (const name of report.pending) io.out(`  ${name}`);
    if (report.unknown.length > 0) {
      io.out(`Unknown to this version (${report.unknown.length}):`);
      for (const m of report.unknown) io.out(`  ${m.name}  ${m.executedAt.toISOString()}`);
      throw new CliError(new NewerDatabaseError(report.unknown.map((m) => m.name)).message);
    }
    return 0;
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw openFailure(config, error);
  } finally {
    await opened.db.destroy();
    await opened.changes.close();
  }
}
