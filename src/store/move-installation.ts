import path from 'node:path';
import type { Readable } from 'node:stream';
import { type QueryExecutorProvider, sql } from 'kysely';
import type { Config } from '../config.ts';
import { BackupError } from './backup-error.ts';
import type { StoredBlob } from './blob-store.ts';
import { StoreError } from './store-error.ts';
import { type MoveSource, openMoveSource } from './move-source.ts';
import { batchRows, insertRows, keyOf, readBatch, type Row } from './move-rows.ts';
import { countedColumns, counterValue, highestNumber, type MovedTable, movedTables, setCounter } from './move-schema.ts';
import { finishMoveTarget, type MoveTarget, openMoveTarget } from './move-target.ts';
import { existingSecretBox } from './open-secret-box.ts';
import { describeUnreadable, findUnreadableSecrets, unreadableCount } from './unreadable-secrets.ts';

/** What a move needs: the installation it reads (the configuration) and the one it writes (the same with another database and blob store). */
export interface MoveOptions {
  source: Config;
  target: Config;
  /** Copy the files only, leaving the tables for a later run: done while the source still serves (files never change). */
  filesOnly?: boolean;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
  /** Rows per batch (at most); tests make it small. */
  batchRows?: number;
  /** Called after each batch is committed in the target; a test throws here to interrupt the move. */
  afterBatch?: (table: string, copied: number) => void | Promise<void>;
}

/** What a move copied: rows per table and files. */
export interface MoveReport { resumed: boolean; tables: { name: string; rows: number }[]; files: number; filesShared: boolean; finished: boolean }

type FilePlace = Pick<Config, 'blobStore' | 'blobDir'> & Partial<Pick<Config, 's3'>>;

/**
 * True when the target keeps its files in the very place the source does (the same directory, or the same prefix of
 * the same bucket): then nothing is copied and every blob key stays. Files in a database are always copied, into the
 * target's store, and so are files moving to another bucket or prefix.
 */
export function filesShared(source: FilePlace, target: FilePlace): boolean {
  if (source.blobStore !== target.blobStore || source.blobStore === 'database') return false;
  if (source.blobStore === 'local') return path.resolve(source.blobDir) === path.resolve(target.blobDir);
  const [a, b] = [source.s3, target.s3];
  return !a || !b || (a.endpoint === b.endpoint && a.bucket === b.bucket && a.prefix === b.prefix);
}

// Sealed values are copied as they are, so the key the target will run with must open them: checked before anything is written.
async function checkKeys(source: MoveSource, target: Config): Promise<void> {
  let keys: ReturnType<typeof existingSecretBox>;
  try {
    keys = existingSecretBox(target);
  } catch (error) {
    throw new BackupError('setup', (error as Error).message);
  }
  const found = await findUnreadableSecrets(source.opened.db, keys?.box ?? null);
  if (found.sealed === 0 || unreadableCount(found) === 0) return;
  const where = target.database.kind === 'sqlite' ? `the key file beside ${target.database.file} (apas-secret.key), APAS_SECRET_KEY_FILE or APAS_SECRET_KEYS` : 'APAS_SECRET_KEY_FILE or APAS_SECRET_KEYS';
  throw new BackupError('keys', `the source holds ${found.sealed} sealed secrets and ${describeUnreadable(found)} of them do not open with the key the target will use (${keys?.source ?? 'none configured'}): they are copied sealed, so give the target the source's key through ${where}`);
}

/** Copies one source file into the target's store and records where it went; the copy is checked against the attachment row. */
async function copyFile(source: MoveSource, target: MoveTarget, blob: { key: string; size: number; sha256: string }): Promise<void> {
  let stream: Readable;
  try {
    stream = await source.blobs.read(blob.key);
  } catch (error) {
    throw new BackupError('setup', `the file of an attachment (blob ${blob.key}) cannot be read from the source: ${(error as Error).message}`);
  }
  let stored: StoredBlob;
  try {
    stored = await target.blobs.write(stream, blob.size);
  } catch (error) {
    if (error instanceof StoreError && error.code === 'BLOB_TOO_LARGE') throw new BackupError('setup', `blob ${blob.key} of the source has more bytes than its attachment row says (${blob.size})`);
    throw error;
  } finally {
    stream.destroy();
  }
  if (stored.size !== blob.size || stored.sha256 !== blob.sha256) {
    await target.blobs.delete(stored.key);
    throw new BackupError('setup', `blob ${blob.key} of the source is damaged: ${stored.size} bytes with SHA-256 ${stored.sha256}, but its attachment row says ${blob.size} bytes with ${blob.sha256}`);
  }
  await sql`insert into apas_move_blobs (source_key, target_key) values (${blob.key}, ${stored.key})`.execute(target.opened.db);
}

async function mappedKeys(db: QueryExecutorProvider, keys: string[]): Promise<Map<string, string>> {
  if (keys.length === 0) return new Map();
  const rows = (await sql<{ source_key: string; target_key: string }>`select source_key, target_key from apas_move_blobs where source_key in (${sql.join(keys)})`.execute(db)).rows;
  return new Map(rows.map((r) => [r.source_key, r.target_key]));
}

/** Copies the files of `rows` (attachment rows) not copied yet; returns how many it copied. */
async function copyFiles(source: MoveSource, target: MoveTarget, rows: Row[]): Promise<number> {
  const done = await mappedKeys(target.opened.db, rows.map((r) => String(r.blob_key)));
  let copied = 0;
  for (const r of rows) {
    const key = String(r.blob_key);
    if (done.has(key)) continue;
    await copyFile(source, target, { key, size: Number(r.size_bytes), sha256: String(r.sha256) });
    done.set(key, '');
    copied++;
  }
  return copied;
}

