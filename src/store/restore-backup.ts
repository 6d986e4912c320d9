import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import tar from 'tar-stream';
import type { Config } from '../config.ts';
import { AGE_MAGIC, decryptStream } from './backup-encryption.ts';
import { BackupError } from './backup-error.ts';
import { type BackupManifest, type BlobEntry, ENTRY, parseBlobIndex, parseManifest } from './backup-manifest.ts';
import { describePostgres, describeSqlite, type SnapshotFacts, verifySqliteChunks } from './backup-snapshot.ts';
import { s3Settings } from './create-blob-store.ts';
import { LocalBlobStore, syncDirectory } from './local-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
import { checkRestoredKeys, type RestoredDatabase } from './restore-key-check.ts';

/** What a restore needs: the configured database and blob store (the targets), and the archive. */
export interface RestoreOptions {
  config: Pick<Config, 'database' | 'blobStore' | 'blobDir' | 'secretKeys'> & Partial<Pick<Config, 's3'>>;
  /** The archive file (absolute). */
  file: string;
  /** Verify the archive completely (into a temporary directory) but write nothing to the configured places. */
  checkOnly?: boolean;
  /** Progress lines for the operator. */
  log?: (line: string) => void;
  /** age identities (`AGE-SECRET-KEY-1…`) that open an encrypted archive. */
  identities?: string[];
  /** The key of the sealed secrets is lost: restore even though the configured key does not open them (restore-key-check.ts). */
  keyLost?: boolean;
}

/** What a restore found (and, unless checking only, wrote). */
export interface RestoreReport { manifest: BackupManifest; blobs: number; bytes: number }

/** Where a restore writes before it moves everything into place at once. */
interface Staging {
  root: string | null; database: string | null; blobs: string | null;
  /** Directories made for the targets, removed again (if still empty) when the restore fails. */
  made: string[];
}

const MANIFEST_LIMIT = 1024 * 1024;

function damaged(message: string): BackupError {
  return new BackupError('archive', `not a usable apas backup: ${message}`);
}

async function isNonEmptyDirectory(dir: string): Promise<boolean> {
  try {
    return (await fsp.readdir(dir)).length > 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return true;
    throw error;
  }
}

/** Refuses a target that holds anything: a restore never mixes two installations or overwrites one. */
async function checkTargetEmpty(config: RestoreOptions['config'], manifest: BackupManifest): Promise<void> {
  if (config.database.kind === 'sqlite') {
    const file = config.database.file;
    for (const f of [file, `${file}-wal`, `${file}-journal`]) {
      if (fs.existsSync(f)) throw new BackupError('target', `the target is not empty: ${f} exists. Restore into a new data directory, or move the old data away first`);
    }
  }
  if (manifest.blobStore === 'local' && (await isNonEmptyDirectory(config.blobDir))) {
    throw new BackupError('target', `the target is not empty: the blob directory ${config.blobDir} holds files. Restore into a new data directory, or move the old data away first`);
  }
  if (manifest.blobStore === 's3') {
    const bucket = s3Settings(config);
    if (await new S3BlobStore(bucket).holdsBlobs()) {
      throw new BackupError('target', `the target is not empty: the bucket ${bucket.bucket} holds files under the prefix "${bucket.prefix}". Restore into an empty bucket or a new APAS_S3_PREFIX`);
    }
  }
}

/** Refuses a configuration under which the restored installation would not find its data. */
function checkConfig(config: RestoreOptions['config'], manifest: BackupManifest): void {
  if (manifest.dialect !== config.database.kind) {
    throw new BackupError('setup', `this is a backup of a ${manifest.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL'} installation, but DATABASE_URL names a ${config.database.kind === 'sqlite' ? 'SQLite file' : 'PostgreSQL database'}`);
  }
  if (manifest.blobStore !== config.blobStore) {
    throw new BackupError('setup', `this backup was taken with APAS_BLOB_STORE=${manifest.blobStore}, but it is ${config.blobStore} here; set APAS_BLOB_STORE=${manifest.blobStore}`);
  }
  if (config.database.kind === 'sqlite' && config.database.file === ':memory:') throw new BackupError('setup', 'cannot restore into an in-memory database');
}

