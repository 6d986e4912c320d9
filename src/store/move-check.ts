import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { type QueryExecutorProvider, sql } from 'kysely';
import type { Config } from '../config.ts';
import { BackupError } from './backup-error.ts';
import type { BlobStore } from './blob-store.ts';
import { createBlobStore } from './create-blob-store.ts';
import { openMoveSource } from './move-source.ts';
import { allRows, type Row } from './move-rows.ts';
import { countedColumns, counterValue, type MovedTable, movedTables } from './move-schema.ts';
import { createKyselyStore } from './kysely-store.ts';
import { openDatabase } from './database.ts';
import { lazySecretBox } from './secret-box.ts';

/** What `apas move --check` compared and the differences it found (none: the target is a whole copy of the source). */
export interface MoveCheckReport { tables: { name: string; source: number; target: number }[]; files: number; differences: string[] }

const MOD = 1n << 256n;

// One spelling of a value on both engines: numbers as their shortest decimal, bytes as hex, text as text.
function canonical(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return { bytes: Buffer.from(value).toString('hex') };
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  return value;
}

/**
 * A table's rows and their digest: the sum of every row's SHA-256, so it does not depend on the order rows come in
 * (the engines sort text differently). The file keys of attachment rows are left out: a move between stores gives
 * files new keys, and the files themselves are compared by their bytes.
 */
async function digestTable(db: QueryExecutorProvider, table: MovedTable): Promise<{ rows: number; digest: bigint }> {
  const columns = table.columns.filter((c) => !(table.name === 'attachments' && c === 'blob_key'));
  let rows = 0;
  let digest = 0n;
  for await (const batch of allRows(db, table)) {
    for (const row of batch) {
      const hash = createHash('sha256').update(JSON.stringify(columns.map((c) => canonical(row[c])))).digest('hex');
      digest = (digest + BigInt(`0x${hash}`)) % MOD;
      rows++;
    }
  }
  return { rows, digest };
}

async function fileSha256(blobs: BlobStore, key: string): Promise<{ size: number; sha256: string } | string> {
  try {
    const hash = createHash('sha256');
    let size = 0;
    for await (const chunk of await blobs.read(key)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { size, sha256: hash.digest('hex') };
  } catch (error) {
    return (error as Error).message;
  }
}

async function checkFiles(sourceDb: QueryExecutorProvider, sourceBlobs: BlobStore, targetDb: QueryExecutorProvider, targetBlobs: BlobStore, differences: string[]): Promise<number> {
  const table: MovedTable = { name: 'attachments', columns: ['id', 'blob_key', 'size_bytes', 'sha256'], primaryKey: ['id'], parents: [] };
  let files = 0;
  for await (const batch of allRows(sourceDb, table, 200)) {
    const ids = batch.map((r) => String(r.id));
    const there = new Map(((await sql<Row>`select id, blob_key from attachments where id in (${sql.join(ids)})`.execute(targetDb)).rows).map((r) => [String(r.id), String(r.blob_key)]));
    for (const row of batch) {
      files++;
      const want = { size: Number(row.size_bytes), sha256: String(row.sha256) };
      const mine = await fileSha256(sourceBlobs, String(row.blob_key));
      if (typeof mine === 'string' || mine.sha256 !== want.sha256 || mine.size !== want.size) differences.push(`attachment ${row.id}: the source's file ${row.blob_key} does not match its row (${typeof mine === 'string' ? mine : `${mine.size} bytes, SHA-256 ${mine.sha256}`})`);
      const key = there.get(String(row.id));
      if (key === undefined) continue;
      const theirs = await fileSha256(targetBlobs, key);
      if (typeof theirs === 'string' || theirs.sha256 !== want.sha256 || theirs.size !== want.size) differences.push(`attachment ${row.id}: the target's file ${key} differs from the source's (${typeof theirs === 'string' ? theirs : `${theirs.size} bytes, SHA-256 ${theirs.sha256}`}; want ${want.size} bytes, SHA-256 ${want.sha256})`);
    }
  }
  return files;
}

/**
 * Compares an installation with its moved copy: every table's row count and the digest of its rows, the counters of
 * the columns the database numbers itself (the target's may be ahead, never behind), and the SHA-256 of every file
 * on both sides against its attachment row. Reads only, on both sides.
 */
export async function checkMove(options: { source: Config; target: Config }): Promise<MoveCheckReport> {
  const { database } = options.target;
  if (database.kind === 'sqlite' && !fs.existsSync(database.file)) throw new BackupError('setup', `the target ${database.file} does not exist: nothing was moved there yet`);
  const source = await openMoveSource(options.source);
  try {
    const targetDb = await openDatabase(options.target.database, { migrate: false, poolSize: 2 });
    const targetStore = createKyselyStore(targetDb, {
      secrets: lazySecretBox(() => {
        throw new Error('a check never opens sealed values');
      }),
    });
    try {
      const differences: string[] = [];
      const tdb = targetDb.db;
      const names = targetDb.dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'table' and name = 'apas_move_state'`.execute(tdb)).rows
        : (await sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_name = 'apas_move_state'`.execute(tdb)).rows;
      if (names.length > 0) differences.push('the move into the target is unfinished: run "apas move" again to complete it');
      const report: MoveCheckReport = { tables: [], files: 0, differences };
      const sourceTables = new Map((await movedTables(source.opened.db, source.opened.dialect)).map((t) => [t.name, t]));
      for (const table of await movedTables(tdb, targetDb.dialect)) {
        const mine = sourceTables.get(table.name);
        if (!mine) {
          differences.push(`table ${table.name} is not in the source`);
          continue;
        }
        sourceTables.delete(table.name);
        const a = await digestTable(source.opened.db, { ...mine, columns: table.columns });
        const b = await digestTable(tdb, table);
        report.tables.push({ name: table.name, source: a.rows, target: b.rows });
        if (a.rows !== b.rows) differences.push(`table ${table.name}: ${a.rows} rows in the source, ${b.rows} in the target`);
        else if (a.digest !== b.digest) differences.push(`table ${table.name}: the same ${a.rows} rows in number, but their contents differ`);
      }
      for (const name of sourceTables.keys()) differences.push(`table ${name} is not in the target`);
      for (const counted of await countedColumns(tdb, targetDb.dialect)) {
        const want = await counterValue(source.opened.db, source.opened.dialect, counted);
        const got = await counterValue(tdb, targetDb.dialect, counted);
        if (got < want) differences.push(`${counted.table}.${counted.column}: the target would number the next row ${got + 1}, but the source has given out numbers up to ${want}`);
      }
      report.files = await checkFiles(source.opened.db, source.blobs, tdb, createBlobStore(options.target, targetStore), differences);
      return report;
    } finally {
      await targetStore.close();
    }
  } finally {
    await source.close();
  }
}
