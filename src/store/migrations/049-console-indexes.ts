import type { Kysely } from 'kysely';

/**
 * Indexes for the console's audit trail and mail outbox (issue 33): the trail is read newest first within an agency,
 * within a program admin's programs, or by one actor, each paged by (time, id); the outbox newest first, optionally of
 * one status.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s.createIndex('audit_log_agency_at').on('audit_log').columns(['agency_id', 'at', 'id']).execute();
  await s.createIndex('audit_log_program_at').on('audit_log').columns(['program_id', 'at', 'id']).execute();
  await s.createIndex('audit_log_actor_at').on('audit_log').columns(['actor_id', 'at', 'id']).execute();
  await s.createIndex('mail_messages_created').on('mail_messages').columns(['created_at', 'id']).execute();
  await s.createIndex('mail_messages_status_created').on('mail_messages').columns(['status', 'created_at', 'id']).execute();
}
