import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Config } from '../config.ts';
import { encryptStream } from './backup-encryption.ts';
import { BackupError } from './backup-error.ts';
import { apasVersion, type BackupManifest, type BlobEntry, ENTRY, FORMAT_VERSION, formatBlobEntry } from './backup-manifest.ts';
import { describePostgres, describeSqlite, type SnapshotFacts, snapshotSqlite, verifySqliteChunks } from './backup-snapshot.ts';
import { s3Settings } from './create-blob-store.ts';
import { LocalBlobStore, syncDirectory } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { StoreError } from './store-error.ts';

/** What a backup needs to know: the configured database and blob store, and where the archive goes. */
export interface BackupOptions {
  config: Pick<Config, 'database' | 'blobStore' | 'blobDir'> & Partial<Pick<Config, 's3'>>;
  /** The archive file (absolute); written under a temporary name and renamed into place only when complete. */
  out: string;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
  /** age recipients (`age1…`) to encrypt the archive for; written in clear when left out. */
  recipients?: string[];
}

/** What a finished backup wrote. */
export interface BackupReport { file: string; bytes: number; manifest: BackupManifest }

/** What the manifest tells a restore on PostgreSQL, and what the CLI repeats to the operator. */
export const PG_DUMP_NOTE = 'The PostgreSQL database is not in this file: it is the pg_dump taken just before this backup. Restore that dump first, then this file.';

function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

async function fileSha256(file: string): Promise<{ bytes: number; sha256: string }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/** Adds one entry of `size` bytes from `source`, checking on the way that the bytes are the ones expected. */
async function addStream(pack: tar.Pack, name: string, source: Readable, expected: { size: number; sha256: string }, mtime: Date, what: string): Promise<void> {
  const hash = createHash('sha256');
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > expected.size) done(new BackupError('setup', `${what} has more bytes than its record says (${expected.size})`));
      else {
        hash.update(chunk);
        done(null, chunk);
      }
    },
  });
  try {
    await pipeline(source, counter, pack.entry({ name, size: expected.size, mode: 0o600, mtime }));
  } catch (error) {
    // A shorter file fails tar's own size check first ("Size mismatch"); it is named like any other damage.
    if (!(error instanceof Error && error.message === 'Size mismatch' && size < expected.size)) throw error;
  }
  const sha256 = hash.digest('hex');
  if (size !== expected.size || sha256 !== expected.sha256) {
    throw new BackupError('setup', `${what} is damaged: ${size} bytes with SHA-256 ${sha256}, but its record says ${expected.size} bytes with ${expected.sha256}`);
  }
}

function addBuffer(pack: tar.Pack, name: string, data: Buffer, mtime: Date): Promise<void> {
  return new Promise((resolve, reject) => {
    pack.entry({ name, size: data.length, mode: 0o600, mtime }, data, (error) => (error ? reject(error) : resolve()));
  });
}

/** The blob's bytes; a missing file is named in the operator's terms, not as a bare ENOENT. */
async function openBlob(blobs: LocalBlobStore | S3BlobStore, blob: BlobEntry): Promise<Readable> {
  try {
    return await blobs.read(blob.key);
  } catch (error) {
    if (!(error instanceof StoreError && error.code === 'BLOB_MISSING')) throw error;
    throw new BackupError('setup', `the file of an attachment (blob ${blob.key}) is missing: ${blobs instanceof LocalBlobStore ? blobs.pathOf(blob.key) : blobs.urlOf(blob.key)}`);
  }
}

/** Where the files to copy are: the blob directory, or the bucket (copied into the archive like the directory). */
function fileSource(config: BackupOptions['config']): LocalBlobStore | S3BlobStore {
  return config.blobStore === 's3' ? new S3BlobStore(s3Settings(config)) : new LocalBlobStore(config.blobDir);
}

/** Reads what the snapshot holds; on SQLite `copy` is the snapshot file, already taken. */
async function readFacts(options: BackupOptions, copy: string | null): Promise<SnapshotFacts> {
  const { config } = options;
  if (config.database.kind === 'postgres') return describePostgres(config.database.url);
  let facts: SnapshotFacts;
  try {
    facts = describeSqlite(copy!);
  } catch (error) {
    // Here the snapshot is of the live database, so what is wrong is the installation, not an archive.
    throw error instanceof BackupError ? new BackupError('setup', error.message) : error;
  }
  if (config.blobStore === 'database') {
    // The blobs are in the database file itself; check them there, since nothing else is copied.
    const problems = verifySqliteChunks(copy!, facts.blobs);
    if (problems.length > 0) throw new BackupError('setup', `${problems.length} stored file(s) are damaged in the database: ${problems.slice(0, 3).join('; ')}`);
  }
  return facts;
}

/**
 * Writes a consistent backup of the installation while the server runs. The database snapshot comes first (SQLite's
 * online backup; on PostgreSQL the operator's pg_dump, taken before this): blobs become durable before the row that
 * references them commits and are deleted only when no row references them, so every blob the snapshot references
 * still exists afterwards and is copied, checked against its row's SHA-256.
 */