/** Copies every file the source's attachment rows reference that the target lacks. */
async function copyAllFiles(source: MoveSource, target: MoveTarget, log: (line: string) => void): Promise<number> {
  const attachments: MovedTable = { name: 'attachments', columns: ['blob_key', 'size_bytes', 'sha256'], primaryKey: ['blob_key'], parents: [] };
  let copied = 0;
  let after: unknown[] | null = null;
  for (;;) {
    const rows = await readBatch(source.opened.db, attachments, after, 200);
    copied += await copyFiles(source, target, rows);
    if (rows.length < 200) break;
    after = keyOf(attachments, rows.at(-1)!);
  }
  if (copied > 0) log(`Copied ${copied} files.`);
  return copied;
}

interface TableProgress { last_key: string | null; copied: number | string; done: number | string }

/** Copies one table in batches from where the last run stopped; each batch commits together with its progress. */
async function copyTable(source: MoveSource, target: MoveTarget, table: MovedTable, options: MoveOptions, shared: boolean): Promise<number> {
  const db = target.opened.db;
  let progress = (await sql<TableProgress>`select last_key, copied, done from apas_move_tables where name = ${table.name}`.execute(db)).rows[0];
  if (!progress) {
    await sql`insert into apas_move_tables (name, last_key, copied, done) values (${table.name}, null, 0, 0)`.execute(db);
    progress = { last_key: null, copied: 0, done: 0 };
  }
  let copied = Number(progress.copied);
  if (Number(progress.done) === 1) return copied;
  let after = progress.last_key === null ? null : (JSON.parse(progress.last_key) as unknown[]);
  const limit = batchRows(table, options.batchRows);
  for (;;) {
    const rows = await readBatch(source.opened.db, table, after, limit);
    let values = rows;
    if (table.name === 'attachments' && !shared) {
      // Rows that arrived after the files were copied bring theirs now; every row then points at its copy.
      await copyFiles(source, target, rows);
      const keys = await mappedKeys(db, rows.map((r) => String(r.blob_key)));
      values = rows.map((r) => ({ ...r, blob_key: keys.get(String(r.blob_key))! }));
    }
    const last = rows.length > 0 ? JSON.stringify(keyOf(table, rows.at(-1)!)) : progress.last_key;
    const done = rows.length < limit ? 1 : 0;
    try {
      await db.transaction().execute(async (trx) => {
        await insertRows(trx, table, values);
        await sql`update apas_move_tables set last_key = ${last}, copied = ${copied + rows.length}, done = ${done} where name = ${table.name}`.execute(trx);
      });
    } catch (error) {
      // A value one engine keeps and the other refuses, say: name where, so that the operator can look at the row.
      throw new BackupError('setup', `the target refused rows of ${table.name} after key ${after === null ? '(none)' : JSON.stringify(after)}: ${(error as Error).message}`);
    }
    copied += rows.length;
    await options.afterBatch?.(table.name, copied);
    if (done) return copied;
    after = JSON.parse(last!) as unknown[];
  }
}

/**
 * Refuses to finish when the source's tables hold other numbers of rows than were copied: something wrote to the
 * source during the move (a server still running on it), so the copy is a mixture of moments.
 */
async function checkUnchanged(source: MoveSource, target: MoveTarget, tables: { name: string; rows: number }[]): Promise<void> {
  const count = async (db: QueryExecutorProvider, table: string) => Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db)).rows[0]!.n);
  for (const t of tables) {
    const [now, copied] = [await count(source.opened.db, t.name), await count(target.opened.db, t.name)];
    if (now !== copied) {
      throw new BackupError('setup', `the source changed while it was moved (${t.name} has ${now} rows now, ${copied} were copied): is a server still running on it? Stop it, then move again into a new, empty target`);
    }
  }
}

/**
 * Copies an installation into another database and blob store (docs/operations.md, "Moving an installation"): the
 * target is migrated by this version, files are copied through the blob stores and checked against their rows,
 * tables go parents first in primary-key batches, and the database's own counters (event sequences) are carried
 * over. Resumable: an interrupted move continues from the bookkeeping it keeps in the target. The source is opened
 * read-only and never changed.
 */
export async function moveInstallation(options: MoveOptions): Promise<MoveReport> {
  const log = options.log ?? (() => {});
  const shared = filesShared(options.source, options.target);
  const source = await openMoveSource(options.source);
  try {
    await checkKeys(source, options.target);
    const { target, resumed } = await openMoveTarget(options.target, source.describe, shared);
    try {
      if (resumed) log('Continuing the unfinished move into this target.');
      const files = shared ? 0 : await copyAllFiles(source, target, log);
      if (options.filesOnly) return { resumed, tables: [], files, filesShared: shared, finished: false };
      const tables = await movedTables(target.opened.db, target.opened.dialect);
      const report: MoveReport = { resumed, tables: [], files, filesShared: shared, finished: true };
      for (const table of tables) {
        const rows = await copyTable(source, target, table, options, shared);
        report.tables.push({ name: table.name, rows });
      }
      await checkUnchanged(source, target, report.tables);
      for (const counted of await countedColumns(target.opened.db, target.opened.dialect)) {
        const given = Math.max(await counterValue(source.opened.db, source.opened.dialect, counted), await highestNumber(target.opened.db, counted));
        await setCounter(target.opened.db, target.opened.dialect, counted, given);
      }
      await finishMoveTarget(target.opened.db);
      log(`Moved ${report.tables.reduce((n, t) => n + t.rows, 0)} rows in ${report.tables.length} tables and ${files} files.`);
      return report;
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
