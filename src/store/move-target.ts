import fsp from 'node:fs/promises';
import { type Kysely, type QueryExecutorProvider, sql } from 'kysely';
import type { Config } from '../config.ts';
import { BackupError } from './backup-error.ts';
import type { BlobStore } from './blob-store.ts';
import { createBlobStore, s3Settings } from './create-blob-store.ts';
import { migrate, type OpenDatabase, openDatabase } from './database.ts';
import type { Dialect } from './dialect.ts';
import { createKyselyStore } from './kysely-store.ts';
import { describeDatabase } from './move-source.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { lazySecretBox } from './secret-box.ts';
import type { Store } from './store.ts';
import type { Database } from './tables.ts';

/** The installation a move writes to: its database (migrated by this version) and its files. */
export interface MoveTarget { opened: OpenDatabase; store: Store; blobs: BlobStore; close(): Promise<void> }

/**
 * The move's bookkeeping, kept in the target itself so that a run after an interruption continues where the last one
 * stopped: where it came from, how far each table is copied (the last primary key copied, as JSON), and which target
 * file holds each source file. Dropped when the move is complete.
 */
const BOOKKEEPING = [
  'create table if not exists apas_move_state (name text primary key, value text not null)',
  'create table if not exists apas_move_tables (name text primary key, last_key text, copied bigint not null, done integer not null)',
  'create table if not exists apas_move_blobs (source_key text primary key, target_key text not null)',
];

async function tableNames(db: QueryExecutorProvider, dialect: Dialect): Promise<string[]> {
  const rows = dialect === 'sqlite'
    ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(db)).rows
    : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema()`.execute(db)).rows;
  return rows.map((r) => r.name);
}

/** Where the target stands: the source of its unfinished move, or null for an empty target; refuses a target that holds anything else. */
export async function targetState(db: QueryExecutorProvider, dialect: Dialect, where: string): Promise<string | null> {
  const names = await tableNames(db, dialect);
  if (names.includes('apas_move_state')) {
    const row = (await sql<{ value: string }>`select value from apas_move_state where name = 'source'`.execute(db)).rows[0];
    return row?.value ?? '';
  }
  for (const name of names) {
    if (/^(kysely_migration|kysely_migration_lock|sqlite_sequence)$/.test(name)) continue;
    const some = (await sql<{ one: number }>`select 1 as one from ${sql.table(name)} limit 1`.execute(db)).rows.length > 0;
    if (some) throw new BackupError('target', `the target is not empty: ${where} holds rows in ${name}. Move into a new, empty database`);
  }
  if (names.length > 0 && !names.includes('kysely_migration')) throw new BackupError('target', `the target is not empty: ${where} holds tables that are not apas's (${names.slice(0, 3).join(', ')})`);
  return null;
}

async function isNonEmptyDirectory(dir: string): Promise<boolean> {
  try {
    return (await fsp.readdir(dir)).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

/**
 * Opens the target of a move: refuses one that holds data unless it is this move's own unfinished target (same
 * source), migrates it with this version's migrations, and adds the bookkeeping. `sharedFiles` says the files stay
 * where they are, so the target's blob directory is the source's and is not checked for emptiness.
 */
export async function openMoveTarget(config: Config, source: string, sharedFiles: boolean): Promise<{ target: MoveTarget; resumed: boolean }> {
  const where = describeDatabase(config.database);
  if (config.database.kind === 'sqlite' && config.database.file === ':memory:') throw new BackupError('setup', 'cannot move into an in-memory database');
  let opened: OpenDatabase;
  try {
    opened = await openDatabase(config.database, { migrate: false, poolSize: 2 });
  } catch (error) {
    throw new BackupError('setup', `cannot open the target ${where}: ${(error as Error).message}`);
  }
  const store = createKyselyStore(opened, {
    secrets: lazySecretBox(() => {
      throw new Error('a move copies sealed values as they are and never opens them');
    }),
  });
  const close = () => store.close();
  try {
    const resumedFrom = await targetState(opened.db, opened.dialect, where);
    if (resumedFrom !== null && resumedFrom !== source) {
      throw new BackupError('target', `the target holds an unfinished move from ${resumedFrom}, not from ${source}: finish that one, or move into a new, empty database`);
    }
    if (resumedFrom === null && !sharedFiles && config.blobStore === 'local' && (await isNonEmptyDirectory(config.blobDir))) {
      throw new BackupError('target', `the target is not empty: the blob directory ${config.blobDir} holds files. Name an empty one with --blob-dir`);
    }
    // A bucket is shared by design (other installations, other prefixes): only blobs under the target's prefix count.
    if (resumedFrom === null && !sharedFiles && config.blobStore === 's3') {
      const bucket = s3Settings(config);
      if (await new S3BlobStore(bucket).holdsBlobs()) {
        throw new BackupError('target', `the target is not empty: the bucket ${bucket.bucket} holds files under the prefix "${bucket.prefix}". Move into an empty bucket or a new APAS_S3_PREFIX`);
      }
    }
    await migrate(opened.db);
    for (const statement of BOOKKEEPING) await sql.raw(statement).execute(opened.db);
    if (resumedFrom === null) await sql`insert into apas_move_state (name, value) values ('source', ${source})`.execute(opened.db);
    return { target: { opened, store, blobs: createBlobStore(config, store), close }, resumed: resumedFrom !== null };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Drops the bookkeeping once everything is copied: the target is then an ordinary installation (and no longer resumable). */
export async function finishMoveTarget(db: Kysely<Database>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const table of ['apas_move_blobs', 'apas_move_tables', 'apas_move_state']) await sql`drop table if exists ${sql.table(table)}`.execute(trx);
  });
}
