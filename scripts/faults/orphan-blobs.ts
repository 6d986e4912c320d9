import fs from 'node:fs';
import path from 'node:path';
import { defaultBlobDir } from '../../src/config.ts';
import { createBlobStore } from '../../src/store/create-blob-store.ts';
import { openDatabase } from '../../src/store/database.ts';
import { createKyselyStore } from '../../src/store/kysely-store.ts';
import type { FaultDatabase } from './fault-database.ts';
import { serverSecretBox } from './server-process.ts';
import { openSqlReader } from './sql-reader.ts';

/** The keys of the files the fault servers stored: under the blob directory on SQLite, in blob_chunks on PostgreSQL. */
async function storedBlobKeys(db: FaultDatabase): Promise<string[]> {
  if (db.config.kind === 'sqlite') {
    const walk = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : [])
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [e.name]));
    return walk(defaultBlobDir(db.config));
  }
  const reader = await openSqlReader(db.config);
  try {
    return (await reader.all<{ blob_key: string }>('select distinct blob_key from blob_chunks')).map((r) => r.blob_key);
  } finally {
    await reader.close();
  }
}

/**
 * With no server running: the orphan sweep `apas serve` runs (here with no grace period, since no upload can be in
 * flight), then every file left must belong to an attachment version, and every version's file must be there. The
 * servers' files are where they keep them by default: the blob directory beside a SQLite file, the database on
 * PostgreSQL.
 */
export async function sweptBlobProblems(db: FaultDatabase): Promise<{ removed: number; problems: string[] }> {
  const opened = await openDatabase(db.config, { poolSize: 1 });
  const store = createKyselyStore(opened, { secrets: serverSecretBox(db.config) });
  let removed: number;
  try {
    const blobs = createBlobStore({ blobStore: db.config.kind === 'sqlite' ? 'local' : 'database', blobDir: defaultBlobDir(db.config) }, store);
    removed = await blobs.sweepOrphans((key) => store.attachments.isBlobReferenced(key), 0);
  } finally {
    await store.close();
  }
  const reader = await openSqlReader(db.config);
  let versions: string[];
  try {
    versions = (await reader.all<{ blob_key: string }>('select blob_key from attachments')).map((r) => r.blob_key);
  } finally {
    await reader.close();
  }
  const stored = new Set(await storedBlobKeys(db));
  const problems = [
    ...[...stored].filter((key) => !versions.includes(key)).map((key) => `after the orphan sweep the file ${key} belongs to no attachment version`),
    ...versions.filter((key) => !stored.has(key)).map((key) => `the file ${key} of an attachment version is missing`),
  ];
  return { removed, problems };
}
