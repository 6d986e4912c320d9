import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import type { StatementNames } from './statement-names.ts';
import { StoreError } from './store-error.ts';

/**
 * How much longer than the server's statement_timeout the client waits: a server that answers cancels the statement
 * itself (and says so); only one that does not answer at all (frozen, cut off) is given up on by the client.
 */
const CLIENT_GRACE_MS = 2_000;
/** The least time a COMMIT is given, even when the transaction used up its own time just before it. */
const COMMIT_GRACE_MS = 1_000;

/** A database that did not answer in time; `code` makes the error handler answer a retryable 503. */
export class DatabaseTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseTimeoutError';
  }
}

/**
 * A kept (named) statement whose table changed shape since it was prepared on its connection, as when another process
 * migrates the schema under a running instance. Its code makes the error handler answer a retryable 503: the
 * connection is thrown away with it, and a new one prepares the statement again.
 */
export class StalePreparedStatementError extends Error {
  readonly code = 'ECONNRESET';
  constructor(cause: string) {
    super(`The database's tables changed under a prepared statement; the connection was dropped, try again (${cause})`);
    this.name = 'StalePreparedStatementError';
  }
}

// pg's own errors for a connection that could not be made or was lost carry no code; the error handler maps codes.
function withCode(error: unknown): unknown {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== undefined) return error;
  if (/timeout/i.test(error.message)) return new DatabaseTimeoutError(`The database did not answer in time (${error.message})`);
  if (/Connection terminated|not queryable/i.test(error.message)) return Object.assign(error, { code: 'ECONNRESET' });
  return error;
}

/** A connection that ended (reset, the server shutting down or gone): what a COMMIT's answer may have been lost to. */
function connectionLost(error: unknown): boolean {
  const code = String((error as { code?: unknown }).code ?? '');
  return code === 'ECONNRESET' || code === 'EPIPE' || code.startsWith('57P') || code.startsWith('08');
}

/**
 * A pool client whose queries are bounded: by the statement timeout (plus a grace), and when its connection was
 * asked for with a bound (a write transaction's 30 s), by the time left of it. A query that runs out of time leaves
 * its connection in an unknown state (the statement may still be running, the transaction still open), so the
 * connection is thrown away, never reused: the server then rolls back whatever it had not committed. Every later
 * query of the broken client fails with the same error, and the rollback Kysely attempts fails at once instead of
 * waiting on the dead connection.
 */
class GuardedClient implements PostgresPoolClient {
  #broken: Error | null = null;
  /** Epoch ms by which this checkout's statements must end; undefined for a checkout without a bound. */
  #deadline: number | undefined;

  constructor(private readonly client: pg.PoolClient, private readonly statementTimeoutMs: number, private readonly names: StatementNames | undefined) {
    // A server that ends the connection while it is checked out between two statements (a restart, a failover,
    // pg_terminate_backend) makes pg emit 'error' on the client; pg-pool listens only while it is idle, and an
    // unheard 'error' event ends the process. Heard here, it breaks the client: its next query fails (a 503), and
    // the release throws the connection away.
    client.on('error', (error) => {
      this.#break(withCode(error) as Error);
    });
  }

  /** Starts a checkout of the connection, bounded until `deadline` (epoch ms) or only by the statement timeout. */
  checkOut(deadline: number | undefined): this {
    this.#deadline = deadline;
    return this;
  }

  query<R>(sql: unknown, parameters?: ReadonlyArray<unknown>): never {
    return this.#query<R>(sql as string, parameters ?? []) as never;
  }

  #query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (this.#broken) return Promise.reject(this.#broken);
    const deadline = this.#deadline;
    const name = this.names?.nameOf(text);
    // Unbounded, the pool's own query_timeout (statement timeout plus grace, see poolTimeouts) applies; passing the
    // text and values rather than a config object also spares pg a copy of the config on every unnamed query.
    if (deadline === undefined) {
      const sent = name === undefined ? this.client.query(text, values as unknown[]) : this.client.query({ name, text, values: values as unknown[] });
      return (sent as unknown as Promise<PostgresQueryResult<R>>).catch((error: unknown) => {
        throw this.#failed(error, false, false, this.statementTimeoutMs + CLIENT_GRACE_MS);
      });
    }
    const commit = /^\s*commit\b/i.test(text);
    const statementLimit = this.statementTimeoutMs > 0 ? this.statementTimeoutMs + CLIENT_GRACE_MS : Number.POSITIVE_INFINITY;
    const limit = Math.min(statementLimit, Math.max(deadline - Date.now(), commit ? COMMIT_GRACE_MS : 0));
    if (limit <= 0) return Promise.reject(this.#break(new StoreError('TRANSACTION_TOO_LONG', 'The change took too long and was rolled back')));
    const config = { name, text, values: values as unknown[], query_timeout: Math.ceil(limit) } as pg.QueryConfig;
    return (this.client.query(config) as unknown as Promise<PostgresQueryResult<R>>).catch((error: unknown) => {
      throw this.#failed(error, true, commit, limit);
    });
  }

