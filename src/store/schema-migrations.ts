import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';

/** Kysely's table of applied migrations (name and time), which every version of apas has used. */
const MIGRATION_TABLE = 'kysely_migration';

/** One migration this database has applied, and when. */
export interface AppliedMigration { name: string; executedAt: Date }

/** Where a database stands against the migrations this version knows. */
export interface MigrationStatus {
  /** Applied migrations this version knows, in order. */
  applied: AppliedMigration[];
  /** Migrations this version knows that the database has not applied yet, in order. */
  pending: string[];
  /** Applied migrations this version does not know: the database was upgraded by a newer version. */
  unknown: AppliedMigration[];
}

/** The database has migrations this version of apas does not know, so this version must not run on it. */
export class NewerDatabaseError extends Error {
  readonly unknown: string[];
  constructor(unknown: string[]) {
    super(
      `the database was upgraded by a newer version of apas (it has migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}, ` +
        'which this version does not know); run that newer version, or restore a backup taken before the upgrade',
    );
    this.name = 'NewerDatabaseError';
    this.unknown = unknown;
  }
}

// A database never migrated has no migration table: that reads as "nothing applied", not as an error.
function isMissingTable(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '');
  return code === '42P01' || /no such table/i.test(String((error as Error).message));
}

/** Reads which migrations the database has applied and compares them with `known`; changes nothing. */
export async function migrationStatus<DB>(db: Kysely<DB>, known: Record<string, Migration>): Promise<MigrationStatus> {
  let rows: { name: string; timestamp: string | Date }[];
  try {
    const result = await sql<{ name: string; timestamp: string | Date }>`select name, timestamp from ${sql.table(MIGRATION_TABLE)} order by name`.execute(db);
    rows = result.rows;
  } catch (error) {
    if (!isMissingTable(error)) throw error;
    rows = [];
  }
  const done = new Map(rows.map((r) => [r.name, new Date(r.timestamp)]));
  const names = Object.keys(known).sort();
  return {
    applied: names.filter((n) => done.has(n)).map((name) => ({ name, executedAt: done.get(name)! })),
    pending: names.filter((n) => !done.has(n)),
    unknown: rows.filter((r) => !Object.hasOwn(known, r.name)).map((r) => ({ name: r.name, executedAt: new Date(r.timestamp) })),
  };
}

/**
 * Applies every pending migration of `known`, one at a time so that `onApplied` hears of each as it completes; refuses
 * (NewerDatabaseError) a database with migrations this version does not know. Several instances starting at once take
 * turns (on PostgreSQL the migrator locks; on SQLite, whose migrator does not, openDatabase takes the lock beside the
 * file). Returns the names applied here.
 */
export async function migrateSchema<DB>(db: Kysely<DB>, known: Record<string, Migration>, onApplied: (name: string) => void = () => {}): Promise<string[]> {
  const before = await migrationStatus(db, known);
  if (before.unknown.length > 0) throw new NewerDatabaseError(before.unknown.map((m) => m.name));
  const provider: MigrationProvider = { getMigrations: async () => known };
  const migrator = new Migrator({ db, provider });
  const applied: string[] = [];
  for (;;) {
    const { error, results } = await migrator.migrateUp();
    const done = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    for (const name of done) {
      applied.push(name);
      onApplied(name);
    }
    if (error) {
      // Another instance may have moved the database on between the check above and the migrator's lock.
      const again = await migrationStatus(db, known).catch(() => null);
      if (again && again.unknown.length > 0) throw new NewerDatabaseError(again.unknown.map((m) => m.name));
      throw error instanceof Error ? error : new Error(String(error));
    }
    if (done.length === 0) return applied;
  }
}
