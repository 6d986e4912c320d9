import { type Kysely, sql } from 'kysely';

/**
 * `mail_messages.project_id` and `to_user_id`: which project a queued mail is about and which user it goes to, so the
 * project and review pages list the mails a project's owner was sent about it (status changes, questions, the
 * program's named templates sent in bulk or one by one, automations). Mails queued before are matched where their
 * event still says (the project of the event, the user of the address); the others stay unlisted.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mail_messages').addColumn('project_id', 'text').execute();
  await db.schema.alterTable('mail_messages').addColumn('to_user_id', 'text').execute();
  await db.schema.createIndex('mail_messages_project').on('mail_messages').columns(['project_id', 'to_user_id', 'created_at']).execute();
  await sql`update mail_messages set project_id = (select e.project_id from events e where e.id = mail_messages.event_id),
    to_user_id = (select u.id from users u where u.email = mail_messages.to_address) where event_id is not null`.execute(db);
}
