import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteBinding } from './sqlite-binding.ts';
import { StatementNames } from './statement-names.ts';
import { sqliteLocker } from './sqlite-exclusive.ts';
import { CompiledQuery, type DatabaseConnection, Kysely, type Migration, PostgresDialect, type SqliteDatabase, SqliteDialect, type SqliteDialectConfig, SqliteDriver, type Driver } from 'kysely';
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
import * as m019 from './migrations/019-event-owner.ts';
import * as m020 from './migrations/020-webhook-backoff.ts';
import * as m021 from './migrations/021-webhook-secret-rotation.ts';
import * as m022 from './migrations/022-stale-draft-values.ts';
import * as m023 from './migrations/023-program-roles.ts';
import * as m024 from './migrations/024-table-fields.ts';
import * as m025 from './migrations/025-field-rules.ts';
import * as m026 from './migrations/026-deadlines.ts';
import * as m027 from './migrations/027-automations.ts';
import * as m028 from './migrations/028-status-reasons.ts';
import * as m029 from './migrations/029-automation-schedules.ts';
import * as m031 from './migrations/031-bulk-actions.ts';
import * as m034 from './migrations/034-my-projects.ts';
import * as m035 from './migrations/035-queue-views.ts';
import * as m036 from './migrations/036-dashboards.ts';
import * as m037 from './migrations/037-organizations.ts';
import * as m038 from './migrations/038-dashboard-windows.ts';
import * as m039 from './migrations/039-maintenance-marks.ts';
import * as m040 from './migrations/040-membership-notifications.ts';
import * as m041 from './migrations/041-draft-files-attention.ts';
import * as m042 from './migrations/042-mail-project.ts';
import * as m043 from './migrations/043-automated-moves.ts';
import * as m044 from './migrations/044-dashboard-zones.ts';
import * as m045 from './migrations/045-document-templates.ts';
import * as m046 from './migrations/046-document-generation.ts';
import * as m047 from './migrations/047-envelopes.ts';
import * as m048 from './migrations/048-usage-marks.ts';
import * as m049 from './migrations/049-console-indexes.ts';
import * as m050 from './migrations/050-program-versions.ts';
import * as m051 from './migrations/051-single-sign-on.ts';
import * as m052 from './migrations/052-self-service-policy.ts';
import * as m053 from './migrations/053-test-programs.ts';
import * as m054 from './migrations/054-connections.ts';
import * as m055 from './migrations/055-list-rows.ts';
import * as m056 from './migrations/056-project-relations.ts';
import * as m057 from './migrations/057-access-groups.ts';
import * as m058 from './migrations/058-project-external-ids.ts';
import * as m060 from './migrations/060-dashboard-group-counts.ts';
import { ChangeCounts, type ChangeSignal, SqliteChangeSignal, WriteWatchPlugin } from './change-signal.ts';
import { guardedPool, poolTimeouts } from './guarded-pool.ts';
import { PostgresChangeSignal } from './postgres-change-signal.ts';
import { migrateSchema, migrationStatus } from './schema-migrations.ts';
import type { Database } from './tables.ts';
import type { Dialect } from './dialect.ts';


/** Runs `work` while holding the named lock that every instance on the database takes in turn (Store.exclusively). */
export type ExclusiveRunner = <T>(name: string, work: () => Promise<T>) => Promise<T>;

/** An open database: its Kysely instance, dialect, change signal, and its way of running work exclusively. */
export interface OpenDatabase {
  db: Kysely<Database>;
  dialect: Dialect;
  changes: ChangeSignal;
  exclusively: ExclusiveRunner;
  /**
   * The same database through connections each bounded to `ms` from the moment it is asked for: on PostgreSQL every
   * statement on it gets only the time left (guarded-pool.ts); SQLite's one local connection needs no such bound.
   */
  bounded(ms: number): Kysely<Database>;
}

