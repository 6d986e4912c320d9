import type { Kysely } from 'kysely';

/**
 * E-signature envelopes (issue 32, src/domain/signing): `envelopes` (a generated document version of a project and
 * its state), `envelope_signers` (who signs, in order, and what each did), `envelope_steps` (the audit trail: every
 * step with its time, user, IP address and user agent) and `signing_links` (mailed links: only the SHA-256 of each
 * 32-byte token kept; one use, an expiry, revoked by a resend).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('envelopes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('template_id', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('attachment_id', 'text', (c) => c.notNull())
    .addColumn('attachment_version', 'integer', (c) => c.notNull())
    .addColumn('signed_version', 'integer')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('signing_order', 'text', (c) => c.notNull())
    .addColumn('disclosure', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .addColumn('all_signed_at', 'bigint')
    .addColumn('finished_at', 'bigint')
    .execute();
  await db.schema.createIndex('envelopes_project').on('envelopes').columns(['project_id', 'created_at', 'id']).execute();
  // The finisher reads the envelopes every signer has signed that wait for their signed PDF.
  await db.schema.createIndex('envelopes_state').on('envelopes').columns(['state', 'all_signed_at']).execute();
  await db.schema.createTable('envelope_signers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('signer_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('label', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('role', 'text')
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('notified_at', 'bigint')
    .addColumn('consented_at', 'bigint')
    .addColumn('typed_name', 'text')
    .addColumn('signed_at', 'bigint')
    .addColumn('ip', 'text')
    .addColumn('decline_reason', 'text')
    .execute();
  await db.schema.createIndex('envelope_signers_envelope').on('envelope_signers').columns(['envelope_id', 'position']).execute();
  // Reminders read the signers who were mailed and have not acted.
  await db.schema.createIndex('envelope_signers_state').on('envelope_signers').columns(['state', 'notified_at']).execute();
  await db.schema.createTable('envelope_steps')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('signer_id', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('detail', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('envelope_steps_envelope').on('envelope_steps').columns(['envelope_id', 'seq']).unique().execute();
  await db.schema.createTable('signing_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('envelope_id', 'text', (c) => c.notNull().references('envelopes.id'))
    .addColumn('signer_id', 'text', (c) => c.notNull().references('envelope_signers.id'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .addColumn('revoked_at', 'bigint')
    .execute();
  await db.schema.createIndex('signing_links_signer').on('signing_links').columns(['signer_id']).execute();
}