  #failed(error: unknown, bounded: boolean, commit: boolean, limit: number): unknown {
    // A table a kept statement reads changed shape (another process migrated): this connection's copy can never run
    // again, so the connection goes and the request is answered a retryable 503; the next one prepares it anew.
    if ((error as { code?: unknown }).code === '0A000' && /cached plan must not change result type/.test((error as Error).message)) {
      return this.#break(new StalePreparedStatementError((error as Error).message));
    }
    if ((error as Error).message !== 'Query read timeout') {
      const coded = withCode(error);
      // The connection went while the COMMIT was on its way: the server may have committed before it went.
      if (commit && connectionLost(coded)) return this.#break(new StoreError('COMMIT_UNCONFIRMED', 'The connection to the database was lost while it confirmed the change'));
      return coded;
    }
    if (commit) return this.#break(new StoreError('COMMIT_UNCONFIRMED', `The database did not confirm the change within ${Math.ceil(limit)} ms`));
    if (bounded) return this.#break(new StoreError('TRANSACTION_TOO_LONG', 'The database did not answer in time; the change was rolled back'));
    return this.#break(new DatabaseTimeoutError(`The database did not answer within ${Math.ceil(limit)} ms`));
  }

  #break(error: Error): Error {
    this.#broken = error;
    return error;
  }

  release(): void {
    const broken = this.#broken;
    // Given an error, the pool ends and forgets the connection; destroying the socket as well makes a server that
    // answers again see the connection gone (and roll back), without waiting for its reply to our goodbye.
    this.client.release(broken ?? undefined);
    if (broken) (this.client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}

/** Options of {@link guardedPool}. */
export interface GuardedPoolOptions {
  /** The server's statement timeout (ms, 0: none); give the pool poolTimeouts' settings for the same figure. */
  statementTimeoutMs: number;
  /**
   * When set, each connection handed out is bounded: all its statements must end within this many ms of the moment
   * it was asked for (a write transaction's bound, so that a database that stops answering cannot hold it longer).
   */
  boundMs?: number;
  /** Names for the statements a connection keeps prepared (one per pg pool); none: every statement runs unnamed. */
  names?: StatementNames;
}

/**
 * Wraps a pg pool for Kysely so that no query waits on the database longer than it may (see GuardedClient). The bound
 * travels with the connection, not in AsyncLocalStorage, whose hooks Node 20 and 22 would then run on every promise.
 */
export function guardedPool(pool: pg.Pool, options: GuardedPoolOptions): PostgresPool {
  // One wrapper per pg client, as pg-pool reuses its clients: Kysely then keeps its own wrapper of each, too.
  const wrappers = new WeakMap<pg.PoolClient, GuardedClient>();
  const { boundMs, statementTimeoutMs, names } = options;
  return {
    // Every read of the service passes here: one promise step, no async wrapper (it showed in the read profiles).
    connect: () => {
      const deadline = boundMs === undefined ? undefined : Date.now() + boundMs;
      return pool.connect().then((client) => {
        let guarded = wrappers.get(client);
        if (!guarded) wrappers.set(client, guarded = new GuardedClient(client, statementTimeoutMs, names));
        return guarded.checkOut(deadline);
      }, (error: unknown) => {
        throw withCode(error);
      });
    },
    end: () => pool.end(),
  };
}

/** The pg pool settings that bound connecting and statements (0: no bound). */
export function poolTimeouts(connectTimeoutMs: number, statementTimeoutMs: number): pg.PoolConfig {
  return {
    ...(connectTimeoutMs > 0 ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    // The server ends a statement at statement_timeout; the client gives up on one only a grace later (a server that
    // does not answer at all), and so for every unbounded query without passing a config object each time.
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + CLIENT_GRACE_MS } : {}),
    // A connection whose peer vanished (host down, network cut) is noticed by TCP keepalive rather than never.
    keepAlive: true,
  };
}
