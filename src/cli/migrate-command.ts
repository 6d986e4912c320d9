import type { CliCommand } from './cli-command.ts';
import { withContext } from './cli-context.ts';

/** `apas migrate`: brings the database schema up to date (opening the database runs pending migrations). */
export const migrateCommand: CliCommand = {
  name: 'migrate',
  summary: 'Create or upgrade the database schema. Safe to run at any time; several instances may run it at once.',
  async run(_input, io) {
    await withContext(io, async ({ config }) => {
      const where = config.database.kind === 'sqlite' ? `SQLite database ${config.database.file}` : 'PostgreSQL database';
      io.out(`${where} is up to date.`);
    });
    return 0;
  },
};