const MIGRATIONS: Record<string, Migration> = { '001-initial': m001, '002-form-roles-and-numbers': m002, '003-mfa': m003, '004-value-items': m004, '005-attachments': m005, '006-inquiry-threads': m006, '007-value-prefix-indexes': m007, '008-web-sessions': m008, '009-covering-search-indexes': m009, '010-browser-sessions': m010, '011-work-queue-indexes': m011, '012-change-notifications': m012, '013-oauth-clients': m013, '014-idempotency-keys': m014, '015-events': m015, '016-webhooks': m016, '017-mail': m017, '018-account-tokens': m018, '019-event-owner': m019, '020-webhook-backoff': m020, '021-webhook-secret-rotation': m021, '022-stale-draft-values': m022, '023-program-roles': m023, '024-table-fields': m024, '025-field-rules': m025, '026-deadlines': m026, '027-automations': m027, '028-status-reasons': m028, '029-automation-schedules': m029, '031-bulk-actions': m031, '034-my-projects': m034, '035-queue-views': m035, '036-dashboards': m036, '037-organizations': m037, '038-dashboard-windows': m038, '039-maintenance-marks': m039, '040-membership-notifications': m040, '041-draft-files-attention': m041, '042-mail-project': m042, '043-automated-moves': m043, '044-dashboard-zones': m044, '045-document-templates': m045, '046-document-generation': m046, '047-envelopes': m047, '048-usage-marks': m048, '049-console-indexes': m049, '050-program-versions': m050, '051-single-sign-on': m051, '052-self-service-policy': m052, '053-test-programs': m053, '054-connections': m054, '055-list-rows': m055, '056-project-relations': m056, '057-access-groups': m057, '058-project-external-ids': m058, '060-dashboard-group-counts': m060 };

/** How long a write waits for another connection's write lock on SQLite before it fails "database is locked" (ms). */
const SQLITE_BUSY_MS = 5000;

// Writes take the lock up front (BEGIN IMMEDIATE) so that two processes never deadlock on a lock upgrade. The wait for
// the lock is asked again on a timer, not left to SQLite's busy timeout: that one sleeps inside the call and stops the
// event loop, so the process served nothing meanwhile, and a second connection in one process (an instance's CLI work,
// tests of two instances) froze the very transaction it waited for until the 30 s bound rolled it back.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const until = Date.now() + SQLITE_BUSY_MS;
    await connection.executeQuery(CompiledQuery.raw('pragma busy_timeout = 0'));
    try {
      for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
        try {
          await connection.executeQuery(CompiledQuery.raw('begin immediate'));
          return;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() >= until) throw error;
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
    } finally {
      await connection.executeQuery(CompiledQuery.raw(`pragma busy_timeout = ${SQLITE_BUSY_MS}`));
    }
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
  const raw = new SqliteBinding(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma(`busy_timeout = ${SQLITE_BUSY_MS}`);
  raw.pragma('foreign_keys = ON');
  // Gathers the statistics the query planner needs to pick the right index on large tables (cheap when current).
  raw.pragma('optimize = 0x10002');
  const counts = new ChangeCounts();
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(raw) }), plugins: [new WriteWatchPlugin(counts)] });
  return { db, changes: new SqliteChangeSignal(counts, () => dataVersion.get() as number) };
}

/**
 * Opens a PostgreSQL pool; 64-bit integers come back as numbers (all ours are epoch ms or counters). Connecting,
 * waiting for a pooled connection and each statement are bounded (guarded-pool.ts), so a database that stops
 * answering fails requests instead of hanging them.
 */
function openPostgres(url: string, opts: OpenOptions): { db: Kysely<Database>; changes: PostgresChangeSignal; bounded: (ms: number) => Kysely<Database> } {
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format),
  };
  const connectTimeoutMs = opts.connectTimeoutMs ?? 0;
  const statementTimeoutMs = opts.statementTimeoutMs ?? 0;
  const pool = new pg.Pool({ connectionString: url, max: opts.poolSize ?? 10, types: types as pg.CustomTypesConfig, ...poolTimeouts(connectTimeoutMs, statementTimeoutMs) });
  // An idle connection the server ends (restart, failover, idle timeout) is reported here; without a listener
  // the 'error' event would crash the process. The pool has already dropped it and connects anew when needed.
  pool.on('error', () => {});
  const counts = new ChangeCounts();
  const plugins = [new WriteWatchPlugin(counts)];
  // Shared by every handle over the pool: a name must mean one text on each of its connections.
  const names = opts.preparedStatements === false ? undefined : new StatementNames();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guardedPool(pool, { statementTimeoutMs, names }) }), plugins });
  // A bounded handle shares the pool (and the change counts); only `db` ends the pool, so the handles need no closing.
  const handles = new Map<number, Kysely<Database>>();
  const bounded = (ms: number): Kysely<Database> => {
    let handle = handles.get(ms);
    if (!handle) {
      const guarded = { ...guardedPool(pool, { statementTimeoutMs, boundMs: ms, names }), end: async () => {} };
      handles.set(ms, handle = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }), plugins }));
    }
    return handle;
  };
  return { db, changes: new PostgresChangeSignal(counts, url, connectTimeoutMs), bounded };
}

