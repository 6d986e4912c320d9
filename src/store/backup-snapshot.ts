import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import { SqliteBinding } from './sqlite-binding.ts';
import pg from 'pg';
import { BackupError } from './backup-error.ts';
import type { BlobEntry } from './backup-manifest.ts';

/** What a database snapshot holds that a backup needs: the blobs its attachment rows reference, and counts. */
export interface SnapshotFacts {
  /** One entry per attachment version (each has a blob of its own), ordered by key. */
  blobs: BlobEntry[];
  projects: number;
  /** The last schema migration applied, or null on a database never migrated. */
  migration: string | null;
}

// The same three reads on both engines; bigint columns come back as strings from pg, so every number is converted.
const BLOBS_SQL = 'select blob_key, size_bytes, sha256 from attachments order by blob_key';
const PROJECTS_SQL = 'select count(*) as n from projects';
const MIGRATION_SQL = 'select name from kysely_migration order by name desc limit 1';

interface BlobRow { blob_key: string; size_bytes: number | string; sha256: string }

function toFacts(rows: BlobRow[], projects: number | string, migration: string | undefined): SnapshotFacts {
  return {
    blobs: rows.map((r) => ({ key: r.blob_key, size: Number(r.size_bytes), sha256: r.sha256 })),
    projects: Number(projects),
    migration: migration ?? null,
  };
}

/**
 * Copies the live SQLite database `source` to `target` with SQLite's online backup, on a connection of its own.
 * All pages go in one step, which reads one consistent snapshot (WAL lets the server write meanwhile); stepping
 * in small pieces would start over at every write the server commits and might never finish under load. The
 * copy is switched to a rollback journal so that it is one self-contained file.
 */
export async function snapshotSqlite(source: string, target: string): Promise<void> {
  let db: BetterSqlite3.Database;
  try {
    db = new SqliteBinding(source, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError('setup', `cannot open the SQLite database ${source}: ${(error as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(target, { progress: () => 0x7fffffff });
  } finally {
    db.close();
  }
  const copy = new SqliteBinding(target, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
  } finally {
    copy.close();
  }
}

/** Reads the facts of a SQLite file (a snapshot copy), after SQLite's own integrity check of it. */
export function describeSqlite(file: string): SnapshotFacts {
  const db = new SqliteBinding(file, { readonly: true, fileMustExist: true });
  try {
    const check = (db.pragma('integrity_check') as { integrity_check: string }[]).map((r) => r.integrity_check);
    if (check.length !== 1 || check[0] !== 'ok') throw new BackupError('archive', `the database fails SQLite's integrity check: ${check.slice(0, 3).join('; ')}`);
    const rows = db.prepare(BLOBS_SQL).all() as BlobRow[];
    const projects = (db.prepare(PROJECTS_SQL).get() as { n: number }).n;
    const migration = (db.prepare(MIGRATION_SQL).get() as { name: string } | undefined)?.name;
    return toFacts(rows, projects, migration);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError('archive', `the database is not an apas database: ${(error as Error).message}`);
  } finally {
    db.close();
  }
}

/**
 * Checks that every blob of `blobs` is whole in the SQLite file's `blob_chunks` (the database blob store): its
 * chunks' bytes have the size and SHA-256 its attachment row says. Returns the problems, one line each.
 */
export function verifySqliteChunks(file: string, blobs: BlobEntry[]): string[] {
  const db = new SqliteBinding(file, { readonly: true, fileMustExist: true });
  try {
    const chunks = db.prepare('select data from blob_chunks where blob_key = ? order by seq');
    const problems: string[] = [];
    for (const b of blobs) {
      const hash = createHash('sha256');
      let size = 0;
      for (const row of chunks.iterate(b.key) as Iterable<{ data: Buffer }>) {
        hash.update(row.data);
        size += row.data.length;
      }
      const sha256 = hash.digest('hex');
      if (size !== b.size || sha256 !== b.sha256) problems.push(`blob ${b.key}: ${size} bytes with SHA-256 ${sha256}, but its attachment row says ${b.size} bytes with ${b.sha256}`);
    }
    return problems;
  } finally {
    db.close();
  }
}

/**
 * Reads the facts of a PostgreSQL database in one read-only, repeatable-read transaction (one snapshot). Throws
 * BackupError('setup') when the database cannot be reached or holds no apas tables.
 */
export async function describePostgres(url: string): Promise<SnapshotFacts> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  try {
    await client.connect();
  } catch (error) {
    throw new BackupError('setup', `cannot reach the PostgreSQL database: ${(error as Error).message}`);
  }
  try {
    await client.query('begin transaction isolation level repeatable read read only');
    const rows = (await client.query<BlobRow>(BLOBS_SQL)).rows;
    const projects = (await client.query<{ n: string }>(PROJECTS_SQL)).rows[0]!.n;
    const migration = (await client.query<{ name: string }>(MIGRATION_SQL)).rows[0]?.name;
    await client.query('commit');
    return toFacts(rows, projects, migration);
  } catch (error) {
    throw new BackupError('setup', `cannot read the apas tables of the PostgreSQL database: ${(error as Error).message}`);
  } finally {
    await client.end().catch(() => {});
  }
}
