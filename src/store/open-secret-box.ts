import fs from 'node:fs';
import path from 'node:path';
import { type Config, ConfigError } from '../config.ts';
import { createSecretBox, newSecretKeyLine, parseSecretKeys, type SecretBox } from './secret-box.ts';

/** The default key file of a SQLite installation: beside the database file, never inside it or its backups. */
export function defaultSecretKeyFile(database: Config['database']): string | null {
  return database.kind === 'sqlite' && database.file !== ':memory:' ? path.join(path.dirname(database.file), 'apas-secret.key') : null;
}

function readKeyFile(file: string, setting: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`${setting}: cannot read the key file ${file} (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`);
  }
}

// Created once with mode 0600 and never replaced: a second start must find the same key, or stored secrets are lost.
function createKeyFile(file: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  try {
    fs.writeFileSync(file, `# apas key encryption keys: the first seals, every one opens. Keep this file out of backups of the database.\n${newSecretKeyLine()}\n`, { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * The key file a start would make now: SQLite's default file, when no key is configured and it does not exist yet.
 * Null when keys are configured, on PostgreSQL, in memory, or when the file is there.
 */
export function keyFileToMake(config: Pick<Config, 'database' | 'secretKeys'>): string | null {
  if (config.secretKeys.keys !== null || config.secretKeys.file !== null) return null;
  const file = defaultSecretKeyFile(config.database);
  return file !== null && !fs.existsSync(file) ? file : null;
}

/** Why no key is made for a database that holds sealed values: a restore without its key file, most likely. */
export function missingKeyFileMessage(file: string): string {
  return `The database holds sealed secrets, but their key file ${file} is missing (a backup restored without it?). Put the key file that belongs to this database there, or name it with APAS_SECRET_KEY_FILE; if it is lost, "apas secrets drop-unreadable" drops the values it sealed. No new key was made. See docs/operations.md, "Restoring without the key".`;
}

/**
 * The SecretBox of an installation: the keys of APAS_SECRET_KEYS, else of APAS_SECRET_KEY_FILE, else (SQLite only) of
 * `apas-secret.key` beside the database, made on first start. PostgreSQL needs a configured key, since several
 * instances must share it and none of them may make its own. `mayMake` false (the database holds sealed values, so
 * this is no new installation) refuses to make the file: a new key would open none of them.
 */
export function openSecretBox(config: Pick<Config, 'database' | 'secretKeys'>, log?: (line: string) => void, mayMake = true): SecretBox {
  const { database } = config;
  if (database.kind === 'sqlite' && database.file === ':memory:' && config.secretKeys.keys === null && config.secretKeys.file === null) {
    return createSecretBox(parseSecretKeys(newSecretKeyLine(), 'a key for this in-memory database'));
  }
  const toMake = keyFileToMake(config);
  if (toMake !== null) {
    if (!mayMake) throw new ConfigError(missingKeyFileMessage(toMake));
    createKeyFile(toMake);
    log?.(`Made the key file ${toMake} for secrets at rest (APAS_SECRET_KEY_FILE); keep it, and keep it apart from backups.`);
  }
  const found = existingSecretBox(config);
  if (found === null) {
    throw new ConfigError('On PostgreSQL set APAS_SECRET_KEY_FILE (the same key file on every instance) or APAS_SECRET_KEYS; make a key with "apas secrets new-key". See docs/operations.md, "Secrets at rest".');
  }
  return found.box;
}

/**
 * The configured keys as they are, never making a file: APAS_SECRET_KEYS, APAS_SECRET_KEY_FILE, or SQLite's default
 * file if it exists; null when none is there. `source` says where they came from, for messages.
 */
export function existingSecretBox(config: Pick<Config, 'database' | 'secretKeys'>): { box: SecretBox; source: string } | null {
  const { secretKeys, database } = config;
  if (secretKeys.keys !== null) return { box: createSecretBox(parseSecretKeys(secretKeys.keys, 'APAS_SECRET_KEYS')), source: 'APAS_SECRET_KEYS' };
  if (secretKeys.file !== null) {
    return { box: createSecretBox(parseSecretKeys(readKeyFile(secretKeys.file, 'APAS_SECRET_KEY_FILE'), `APAS_SECRET_KEY_FILE (${secretKeys.file})`)), source: secretKeys.file };
  }
  const file = defaultSecretKeyFile(database);
  if (file === null || !fs.existsSync(file)) return null;
  return { box: createSecretBox(parseSecretKeys(readKeyFile(file, 'the key file'), file)), source: file };
}
