import { Kysely, SqliteDialect } from 'kysely';
import type { Config } from '../config.ts';
import { BackupError } from './backup-error.ts';
import type { BlobStore } from './blob-store.ts';
import { ChangeCounts, SqliteChangeSignal } from './change-signal.ts';
import { createBlobStore } from './create-blob-store.ts';
import { KNOWN_MIGRATIONS, type OpenDatabase, openDatabase } from './database.ts';
import { createKyselyStore } from './kysely-store.ts';
import { migrationStatus } from './schema-migrations.ts';
import { lazySecretBox } from './secret-box.ts';
import { SqliteBinding } from './sqlite-binding.ts';
import type { Store } from './store.ts';
import type { Database } from './tables.ts';

/** The installation a move reads from: its database (opened read-only) and its files. */
export interface MoveSource { opened: OpenDatabase; store: Store; blobs: BlobStore; describe: string; close(): Promise<void> }

/** A database's name for the operator and the move's bookkeeping: the SQLite file, or the PostgreSQL URL without its password. */
export function describeDatabase(database: Config['database']): string {
  if (database.kind === 'sqlite') return `sqlite:${database.file}`;
  const url = new URL(database.url);
  url.password = '';
  url.search = '';
  return url.toString();
}

// Read-only all the way down: SQLite opens the file read-only (no pragma that would write, no migration); PostgreSQL
// starts every transaction read-only, so even a mistake here could not change the source.
async function openReadOnly(database: Config['database']): Promise<OpenDatabase> {
  if (database.kind === 'sqlite') {
    if (database.file === ':memory:') throw new BackupError('setup', 'an in-memory database cannot be moved');
    let raw: InstanceType<typeof SqliteBinding>;
    try {
      raw = new SqliteBinding(database.file, { readonly: true, fileMustExist: true });
    } catch (error) {
      throw new BackupError('setup', `cannot open the SQLite database ${database.file}: ${(error as Error).message}`);
    }
    raw.pragma('busy_timeout = 5000');
    const dataVersion = raw.prepare('PRAGMA data_version').pluck();
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: raw }) });
    return { db, dialect: 'sqlite', changes: new SqliteChangeSignal(new ChangeCounts(), () => dataVersion.get() as number), exclusively: (_n, work) => work(), bounded: () => db };
  }
  const url = new URL(database.url);
  url.searchParams.set('options', '-c default_transaction_read_only=on');
  try {
    return await openDatabase({ kind: 'postgres', url: url.toString() }, { migrate: false, poolSize: 2 });
  } catch (error) {
    throw new BackupError('setup', `cannot reach the source PostgreSQL database: ${(error as Error).message}`);
  }
}

/** Opens the configured installation to move from; refuses one whose schema is not exactly this version's. */
export async function openMoveSource(config: Config): Promise<MoveSource> {
  const opened = await openReadOnly(config.database);
  const store = createKyselyStore(opened, {
    secrets: lazySecretBox(() => {
      throw new Error('a move copies sealed values as they are and never opens them');
    }),
  });
  const close = () => store.close();
  try {
    const status = await migrationStatus(opened.db, KNOWN_MIGRATIONS);
    if (status.applied.length === 0) throw new BackupError('setup', `${describeDatabase(config.database)} is not an apas database`);
    if (status.unknown.length > 0) throw new BackupError('setup', `the source was upgraded by a newer version of apas (${status.unknown.map((m) => m.name).join(', ')}); move it with that version`);
    if (status.pending.length > 0) throw new BackupError('setup', `the source lacks this version's migrations ${status.pending.join(', ')}: run "apas migrate" on it first (or move it with the version that runs it now)`);
    return { opened, store, blobs: createBlobStore(config, store), describe: describeDatabase(config.database), close };
  } catch (error) {
    await close();
    throw error;
  }
}
