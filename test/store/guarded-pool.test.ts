import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import type pg from 'pg';
import { toApiError } from '../../src/http/error-handler.ts';
import { guardedPool } from '../../src/store/guarded-pool.ts';
import { StoreError } from '../../src/store/store-error.ts';

// The pool's answers to a PostgreSQL that restarts, fails over or ends a connection: never an unheard 'error' event
// (which ends the process), a retryable 503 for what surely did not happen, and "may or may not" for a lost COMMIT.

/** A pg client double: `fail` decides which statements fail and how; it emits 'error' like pg when told to. */
class FakeClient extends EventEmitter {
  released: unknown[] = [];
  constructor(private readonly fail: (text: string) => Error | null) {
    super();
  }
  query(config: string | { text: string }): Promise<{ rows: unknown[] }> {
    const text = typeof config === 'string' ? config : config.text;
    const error = this.fail(text);
    return error ? Promise.reject(error) : Promise.resolve({ rows: [] });
  }
  release(error?: unknown): void {
    this.released.push(error);
  }
}

function poolOf(client: FakeClient): pg.Pool {
  return { connect: async () => client, end: async () => {} } as unknown as pg.Pool;
}

const terminated = () => new Error('Connection terminated unexpectedly');

describe('the guarded pool when the server ends a connection', () => {
  it('a connection ended while checked out between statements breaks the client instead of ending the process', async () => {
    const client = new FakeClient(() => null);
    const guarded = await guardedPool(poolOf(client), { statementTimeoutMs: 1000, boundMs: 30_000 }).connect();
    const shutdown = Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
    // pg emits this on the client; without a listener EventEmitter throws it (and Node ends the process).
    assert.equal(client.emit('error', shutdown), true);
    await assert.rejects(guarded.query('select 1', []) as unknown as Promise<unknown>, (error: Error) => error === shutdown);
    assert.equal(toApiError(shutdown).code, 'SERVICE_UNAVAILABLE');
    guarded.release();
    assert.equal(client.released[0], shutdown, 'the broken connection is given back as broken, so the pool ends it');
  });

  it('a COMMIT whose connection is lost is unconfirmed ("may or may not"), another statement is retryable', async () => {
    const client = new FakeClient((text) => (/^(commit|insert)/.test(text) ? terminated() : null));
    const guarded = await guardedPool(poolOf(client), { statementTimeoutMs: 1000, boundMs: 30_000 }).connect();
    await assert.rejects(guarded.query('insert into t values (1)', []) as unknown as Promise<unknown>, (error: Error & { code?: string }) => {
      assert.equal(error.code, 'ECONNRESET');
      assert.match(toApiError(error).message, /nothing was changed/);
      return true;
    });
    const other = await guardedPool(poolOf(client), { statementTimeoutMs: 1000, boundMs: 30_000 }).connect();
    await assert.rejects(other.query('commit', []) as unknown as Promise<unknown>, (error: Error) => {
      assert.ok(error instanceof StoreError && error.code === 'COMMIT_UNCONFIRMED', String(error));
      const answer = toApiError(error);
      assert.equal(answer.code, 'SERVICE_UNAVAILABLE');
      assert.match(answer.message, /may or may not have been saved/);
      return true;
    });
  });

  it('a PostgreSQL starting up, shutting down or unreachable is answered 503, not 500', () => {
    for (const code of ['57P01', '57P02', '57P03', '08000', '08003', '08006', 'EPIPE']) {
      assert.equal(toApiError(Object.assign(new Error('the database system is starting up'), { code })).code, 'SERVICE_UNAVAILABLE', code);
    }
  });
});
