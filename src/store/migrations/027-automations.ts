import type { Kysely } from 'kysely';

/**
 * Automations: `programs.automations` holds the program file's `automations:` as JSON (triggers, conditions and
 * actions, parts named by id; null for none), kept on the program row like its roles. `automation_turns` counts the
 * projects each round-robin assign action has handed out, so the next turn goes to the next holder of the role.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('automations', 'text').execute();
  await db.schema.createTable('automation_turns')
    .addColumn('program_id', 'text', (c) => c.notNull())
    .addColumn('automation', 'text', (c) => c.notNull())
    .addColumn('turns', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('automation_turns_pkey', ['program_id', 'automation'])
    .execute();
}