function stagingFor(options: RestoreOptions, manifest: BackupManifest): Staging {
  const tag = randomBytes(6).toString('hex');
  const { config } = options;
  if (options.checkOnly) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'apas-restore-check-'));
    return { root, database: manifest.database ? path.join(root, 'apas.db') : null, blobs: manifest.blobStore === 'database' ? null : path.join(root, 'blobs'), made: [] };
  }
  // Next to their targets, so that the final moves are renames within one file system.
  const made: string[] = [];
  const beside = (target: string) => {
    const first = fs.mkdirSync(path.dirname(target), { recursive: true });
    // Every directory from the target's up to the first one made, deepest first.
    for (let d = path.dirname(target); first !== undefined && d.startsWith(first); d = path.dirname(d)) made.push(d);
    return path.join(path.dirname(target), `.${path.basename(target)}.restore-${tag}`);
  };
  // A bucket's files are staged in the temporary directory and uploaded once everything checked out.
  const root = manifest.blobStore === 's3' ? fs.mkdtempSync(path.join(os.tmpdir(), 'apas-restore-')) : null;
  return {
    root,
    database: manifest.database && config.database.kind === 'sqlite' ? beside(config.database.file) : null,
    blobs: root !== null ? path.join(root, 'blobs') : manifest.blobStore === 'local' ? beside(config.blobDir) : null,
    made,
  };
}

/** Writes `source` to `file` (fsynced), returning its size and SHA-256. */
async function writeHashed(source: AsyncIterable<Buffer>, file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  const handle = await fsp.open(file, 'wx', 0o600);
  try {
    // A plain loop: node's pipeline() does not always see the end of tar-stream's (streamx) entry streams.
    for await (const chunk of source) {
      hash.update(chunk);
      size += chunk.length;
      for (let offset = 0; offset < chunk.length;) offset += (await handle.write(chunk, offset, chunk.length - offset)).bytesWritten;
    }
    await handle.sync();
  } finally {
    await handle.close();
  }
  return { size, sha256: hash.digest('hex') };
}

