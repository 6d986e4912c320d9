import { type Kysely, sql } from 'kysely';
import { bindDb } from './bind-db.ts';
import type { Database } from './tables.ts';

type Db = Kysely<Database>;

/**
 * Where one queue of background work stands: rows waiting to go out, of them those whose last attempt failed (being
 * retried), rows given up after their last attempt, and when the oldest waiting row was queued (null when none waits).
 */
export interface Backlog { pending: number; failing: number; failed: number; oldestPendingAt: number | null }

type Queue = 'mail_messages' | 'webhook_deliveries';

// One statement per queue, reading only its pending and failed rows through the index that starts with `status`
// (mail_messages_due, webhook_deliveries_due), never the sent or delivered ones, which are most of the table.
async function backlogOf(db: Db, table: Queue): Promise<Backlog> {
  const rows = await sql<{ status: string; n: number | string; retried: number | string | null; oldest: number | string | null }>`
    select status, count(*) as n, sum(case when attempts > 0 then 1 else 0 end) as retried, min(created_at) as oldest
    from ${sql.table(table)} where status in ('pending', 'failed') group by status`.execute(db);
  const pending = rows.rows.find((r) => r.status === 'pending');
  const failed = rows.rows.find((r) => r.status === 'failed');
  return {
    pending: Number(pending?.n ?? 0), failing: Number(pending?.retried ?? 0), failed: Number(failed?.n ?? 0),
    oldestPendingAt: pending?.oldest === null || pending?.oldest === undefined ? null : Number(pending.oldest),
  };
}

/** The mail queue's backlog. */
export async function mailBacklog(db: Db): Promise<Backlog> {
  return backlogOf(db, 'mail_messages');
}

/** The webhook deliveries' backlog. */
export async function webhookBacklog(db: Db): Promise<Backlog> {
  return backlogOf(db, 'webhook_deliveries');
}

/** The backlogs of the background work (metrics and operators). */
export type BacklogReader = ReturnType<typeof backlogReader>;

/** The backlog reads over a database. */
export function backlogReader(db: Db) {
  return bindDb(db, { mailBacklog, webhookBacklog });
}