/** How to open a database; the defaults suit tests and tools, `apas serve` passes the configured limits. */
export interface OpenOptions {
  /** PostgreSQL: the most connections the pool holds (10). */
  poolSize?: number;
  /** PostgreSQL: the longest wait for a new connection or for a free one of the pool, in ms (0: no limit). */
  connectTimeoutMs?: number;
  /** PostgreSQL: the longest one statement may run, in ms (0: no limit); see guarded-pool.ts. */
  statementTimeoutMs?: number;
  /**
   * PostgreSQL: false to run every statement unnamed, as a pooler in transaction mode that does not carry prepared
   * statements needs (statement-names.ts); by default the hot reads' statements stay prepared on each connection.
   */
  preparedStatements?: boolean;
  /** False to open without migrating (to report the schema's status). */
  migrate?: boolean;
  /** Told the name of each migration as it is applied. */
  onMigration?: (name: string) => void;
}

/** Every migration this version knows, by name; the names sort in the order they apply. */
export const KNOWN_MIGRATIONS: Readonly<Record<string, Migration>> = MIGRATIONS;

/** Opens the configured database and brings its schema up to date (unless `options.migrate` is false). */
export async function openDatabase(config: DatabaseConfig, options: number | OpenOptions = {}): Promise<OpenDatabase> {
  const opts: OpenOptions = typeof options === 'number' ? { poolSize: options } : options;
  const run = (db: Kysely<Database>) => (opts.migrate === false ? Promise.resolve() : migrateOrClose(db, opts.onMigration));
  if (config.kind === 'sqlite') {
    const { db, changes } = openSqlite(config.file);
    // Processes (and stores) on one file take turns by a lock beside it (sqlite-exclusive.ts), the migrations too.
    const exclusively = sqliteLocker(config.file);
    if (opts.migrate !== false) await migrateOrClose(db, opts.onMigration, exclusively);
    return { db, dialect: 'sqlite', changes, exclusively, bounded: () => db };
  }
  // Migrations get a connection without a statement time limit (building an index on a large table takes its time).
  if (opts.migrate !== false) {
    const migrator = openPostgres(config.url, { ...opts, poolSize: 1, statementTimeoutMs: 0 });
    await run(migrator.db);
    await migrator.db.destroy();
  }
  const { db, changes, bounded } = openPostgres(config.url, opts);
  // After the migrations, so that the triggers that notify exist before anything is cached.
  try {
    await changes.start();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, dialect: 'postgres', changes, exclusively: advisoryLocker(config.url, opts.connectTimeoutMs ?? 0), bounded };
}

/** How often a wait for an advisory lock asks again: a try, never a blocking wait, which a statement timeout would end. */
const LOCK_RETRY_MS = 200;

/**
 * Exclusive work on PostgreSQL: a session advisory lock (by the name's hash) taken on a connection of its own, outside
 * the pool (the work itself uses the pool, which may have a single connection), held until the work ends or the
 * connection goes.
 */
function advisoryLocker(url: string, connectTimeoutMs: number): ExclusiveRunner {
  return async (name, work) => {
    const client = new pg.Client({ connectionString: url, ...(connectTimeoutMs > 0 ? { connectionTimeoutMillis: connectTimeoutMs } : {}) });
    // A connection the server ends while held releases the lock; its 'error' event must not end the process.
    client.on('error', () => {});
    await client.connect();
    try {
      const tryLock = async () => (await client.query<{ got: boolean }>('select pg_try_advisory_lock(hashtext($1)) as got', [name])).rows[0]?.got === true;
      while (!(await tryLock())) await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
      try {
        return await work();
      } finally {
        await client.query('select pg_advisory_unlock(hashtext($1))', [name]).catch(() => {});
      }
    } finally {
      await client.end().catch(() => {});
    }
  };
}

async function migrateOrClose(db: Kysely<Database>, onMigration?: (name: string) => void, inTurn?: ExclusiveRunner): Promise<void> {
  try {
    // Kysely migrates SQLite with neither a transaction nor a lock (its adapter counts on one connection), so two
    // processes starting on one new file both applied the same migrations and one failed (a column or table made
    // twice, an index dropped twice). They take turns as PostgreSQL's instances do by the migrator's advisory lock;
    // only when a migration is pending, so that an up-to-date database is opened without a lock file.
    const pending = inTurn !== undefined && (await migrationStatus(db, MIGRATIONS)).pending.length > 0;
    await (pending ? inTurn('apas migrations', () => migrate(db, onMigration)) : migrate(db, onMigration));
  } catch (error) {
    await db.destroy();
    throw error;
  }
}

/** Runs every pending migration, telling `onMigration` of each; refuses a database a newer version has upgraded. */
export async function migrate(db: Kysely<Database>, onMigration?: (name: string) => void): Promise<string[]> {
  return migrateSchema(db, MIGRATIONS, onMigration);
}
