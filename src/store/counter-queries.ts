import { type Kysely, sql } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * The buckets of failed sign-ins (SignInGuard) start with this; their counts decide who may sign in, so their writes
 * change the `credentials` topic (other buckets, the API's request counts, change nothing cached).
 */
export const SIGN_IN_BUCKET_PREFIX = 'signin:';

/** The count of a bucket in a window, without adding to it. */
export async function peekRequestCount(db: Db, bucket: string, windowStart: number): Promise<number> {
  const row = await db.selectFrom('rate_limit_windows').select('count').where('bucket', '=', bucket).where('window_start', '=', windowStart).executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** Counts `by` requests (one by default) in a fixed window; one statement, so concurrent instances never lose a count. */
export async function countRequest(db: Db, bucket: string, windowStart: number, by = 1): Promise<number> {
  const row = await db.insertInto('rate_limit_windows').values({ bucket, window_start: windowStart, count: by })
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doUpdateSet({ count: sql`rate_limit_windows.count + ${by}` }))
    .returning('count').executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Takes back one count of a bucket in a window (never below zero); one statement, like countRequest. */
export async function uncountRequest(db: Db, bucket: string, windowStart: number): Promise<void> {
  await db.updateTable('rate_limit_windows').set({ count: sql`rate_limit_windows.count - 1` })
    .where('bucket', '=', bucket).where('window_start', '=', windowStart).where('count', '>', 0).execute();
}

/** Deletes the counts of windows before `windowStart`. */
export async function sweepRequestCounts(db: Db, windowStart: number): Promise<void> {
  await db.deleteFrom('rate_limit_windows').where('window_start', '<', windowStart).execute();
}

/**
 * Claims the next turn of a bucket in a window whose count holds the time (ms after the window's start) from which
 * the next turn may be taken: true, and that time moved to `nextAt`, only when it is not after `at`. Two statements,
 * the second a conditional update, so of concurrent claims exactly one wins.
 */
export async function claimTurn(db: Db, bucket: string, windowStart: number, at: number, nextAt: number): Promise<boolean> {
  await db.insertInto('rate_limit_windows').values({ bucket, window_start: windowStart, count: 0 })
    .onConflict((oc) => oc.columns(['bucket', 'window_start']).doNothing()).execute();
  const r = await db.updateTable('rate_limit_windows').set({ count: nextAt })
    .where('bucket', '=', bucket).where('window_start', '=', windowStart).where('count', '<=', at).executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

const COUNTERS = { peekRequestCount, countRequest, uncountRequest, sweepRequestCounts, claimTurn };

/** Request counts per bucket and fixed window (rate limits, sign-in attempts); every method is one statement. */
export type CounterRepository = ReturnType<typeof counterRepository>;

/** The counters over a database or a transaction. */
export function counterRepository(db: Db) {
  return bindDb(db, COUNTERS);
}
