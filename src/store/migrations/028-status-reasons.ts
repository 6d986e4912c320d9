import type { Kysely } from 'kysely';

/**
 * Status reasons and mail templates: `statuses.reasons` holds the reasons a move into the status may give as JSON
 * (`{ required, reasons: [{ customId, name }] }`, null for none), `statuses.mail_template` the status's own
 * status-changed mail (null: the program's), `programs.mail_templates` the program file's named templates (null for
 * none), and `status_history.reason_id` / `message` what a move gave (null: nothing). Null means "as before".
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('statuses').addColumn('reasons', 'text').execute();
  await db.schema.alterTable('statuses').addColumn('mail_template', 'text').execute();
  await db.schema.alterTable('programs').addColumn('mail_templates', 'text').execute();
  await db.schema.alterTable('status_history').addColumn('reason_id', 'text').execute();
  await db.schema.alterTable('status_history').addColumn('message', 'text').execute();
}