export async function createBackup(options: BackupOptions): Promise<BackupReport> {
  const { config, out } = options;
  const log = options.log ?? (() => {});
  if (config.database.kind === 'postgres' && config.blobStore === 'database') {
    throw new BackupError('setup', 'nothing to back up outside PostgreSQL: with APAS_BLOB_STORE=database every file is in the database, so pg_dump alone backs up everything (see docs/operations.md)');
  }
  const sqliteFile = config.database.kind === 'sqlite' ? config.database.file : null;
  if (sqliteFile === ':memory:') throw new BackupError('setup', 'an in-memory database cannot be backed up');
  const dir = path.dirname(out);
  if (!fs.existsSync(dir)) throw new BackupError('setup', `the directory ${dir} does not exist`);
  if (fs.statSync(out, { throwIfNoEntry: false })?.isDirectory()) throw new BackupError('setup', `${out} is a directory; name the backup file to write`);
  const tag = randomBytes(6).toString('hex');
  const partial = path.join(dir, `.${path.basename(out)}.${tag}.partial`);
  // The snapshot goes beside the archive: the operator chose that disk for backups, so it has room for one.
  const copy = sqliteFile === null ? null : path.join(dir, `.${path.basename(out)}.${tag}.sqlite`);
  try {
    const createdAt = new Date();
    if (sqliteFile !== null && copy !== null) {
      await snapshotSqlite(sqliteFile, copy);
      log(`Took a snapshot of the SQLite database ${sqliteFile}.`);
    }
    const facts = await readFacts(options, copy);
    const blobs = config.blobStore === 'database' ? [] : facts.blobs;
    const index = Buffer.from(blobs.map(formatBlobEntry).join(''));
    const database = copy ? { entry: ENTRY.database, ...(await fileSha256(copy)) } : null;
    const manifest: BackupManifest = {
      format: 'apas-backup', formatVersion: FORMAT_VERSION, apasVersion: apasVersion(), createdAt: createdAt.toISOString(),
      dialect: config.database.kind, blobStore: config.blobStore, migration: facts.migration, database,
      ...(config.blobStore === 's3' ? { bucket: { bucket: s3Settings(config).bucket, prefix: s3Settings(config).prefix } } : {}),
      blobs: { index: ENTRY.blobIndex, indexSha256: sha256Hex(index), count: blobs.length, bytes: blobs.reduce((n, b) => n + b.size, 0) },
      counts: { projects: facts.projects, attachments: facts.blobs.length },
      notes: config.database.kind === 'postgres' ? [PG_DUMP_NOTE] : [],
    };
    await writeArchive(partial, manifest, copy, index, blobs, fileSource(config), createdAt, options.recipients ?? []);
    await fsp.rename(partial, out);
    await syncDirectory(dir);
    const { size } = await fsp.stat(out);
    const sealed = (options.recipients ?? []).length > 0 ? ` (encrypted with age for ${options.recipients!.length} recipient(s))` : '';
    log(`Wrote ${out}${sealed}: ${manifest.counts.projects} projects, ${manifest.counts.attachments} attachment versions, ${blobs.length} files (${manifest.blobs.bytes} bytes), ${size} bytes in all.`);
    return { file: out, bytes: size, manifest };
  } finally {
    await fsp.rm(partial, { force: true });
    if (copy) await fsp.rm(copy, { force: true });
  }
}

async function writeArchive(
  file: string, manifest: BackupManifest, copy: string | null, index: Buffer, blobs: BlobEntry[], source: LocalBlobStore | S3BlobStore, mtime: Date,
  recipients: string[],
): Promise<void> {
  const pack = tar.pack();
  const sink = fs.createWriteStream(file, { flags: 'wx', mode: 0o600 });
  // Encrypted on its way to the file, so no clear copy of the archive is ever written.
  const written = recipients.length > 0 ? encryptStream(Readable.from(pack), recipients).then((sealed) => pipeline(sealed, sink)) : pipeline(pack, sink);
  // Awaited below; a failure while entries are still being added must not surface as an unhandled rejection.
  written.catch(() => {});
  try {
    await addBuffer(pack, ENTRY.manifest, Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), mtime);
    if (copy && manifest.database) await addStream(pack, ENTRY.database, fs.createReadStream(copy), { size: manifest.database.bytes, sha256: manifest.database.sha256 }, mtime, 'the database snapshot');
    await addBuffer(pack, ENTRY.blobIndex, index, mtime);
    for (const blob of blobs) await addStream(pack, `${ENTRY.blobPrefix}${blob.key}`, await openBlob(source, blob), blob, mtime, `blob ${blob.key}`);
    pack.finalize();
  } catch (error) {
    pack.destroy();
    throw error;
  }
  await written;
  const handle = await fsp.open(file, 'r+');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
