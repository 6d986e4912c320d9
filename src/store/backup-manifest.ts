import fs from 'node:fs';
import { BackupError } from './backup-error.ts';
import { isBlobKey } from './blob-store.ts';

/** The archive's entries, in the order they are written: the manifest, the database (SQLite), the blob index, the blobs. */
export const ENTRY = { manifest: 'manifest.json', database: 'database.sqlite', blobIndex: 'blob-index.jsonl', blobPrefix: 'blobs/' } as const;

/** The one archive format this code writes and reads; a later format gets a new number. */
export const FORMAT_VERSION = 1;

/** One blob in the archive: its key and what its attachment rows say its bytes are. */
export interface BlobEntry { key: string; size: number; sha256: string }

/** What `manifest.json` says about a backup: where it came from, and the size and SHA-256 of everything in it. */
export interface BackupManifest {
  format: 'apas-backup';
  formatVersion: number;
  /** The apas version (package.json) that wrote it. */
  apasVersion: string;
  /** ISO 8601 UTC: when the database snapshot was taken. */
  createdAt: string;
  dialect: 'sqlite' | 'postgres';
  blobStore: 'local' | 'database' | 's3';
  /** With the s3 store: the bucket and key prefix the files were copied from (a restore puts them into the configured one). */
  bucket?: { bucket: string; prefix: string };
  /** The last schema migration of the snapshot (SQLite), or of the database when the blobs were listed (PostgreSQL). */
  migration: string | null;
  /** The SQLite database file, or null on PostgreSQL, whose database is dumped with pg_dump instead. */
  database: { entry: string; bytes: number; sha256: string } | null;
  /** The blob files in the archive (none with the database blob store; the bucket's objects with s3) and their index, one BlobEntry per line. */
  blobs: { index: string; indexSha256: string; count: number; bytes: number };
  /** Counts for the operator: projects and attachment versions in the snapshot. */
  counts: { projects: number; attachments: number };
  /** What else a restore needs, in words (the pg_dump on PostgreSQL). */
  notes: string[];
}

/** The version in package.json, written into every manifest. */
export function apasVersion(): string {
  const raw = fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8');
  return String((JSON.parse(raw) as { version?: unknown }).version ?? 'unknown');
}

function damaged(message: string): BackupError {
  return new BackupError('archive', `not a usable apas backup: ${message}`);
}

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;
}

const SHA256 = /^[0-9a-f]{64}$/;

/** Parses and checks `manifest.json`; throws BackupError('archive') naming what is wrong. */
export function parseManifest(text: string): BackupManifest {
  let m: BackupManifest;
  try {
    m = JSON.parse(text) as BackupManifest;
  } catch {
    throw damaged('manifest.json is not JSON');
  }
  if (m === null || typeof m !== 'object' || m.format !== 'apas-backup') throw damaged('manifest.json does not describe an apas backup');
  if (m.formatVersion !== FORMAT_VERSION) {
    throw damaged(`it has format version ${JSON.stringify(m.formatVersion)}; this apas reads version ${FORMAT_VERSION}`);
  }
  if (m.dialect !== 'sqlite' && m.dialect !== 'postgres') throw damaged('manifest.json names no known database');
  if (m.blobStore !== 'local' && m.blobStore !== 'database' && m.blobStore !== 's3') throw damaged('manifest.json names no known blob store');
  const db = m.database;
  if (m.dialect === 'sqlite' && (db === null || typeof db !== 'object' || db.entry !== ENTRY.database || !isCount(db.bytes) || !SHA256.test(String(db.sha256)))) {
    throw damaged('manifest.json does not describe the database file');
  }
  if (m.dialect === 'postgres' && db !== null) throw damaged('a PostgreSQL backup holds no database file');
  const b = m.blobs;
  if (b === null || typeof b !== 'object' || b.index !== ENTRY.blobIndex || !SHA256.test(String(b.indexSha256)) || !isCount(b.count) || !isCount(b.bytes)) {
    throw damaged('manifest.json does not describe the blobs');
  }
  if (m.blobStore === 'database' && b.count !== 0) throw damaged('a backup with the database blob store holds no blob files');
  return m;
}

/** One line of the blob index. */
export function formatBlobEntry(b: BlobEntry): string {
  return `${JSON.stringify({ key: b.key, size: b.size, sha256: b.sha256 })}\n`;
}

/** Parses the blob index; throws BackupError('archive') on a bad or repeated line. */
export function parseBlobIndex(text: string): Map<string, BlobEntry> {
  const out = new Map<string, BlobEntry>();
  for (const line of text.split('\n')) {
    if (line === '') continue;
    let b: BlobEntry;
    try {
      b = JSON.parse(line) as BlobEntry;
    } catch {
      throw damaged('a line of the blob index is not JSON');
    }
    if (!isBlobKey(String(b?.key)) || !isCount(b.size) || !SHA256.test(String(b.sha256)) || out.has(b.key)) {
      throw damaged(`bad blob index line ${JSON.stringify(line.slice(0, 200))}`);
    }
    out.set(b.key, { key: b.key, size: b.size, sha256: b.sha256 });
  }
  return out;
}
