import { AsyncLocalStorage } from 'node:async_hooks';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';
import { StoreError } from './store-error.ts';

/**
 * How much longer than the server's statement_timeout the client waits: a server that answers cancels the statement
 * itself (and says so); only one that does not answer at all (frozen, cut off) is given up on by the client.
 */
const CLIENT_GRACE_MS = 2_000;
/** The least time a COMMIT is given, even when the transaction used up its own time just before it. */
const COMMIT_GRACE_MS = 1_000;

// Made on first use: once an AsyncLocalStorage runs, Node 20 calls its hooks on every promise of the process, a
// cost (several per cent of a read) that only a process on PostgreSQL, whose queries read the deadline, should pay.
let deadlines: AsyncLocalStorage<number> | null = null;

/** Runs `work` with a deadline (epoch ms) that bounds every PostgreSQL query it makes through a guarded pool. */
export function withDeadline<T>(deadline: number, work: () => Promise<T>): Promise<T> {
  deadlines ??= new AsyncLocalStorage<number>();
  return deadlines.run(deadline, work);
}

/** True once this process has run work with a deadline (and so pays AsyncLocalStorage's hooks). */
export function deadlinesStarted(): boolean {
  return deadlines !== null;
}

/** A database that did not answer in time; `code` makes the error handler answer a retryable 503. */
export class DatabaseTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(message: string) {
    super(message);
    this.name = 'DatabaseTimeoutError';
  }
}

// pg's own errors for a connection that could not be made or was lost carry no code; the error handler maps codes.
function withCode(error: unknown): unknown {
  if (!(error instanceof Error) || (error as { code?: unknown }).code !== undefined) return error;
  if (/timeout/i.test(error.message)) return new DatabaseTimeoutError(`The database did not answer in time (${error.message})`);
  if (/Connection terminated|not queryable/i.test(error.message)) return Object.assign(error, { code: 'ECONNRESET' });
  return error;
}

/**
 * A pool client whose queries are bounded: by the statement timeout (plus a grace), and inside a write transaction by
 * its deadline. A query that runs out of time leaves its connection in an unknown state (the statement may still be
 * running, the transaction still open), so the connection is thrown away, never reused: the server then rolls back
 * whatever it had not committed. Every later query of the broken client fails with the same error, and the rollback
 * Kysely attempts fails at once instead of waiting on the dead connection.
 */
class GuardedClient implements PostgresPoolClient {
  #broken: Error | null = null;

  constructor(private readonly client: pg.PoolClient, private readonly statementTimeoutMs: number) {}

  query<R>(sql: unknown, parameters?: ReadonlyArray<unknown>): never {
    return this.#query<R>(sql as string, parameters ?? []) as never;
  }

  async #query<R>(text: string, values: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> {
    if (this.#broken) throw this.#broken;
    const deadline = deadlines?.getStore();
    const commit = /^\s*commit\b/i.test(text);
    let limit = this.statementTimeoutMs > 0 ? this.statementTimeoutMs + CLIENT_GRACE_MS : Number.POSITIVE_INFINITY;
    if (deadline !== undefined) limit = Math.min(limit, Math.max(deadline - Date.now(), commit ? COMMIT_GRACE_MS : 0));
    if (limit <= 0) throw this.#break(new StoreError('TRANSACTION_TOO_LONG', 'The change took too long and was rolled back'));
    const config: pg.QueryConfig = { text, values: [...values] };
    if (Number.isFinite(limit)) (config as { query_timeout?: number }).query_timeout = Math.ceil(limit);
    try {
      return (await this.client.query(config)) as unknown as PostgresQueryResult<R>;
    } catch (error) {
      if ((error as Error).message !== 'Query read timeout') throw withCode(error);
      if (commit) {
        throw this.#break(new StoreError('COMMIT_UNCONFIRMED', `The database did not confirm the change within ${Math.ceil(limit)} ms`));
      }
      if (deadline !== undefined) throw this.#break(new StoreError('TRANSACTION_TOO_LONG', 'The database did not answer in time; the change was rolled back'));
      throw this.#break(new DatabaseTimeoutError(`The database did not answer within ${Math.ceil(limit)} ms`));
    }
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
export interface GuardedPoolOptions { statementTimeoutMs: number }

/** Wraps a pg pool for Kysely so that no query waits on the database longer than it may (see GuardedClient). */
export function guardedPool(pool: pg.Pool, options: GuardedPoolOptions): PostgresPool {
  return {
    connect: async () => {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (error) {
        throw withCode(error);
      }
      return new GuardedClient(client, options.statementTimeoutMs);
    },
    end: () => pool.end(),
  };
}

/** The pg pool settings that bound connecting and statements (0: no bound). */
export function poolTimeouts(connectTimeoutMs: number, statementTimeoutMs: number): pg.PoolConfig {
  return {
    ...(connectTimeoutMs > 0 ? { connectionTimeoutMillis: connectTimeoutMs } : {}),
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs } : {}),
    // A connection whose peer vanished (host down, network cut) is noticed by TCP keepalive rather than never.
    keepAlive: true,
  };
}
