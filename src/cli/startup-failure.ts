import { setTimeout as sleep } from 'node:timers/promises';
import type pino from 'pino';
import { type Config, withApplicationName } from '../config.ts';
import type { BlobStore } from '../store/blob-store.ts';
import { type OpenDatabase, openDatabase } from '../store/database.ts';
import { NewerDatabaseError } from '../store/schema-migrations.ts';
import { isTransientDbError } from '../store/transient-db-error.ts';
import { databaseLocation, databaseWhere } from './open-failure.ts';

/** A reason `apas serve` cannot start that the operator must fix: logged as one line naming the setting, exit 1. */
export class StartupFailure extends Error {
  constructor(readonly setting: string, readonly where: string, message: string) {
    super(message);
    this.name = 'StartupFailure';
  }
}

/** The first wait between start-up attempts on the database; it doubles up to MAX_RETRY_DELAY_MS. */
const FIRST_RETRY_DELAY_MS = 1_000;
const MAX_RETRY_DELAY_MS = 10_000;

function causeOf(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = String(e.message ?? error);
  return typeof e.code === 'string' && !message.includes(e.code) ? `${e.code}: ${message}` : message;
}

/**
 * Worth another try at start-up: a failure that waiting mends (transient-db-error.ts, the list a request's 503 uses
 * too), or pg's own code-less error for a connection that could not be made or was lost (a request meets these coded
 * by guarded-pool.ts). A wrong password, a missing database or an unopenable file will not mend by waiting.
 */
export function worthRetrying(error: unknown): boolean {
  if (isTransientDbError(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return (code ?? '') === '' && /timeout|Connection terminated/i.test(String((error as Error | null)?.message));
}

/**
 * Opens (and migrates) the configured database, trying up to `config.db.startAttempts` times while the failure is one
 * that waiting can mend; logs one line per attempt. Throws StartupFailure naming DATABASE_URL otherwise.
 */
export async function openWithRetry(config: Config, log: pino.Logger): Promise<OpenDatabase> {
  const where = databaseWhere(config);
  const location = databaseLocation(config);
  const attempts = config.db.startAttempts;
  let delay = FIRST_RETRY_DELAY_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      const opened = await openDatabase(withApplicationName(config.database, config.instanceName), {
        poolSize: config.pgPoolSize, connectTimeoutMs: config.db.connectTimeoutMs, statementTimeoutMs: config.db.statementTimeoutMs,
        preparedStatements: config.db.preparedStatements,
        onMigration: (name) => log.info({ migration: name, database: where }, 'applied database migration'),
      });
      log.info({ database: where, attempt, attempts }, 'database open and up to date');
      return opened;
    } catch (error) {
      if (error instanceof NewerDatabaseError) throw new StartupFailure('DATABASE_URL', location, `cannot start: ${error.message}`);
      if (!worthRetrying(error) || attempt >= attempts) {
        const tries = attempt > 1 ? ` after ${attempt} attempts` : '';
        throw new StartupFailure('DATABASE_URL', location, `cannot start: the ${where} cannot be opened${tries} (${causeOf(error)})`);
      }
      log.warn({ setting: 'DATABASE_URL', path: location, attempt, attempts, retryInMs: delay, cause: causeOf(error) }, 'database not reachable yet; trying again');
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_RETRY_DELAY_MS);
    }
  }
}

/** Checks that uploads can be stored; throws StartupFailure naming APAS_BLOB_DIR (local store) or APAS_S3_BUCKET otherwise. */
export async function checkBlobStore(config: Config, blobs: BlobStore): Promise<void> {
  try {
    await blobs.checkWritable();
  } catch (error) {
    if (config.blobStore === 's3' && config.s3) {
      const where = `s3://${config.s3.bucket}/${config.s3.prefix}`;
      const cause = `${(error as Error).name ?? 'Error'}: ${causeOf(error)}`;
      throw new StartupFailure('APAS_S3_BUCKET', where, `cannot start: uploads cannot be stored in ${where}${config.s3.endpoint ? ` at ${config.s3.endpoint}` : ''} (${cause}); check APAS_S3_ENDPOINT, APAS_S3_REGION and the access key`);
    }
    throw new StartupFailure('APAS_BLOB_DIR', config.blobDir, `cannot start: uploads cannot be stored in the blob directory ${config.blobDir} (${causeOf(error)})`);
  }
}

/** Turns a failure to listen (port taken, address not here, not allowed) into a StartupFailure naming the setting. */
export function listenFailure(config: Config, error: unknown, setting = 'APAS_PORT', on: { host: string; port: number } = config): unknown {
  const code = String((error as { code?: unknown }).code ?? '');
  const where = `${on.host}:${on.port}`;
  const hostSetting = setting === 'APAS_PORT' ? 'APAS_HOST' : 'APAS_METRICS_HOST';
  if (code === 'EADDRINUSE') return new StartupFailure(setting, where, `cannot start: port ${on.port} on ${on.host} is already in use (set ${setting} to a free port)`);
  if (code === 'EACCES') return new StartupFailure(setting, where, `cannot start: not allowed to listen on port ${on.port} (ports below 1024 need privileges)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return new StartupFailure(hostSetting, where, `cannot start: ${on.host} is not an address of this machine (${code})`);
  }
  return error;
}
