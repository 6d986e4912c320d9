import type { Kysely } from 'kysely';

/**
 * The mail queue: one row per notification, written in the transaction that reads its event from the outbox, and
 * sent later by a background round, so a slow or unreachable SMTP server never holds up or fails a request and no
 * message is lost. A sender claims due rows with a lease (`lease_until`), so with several instances one sends a
 * message at a time, and a crashed instance's claims are taken over when their lease runs out. Also the programs'
 * notification templates (the program file's `notifications`, as JSON; null for the defaults).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('mail_messages')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text')
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('text_body', 'text', (c) => c.notNull())
    .addColumn('html_body', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('sent_at', 'bigint')
    .execute();
  await db.schema.createIndex('mail_messages_due').on('mail_messages').columns(['status', 'next_attempt_at']).execute();
  await db.schema.alterTable('programs').addColumn('notifications', 'text').execute();
}
