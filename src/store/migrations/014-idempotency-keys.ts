import { type Kysely, PostgresAdapter } from 'kysely';

/**
 * Idempotency keys (the Idempotency-Key header of creates and submits): one row per user and key, written in the
 * transaction of the change the key's first request made, so a key is taken exactly when its change commits. The
 * answer that request got (status, the headers a replay repeats, the body's bytes) is added right after the commit;
 * a row without one belongs to a request whose answer is still on its way, or was lost. Rows older than 24 hours
 * are ignored, taken over by a new request with the key, and swept.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema.createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('request_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('answer_status', 'integer')
    .addColumn('answer_headers', 'text')
    .addColumn('answer_body', bytes)
    // The arbiter of concurrent requests with one key: of two inserts, one waits for the other's transaction.
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['user_id', 'key'])
    .execute();
  await db.schema.createIndex('idempotency_keys_created').on('idempotency_keys').column('created_at').execute();
}
