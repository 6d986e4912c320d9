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
 * The SecretBox of an installation: the keys of APAS_SECRET_KEYS, else of APAS_SECRET_KEY_FILE, else (SQLite only) of
 * `apas-secret.key` beside the database, made on first start. PostgreSQL needs a configured key, since several
 * instances must share it and none of them may make its own.
 */
export function openSecretBox(config: Pick<Config, 'database' | 'secretKeys'>, log?: (line: string) => void): SecretBox {
  const { secretKeys, database } = config;
  if (secretKeys.keys !== null) return createSecretBox(parseSecretKeys(secretKeys.keys, 'APAS_SECRET_KEYS'));
  if (secretKeys.file !== null) return createSecretBox(parseSecretKeys(readKeyFile(secretKeys.file, 'APAS_SECRET_KEY_FILE'), `APAS_SECRET_KEY_FILE (${secretKeys.file})`));
  if (database.kind === 'sqlite' && database.file === ':memory:') return createSecretBox(parseSecretKeys(newSecretKeyLine(), 'a key for this in-memory database'));
  const file = defaultSecretKeyFile(database);
  if (file === null) {
    throw new ConfigError('On PostgreSQL set APAS_SECRET_KEY_FILE (the same key file on every instance) or APAS_SECRET_KEYS; make a key with "apas secrets new-key". See docs/operations.md, "Secrets at rest".');
  }
  if (!fs.existsSync(file)) {
    createKeyFile(file);
    log?.(`Made the key file ${file} for secrets at rest (APAS_SECRET_KEY_FILE); keep it, and keep it apart from backups.`);
  }
  return createSecretBox(parseSecretKeys(readKeyFile(file, 'the key file'), file));
}
