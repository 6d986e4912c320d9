import type { Kysely } from 'kysely';

/**
 * Access groups (issue 34, §4): `programs.access_groups`, the program file's named groups with their CEL conditions
 * (JSON; null for none); `program_grants.access_groups`, the groups a grant is limited to (JSON list of customIds;
 * null for every project); `projects.access_groups`, the groups the project is in now (JSON list, null for none), read
 * with the project for the one-project access decision; and `project_access_groups`, the same membership as rows, so
 * that lists and the work queue filter a limited caller by an indexed probe. The change step keeps both.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('access_groups', 'text').execute();
  await db.schema.alterTable('program_grants').addColumn('access_groups', 'text').execute();
  await db.schema.alterTable('projects').addColumn('access_groups', 'text').execute();
  await db.schema.createTable('project_access_groups')
    .addColumn('project_id', 'text', (c) => c.notNull())
    .addColumn('group_id', 'text', (c) => c.notNull())
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('project_access_groups_pkey', ['project_id', 'group_id'])
    .execute();
  // A program's members of a group (the import's recount, a count of a group).
  await db.schema.createIndex('project_access_groups_group').on('project_access_groups').columns(['program_id', 'group_id', 'project_id']).execute();
}