async function readAll(source: AsyncIterable<Buffer>, limit: number, what: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of source) {
    size += (chunk as Buffer).length;
    if (size > limit) throw damaged(`${what} is larger than ${limit} bytes`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** Tar and stream failures mean a damaged file; file-system failures (no space, no permission) are not the archive's fault. */
function asArchiveError(error: unknown): unknown {
  if (error instanceof BackupError || (error as NodeJS.ErrnoException).syscall !== undefined) return error;
  return damaged(`the file is truncated or corrupt (${(error as Error).message})`);
}

/** State while the entries stream by. */
class Extraction {
  index: Map<string, BlobEntry> | null = null;
  databaseSeen = false;
  readonly seen = new Set<string>();
  readonly dirs = new Set<string>();

  constructor(readonly manifest: BackupManifest, readonly staging: Staging) {}

  async entry(name: string, type: string | null | undefined, body: AsyncIterable<Buffer>): Promise<void> {
    if (type !== 'file') throw damaged(`unexpected ${type} entry ${JSON.stringify(name)}`);
    if (name === ENTRY.database && this.staging.database && !this.databaseSeen) return this.database(body);
    if (name === ENTRY.blobIndex && this.index === null) return this.blobIndex(body);
    if (name.startsWith(ENTRY.blobPrefix) && this.index !== null && this.staging.blobs) return this.blob(name.slice(ENTRY.blobPrefix.length), body);
    throw damaged(`unexpected entry ${JSON.stringify(name.slice(0, 200))}`);
  }

  async database(body: AsyncIterable<Buffer>): Promise<void> {
    const got = await writeHashed(body, this.staging.database!);
    const want = this.manifest.database!;
    if (got.size !== want.bytes || got.sha256 !== want.sha256) throw damaged(`the database file has ${got.size} bytes with SHA-256 ${got.sha256}; the manifest says ${want.bytes} with ${want.sha256}`);
    this.databaseSeen = true;
  }

  async blobIndex(body: AsyncIterable<Buffer>): Promise<void> {
    const text = await readAll(body, 512 * (this.manifest.blobs.count + 1), 'the blob index');
    const sha256 = createHash('sha256').update(text).digest('hex');
    if (sha256 !== this.manifest.blobs.indexSha256) throw damaged('the blob index does not match its checksum in the manifest');
    const index = parseBlobIndex(text.toString('utf8'));
    const bytes = [...index.values()].reduce((n, b) => n + b.size, 0);
    if (index.size !== this.manifest.blobs.count || bytes !== this.manifest.blobs.bytes) throw damaged('the blob index does not match the counts in the manifest');
    this.index = index;
  }

  async blob(key: string, body: AsyncIterable<Buffer>): Promise<void> {
    const want = this.index!.get(key);
    if (!want || this.seen.has(key)) throw damaged(`unexpected blob entry ${JSON.stringify(key.slice(0, 100))}`);
    const target = new LocalBlobStore(this.staging.blobs!).pathOf(key);
    const dir = path.dirname(target);
    if (!this.dirs.has(dir)) {
      await fsp.mkdir(dir, { recursive: true });
      this.dirs.add(dir);
    }
    const got = await writeHashed(body, target);
    if (got.size !== want.size || got.sha256 !== want.sha256) throw damaged(`blob ${key} has ${got.size} bytes with SHA-256 ${got.sha256}; its record says ${want.size} with ${want.sha256}`);
    this.seen.add(key);
  }

  /** After the last entry: everything the manifest promised arrived. */
  complete(): void {
    if (this.staging.database && !this.databaseSeen) throw damaged('the database file is missing');
    if (this.index === null) throw damaged('the blob index is missing');
    if (this.seen.size !== this.index.size) throw damaged(`${this.index.size - this.seen.size} of its ${this.index.size} files are missing (a truncated file?)`);
  }
}

/** Every attachment row of the database must find its file, whole, in the backup. */
function checkReferences(facts: SnapshotFacts, manifest: BackupManifest, index: Map<string, BlobEntry>, databaseFile: string | null): string[] {
  if (manifest.blobStore === 'database') return databaseFile ? verifySqliteChunks(databaseFile, facts.blobs) : [];
  const problems: string[] = [];
  for (const b of facts.blobs) {
    const found = index.get(b.key);
    if (!found) problems.push(`blob ${b.key} is referenced by an attachment but not in the backup`);
    else if (found.size !== b.size || found.sha256 !== b.sha256) problems.push(`blob ${b.key} differs from its attachment row`);
  }
  return problems;
}

async function verifyDatabase(options: RestoreOptions, manifest: BackupManifest, extraction: Extraction): Promise<void> {
  const index = extraction.index!;
  if (manifest.dialect === 'sqlite') {
    const facts = describeSqlite(extraction.staging.database!);
    if (facts.projects !== manifest.counts.projects || facts.blobs.length !== manifest.counts.attachments) throw damaged('the database does not hold the counts the manifest says');
    const problems = checkReferences(facts, manifest, index, extraction.staging.database);
    if (problems.length > 0) throw damaged(`${problems.length} attachment(s) lack their file: ${problems.slice(0, 3).join('; ')}`);
    return;
  }
  // PostgreSQL: the pg_dump was restored first; it must not reference a file this backup lacks.
  if (options.checkOnly || options.config.database.kind !== 'postgres') return;
  let facts: SnapshotFacts;
  try {
    facts = await describePostgres(options.config.database.url);
  } catch (error) {
    throw new BackupError('setup', `${(error as Error).message}; restore the pg_dump into DATABASE_URL first, then this file`);
  }
  const problems = checkReferences(facts, manifest, index, null);
  if (problems.length > 0) {
    throw new BackupError('setup', `the PostgreSQL database references ${problems.length} file(s) this backup lacks (was the pg_dump taken after this backup instead of before?): ${problems.slice(0, 3).join('; ')}`);
  }
}

/** Tries the sealed secrets of the restored database with the key the installation will use (restore-key-check.ts). */
async function checkKeys(options: RestoreOptions, manifest: BackupManifest, extraction: Extraction): Promise<void> {
  const { config } = options;
  let target: RestoredDatabase | null = null;
  if (manifest.dialect === 'sqlite') target = { kind: 'sqlite', file: extraction.staging.database! };
  else if (!options.checkOnly && config.database.kind === 'postgres') target = { kind: 'postgres', url: config.database.url };
  if (target === null) return;
  await checkRestoredKeys(target, { config, checkOnly: options.checkOnly === true, keyLost: options.keyLost === true, log: options.log ?? (() => {}) });
}

/** Moves the staged database and blob directory into place: the blob directory first, the database file last. */
async function commit(options: RestoreOptions, manifest: BackupManifest, extraction: Extraction): Promise<void> {
  const { config } = options;
  const { staging } = extraction;
  for (const dir of extraction.dirs) await syncDirectory(dir);
  await checkTargetEmpty(config, manifest);
  if (staging.blobs && manifest.blobStore === 's3') await uploadBlobs(new S3BlobStore(s3Settings(config)), staging.blobs, extraction.index!);
  else if (staging.blobs) {
    await fsp.mkdir(staging.blobs, { recursive: true });
    for (const dir of new Set([...extraction.dirs].map((d) => path.dirname(d)))) await syncDirectory(dir);
    await syncDirectory(staging.blobs);
    // An empty directory may stand there (checked above); it gives way to the restored one.
    await fsp.rmdir(config.blobDir).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
    await fsp.rename(staging.blobs, config.blobDir);
    await syncDirectory(path.dirname(config.blobDir));
  }
  if (staging.database && config.database.kind === 'sqlite') {
    await fsp.rename(staging.database, config.database.file);
    await syncDirectory(path.dirname(config.database.file));
  }
}

/** Puts the staged files into the bucket under their own keys, checked once more on the way; a failure takes back what it put. */
async function uploadBlobs(bucket: S3BlobStore, dir: string, index: Map<string, BlobEntry>): Promise<void> {
  const staged = new LocalBlobStore(dir);
  const put: string[] = [];
  try {
    for (const want of index.values()) {
      const got = await bucket.writeAt(want.key, await staged.read(want.key), want.size);
      put.push(want.key);
      if (got.size !== want.size || got.sha256 !== want.sha256) throw new BackupError('setup', `blob ${want.key} changed on its way into the bucket`);
    }
  } catch (error) {
    for (const key of put) await bucket.delete(key).catch(() => {});
    throw error;
  }
}

function isAge(fd: number): boolean {
  const head = Buffer.alloc(AGE_MAGIC.length);
  const read = fs.readSync(fd, head, 0, head.length, 0);
  return head.subarray(0, read).toString('latin1') === AGE_MAGIC;
}

// The archive's bytes: as they are, or decrypted on the way when the file is an age file.
async function openArchive(options: RestoreOptions): Promise<Readable> {
  let fd: number;
  try {
    fd = fs.openSync(options.file, 'r');
  } catch (error) {
    throw new BackupError('archive', `cannot read ${options.file}: ${(error as Error).message}`);
  }
  const encrypted = isAge(fd);
  const raw = fs.createReadStream('', { fd, start: 0 });
  if (!encrypted) return raw;
  if ((options.identities ?? []).length === 0) {
    raw.destroy();
    throw new BackupError('setup', `${options.file} is encrypted: name the identity file that opens it with --identity-file`);
  }
  try {
    return await decryptStream(raw, options.identities!);
  } catch (error) {
    raw.destroy();
    throw error;
  }
}

/**
 * Restores a backup made by `createBackup` into an empty target: the SQLite file DATABASE_URL names and the blob
 * directory APAS_BLOB_DIR or the bucket APAS_S3_BUCKET (on PostgreSQL, only the files; the database comes from pg_dump). Everything is
 * written beside the targets and verified (checksums, counts, SQLite's integrity check, every attachment's file)
 * before anything is moved into place, so a damaged archive or a refused target changes nothing.
 */
export async function restoreBackup(options: RestoreOptions): Promise<RestoreReport> {
  const log = options.log ?? (() => {});
  const input = await openArchive(options);
  const extract = tar.extract();
  const feeding = pipeline(input, extract);
  // The tar parser's own complaint (say, an unexpected end) says more than the destroyed entry stream that follows it.
  let feedError: unknown;
  feeding.catch((error: unknown) => (feedError = error));
  const reading = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw asArchiveError(error instanceof BackupError || feedError === undefined ? error : feedError);
    }
  };
  const entries = extract[Symbol.asyncIterator]();
  let staging: Staging | null = null;
  let committed = false;
  try {
    const manifest = await reading(async () => {
      const first = await entries.next();
      if (first.done || first.value.header.name !== ENTRY.manifest) throw damaged('it does not start with manifest.json');
      return parseManifest((await readAll(first.value as AsyncIterable<Buffer>, MANIFEST_LIMIT, 'manifest.json')).toString('utf8'));
    });
    log(`Backup of ${manifest.createdAt} by apas ${manifest.apasVersion}: ${manifest.dialect}, ${manifest.counts.projects} projects, ${manifest.counts.attachments} attachment versions, ${manifest.blobs.count} files.`);
    if (!options.checkOnly) {
      checkConfig(options.config, manifest);
      await checkTargetEmpty(options.config, manifest);
    }
    staging = stagingFor(options, manifest);
    const extraction = new Extraction(manifest, staging);
    await reading(async () => {
      for (let next = await entries.next(); !next.done; next = await entries.next()) {
        await extraction.entry(next.value.header.name, next.value.header.type, next.value as AsyncIterable<Buffer>);
      }
      await feeding;
    });
    extraction.complete();
    await verifyDatabase(options, manifest, extraction);
    await checkKeys(options, manifest, extraction);
    if (!options.checkOnly) await commit(options, manifest, extraction);
    committed = true;
    return { manifest, blobs: extraction.seen.size, bytes: manifest.blobs.bytes };
  } finally {
    input.destroy();
    extract.destroy();
    if (staging?.root) await fsp.rm(staging.root, { recursive: true, force: true });
    if (staging?.blobs) await fsp.rm(staging.blobs, { recursive: true, force: true });
    if (staging?.database) await fsp.rm(staging.database, { force: true });
    // rmdir removes only empty directories, so nothing restored or found there is touched.
    if (!committed) for (const dir of staging?.made ?? []) await fsp.rmdir(dir).catch(() => {});
  }
}
