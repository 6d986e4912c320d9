import type { Kysely } from 'kysely';

/**
 * Organizations: installer companies whose members share the projects started for them. `organizations` (of an
 * agency, with the defaults prefilled on new applications as JSON), `organization_members` (role member or admin),
 * `organization_invitations` (mailed one-use links, only the SHA-256 of each token kept), and a nullable
 * `projects.organization_id`: a project started for an organization is read by its members, not by its owner alone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('agency_id', 'text', (c) => c.notNull().references('agencies.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('defaults', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createTable('organization_members')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('added_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('organization_members_pkey', ['organization_id', 'user_id'])
    .execute();
  // Every request of a user reads their memberships (the caller's organizations).
  await db.schema.createIndex('organization_members_user').on('organization_members').columns(['user_id', 'organization_id']).execute();
  await db.schema.createTable('organization_invitations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('used_at', 'bigint')
    .execute();
  await db.schema.createIndex('organization_invitations_org').on('organization_invitations').columns(['organization_id']).execute();
  await db.schema.alterTable('projects').addColumn('organization_id', 'text').execute();
  // A member's project lists read an organization's projects of a program in creation order.
  await db.schema.createIndex('projects_organization').on('projects').columns(['program_id', 'organization_id', 'created_at', 'id']).execute();
}
