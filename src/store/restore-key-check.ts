import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { type Config, ConfigError } from '../config.ts';
import { BackupError } from './backup-error.ts';
import { defaultSecretKeyFile, existingSecretBox } from './open-secret-box.ts';
import { SqliteBinding } from './sqlite-binding.ts';
import type { Database } from './tables.ts';
import { describeUnreadable, findUnreadableSecrets, type SealedValueReport, unreadableCount } from './unreadable-secrets.ts';

/**
 * A backup holds the sealed secrets but never the key that opens them (docs/operations.md, "Secrets at rest"), so a
 * restore checks the key the restored installation will use: APAS_SECRET_KEYS, APAS_SECRET_KEY_FILE, or on SQLite
 * the key file beside DATABASE_URL. Every sealed value of the restored database is tried with it.
 */

/** Where the restored database is read from: the staged SQLite file, or the PostgreSQL database the dump went into. */
export type RestoredDatabase = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/** What the check needs: the keys' settings, whether this is `--check`, and whether the operator said the key is lost. */
export interface KeyCheckOptions {
  config: Pick<Config, 'database' | 'secretKeys'>;
  checkOnly: boolean;
  keyLost: boolean;
  log: (line: string) => void;
}

// Read-only, and without migrating: the staged file must stay byte for byte what the backup held.
function openReadOnly(target: RestoredDatabase): Kysely<Database> {
  if (target.kind === 'sqlite') return new Kysely<Database>({ dialect: new SqliteDialect({ database: new SqliteBinding(target.file, { readonly: true, fileMustExist: true }) }) });
  const pool = new pg.Pool({ connectionString: target.url, max: 1 });
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

async function sealedValues(target: RestoredDatabase, keys: ReturnType<typeof existingSecretBox>): Promise<SealedValueReport> {
  const db = openReadOnly(target);
  try {
    return await findUnreadableSecrets(db, keys?.box ?? null);
  } finally {
    await db.destroy();
  }
}

function keysFound(config: KeyCheckOptions['config']): ReturnType<typeof existingSecretBox> {
  try {
    return existingSecretBox(config);
  } catch (error) {
    if (error instanceof ConfigError) throw new BackupError('setup', error.message);
    throw error;
  }
}

// Where an operator puts the key, in words.
function whereKeyGoes(config: KeyCheckOptions['config']): string {
  const file = defaultSecretKeyFile(config.database);
  return file === null ? 'set APAS_SECRET_KEY_FILE (or APAS_SECRET_KEYS) to the key of this installation' : `put this installation's key file at ${file} (or name it with APAS_SECRET_KEY_FILE)`;
}

/**
 * Tries every sealed value of the restored database with the configured key. A key that does not open them all (or
 * none configured) refuses the restore with BackupError 'keys', saying what to do, unless the operator said the key
 * is lost; `--check` without any key configured only says that the key is needed.
 */
export async function checkRestoredKeys(target: RestoredDatabase, options: KeyCheckOptions): Promise<void> {
  const keys = keysFound(options.config);
  const found = await sealedValues(target, keys);
  if (found.sealed === 0) return options.log('The backup holds no sealed secrets: it needs no key.');
  const unreadable = unreadableCount(found);
  const held = `The backup holds ${found.sealed} sealed secrets (sealed with ${found.keyIds.join(', ')}); the key that opens them is not in the backup.`;
  if (unreadable === 0) return options.log(`${held} They all open with the configured key (${keys?.source}).`);
  const lost = 'If the key is lost for good, restore with --key-lost, then run "apas secrets drop-unreadable" before serving (docs/operations.md, "Restoring without the key").';
  if (keys === null) {
    if (options.checkOnly) return options.log(`${held} No key is configured here, so it was not checked; to check it, ${whereKeyGoes(options.config)}.`);
    if (options.keyLost) return options.log(`${held} No key is configured (--key-lost): the server will not start until "apas secrets drop-unreadable" has dropped them.`);
    throw new BackupError('keys', `${held} No key is configured here: ${whereKeyGoes(options.config)}, then restore again. ${lost}`);
  }
  const what = `Of them, ${describeUnreadable(found)} cannot be opened with the configured key (${keys.source})`;
  if (options.keyLost) return options.log(`${held} ${what} (--key-lost): the server will not start until "apas secrets drop-unreadable" has dropped them.`);
  throw new BackupError('keys', `${held} ${what}: it is not the key of this backup. ${whereKeyGoes(options.config)[0]!.toUpperCase()}${whereKeyGoes(options.config).slice(1)}, then restore again. ${lost}`);
}
