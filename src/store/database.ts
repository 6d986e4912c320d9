import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, type DatabaseConnection, Kysely, type Migration, type MigrationProvider, Migrator, PostgresDialect, type SqliteDatabase, SqliteDialect, type SqliteDialectConfig, SqliteDriver, type Driver } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import * as m001 from './migrations/001-initial.ts';
import * as m002 from './migrations/002-form-roles-and-numbers.ts';
import * as m003 from './migrations/003-mfa.ts';
import * as m004 from './migrations/004-value-items.ts';
import * as m005 from './migrations/005-attachments.ts';
import * as m006 from './migrations/006-inquiry-threads.ts';
import * as m007 from './migrations/007-value-prefix-indexes.ts';
import * as m008 from './migrations/008-web-sessions.ts';
import * as m009 from './migrations/009-covering-search-indexes.ts';
import * as m010 from './migrations/010-browser-sessions.ts';
import * as m011 from './migrations/011-work-queue-indexes.ts';
import * as m012 from './migrations/012-change-notifications.ts';
import * as m013 from './migrations/013-oauth-clients.ts';
import * as m014 from './migrations/014-idempotency-keys.ts';
import * as m015 from './migrations/015-events.ts';
import * as m016 from './migrations/016-webhooks.ts';
import * as m017 from './migrations/017-mail.ts';
import * as m018 from './migrations/018-account-tokens.ts';
import * as m019 from './migrations/019-webhook-backoff.ts';
import * as m020 from './migrations/020-webhook-secret-rotation.ts';
import { ChangeCounts, type ChangeSignal, SqliteChangeSignal, WriteWatchPlugin } from './change-signal.ts';
import { PostgresChangeSignal } from './postgres-change-signal.ts';
import type { Database } from './tables.ts';

/** Which SQL engine a Kysely instance talks to. */
export type Dialect = 'sqlite' | 'postgres';

/** An open database: the Kysely instance, which engine it is, and the signal of changes its read caches use. */
export interface OpenDatabase { db: Kysely<Database>; dialect: Dialect; changes: ChangeSignal }

const MIGRATIONS: Record<string, Migration> = { '001-initial': m001, '002-form-roles-and-numbers': m002, '003-mfa': m003, '004-value-items': m004, '005-attachments': m005, '006-inquiry-threads': m006, '007-value-prefix-indexes': m007, '008-web-sessions': m008, '009-covering-search-indexes': m009, '010-browser-sessions': m010, '011-work-queue-indexes': m011, '012-change-notifications': m012, '013-oauth-clients': m013, '014-idempotency-keys': m014, '015-events': m015, '016-webhooks': m016, '017-mail': m017, '018-account-tokens': m018, '019-webhook-backoff': m019, '020-webhook-secret-rotation': m020 };

// Writes take the lock up front (BEGIN IMMEDIATE) so that two processes never deadlock on a lock upgrade.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}

// better-sqlite3 statements can be run again and again; preparing each query once (Kysely prepares on every
// call) saves most of the cost of the small, repeated queries of an API request.
function withStatementCache(raw: BetterSqlite3.Database): SqliteDatabase {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => raw.close(),
    prepare: (text: string) => {
      let statement = cache.get(text);
      if (!statement) {
        if (cache.size >= 1000) cache.clear();
        statement = raw.prepare(text);
        cache.set(text, statement);
      }
      return statement as unknown as ReturnType<SqliteDatabase['prepare']>;
    },
  };
}

/** Opens SQLite with the durability settings the service promises: WAL, synchronous=FULL, a busy timeout. */
function openSqlite(file: string): { db: Kysely<Database>; changes: ChangeSignal } {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const raw = new BetterSqlite3(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('busy_timeout = 5000');
  raw.pragma('foreign_keys = ON');
  // Gathers the statistics the query planner needs to pick the right index on large tables (cheap when current).
  raw.pragma('optimize = 0x10002');
  const counts = new ChangeCounts();
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(raw) }), plugins: [new WriteWatchPlugin(counts)] });
  return { db, changes: new SqliteChangeSignal(counts, () => dataVersion.get() as number) };
}

/** Opens a PostgreSQL pool; 64-bit integers come back as numbers (all ours are epoch ms or counters). */
function openPostgres(url: string, poolSize: number): { db: Kysely<Database>; changes: PostgresChangeSignal } {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const pool = new pg.Pool({ connectionString: url, max: poolSize, types: types as pg.CustomTypesConfig });
  // An idle connection the server ends (restart, failover, idle timeout) is reported here; without a listener
  // the 'error' event would crash the process. The pool has already dropped it and connects anew when needed.
  pool.on('error', () => {});
  const counts = new ChangeCounts();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), plugins: [new WriteWatchPlugin(counts)] });
  return { db, changes: new PostgresChangeSignal(counts, url) };
}

/** Opens the configured database and brings its schema up to date. */
export async function openDatabase(config: DatabaseConfig, poolSize = 10): Promise<OpenDatabase> {
  if (config.kind === 'sqlite') {
    const { db, changes } = openSqlite(config.file);
    await migrateOrClose(db);
    return { db, dialect: 'sqlite', changes };
  }
  const { db, changes } = openPostgres(config.url, poolSize);
  await migrateOrClose(db);
  // After the migrations, so that the triggers that notify exist before anything is cached.
  await changes.start();
  return { db, dialect: 'postgres', changes };
}

async function migrateOrClose(db: Kysely<Database>): Promise<void> {
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** Runs every pending migration; several instances starting at once take turns (the migrator locks). */
export async function migrate(db: Kysely<Database>): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
