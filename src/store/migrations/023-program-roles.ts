import type { Kysely } from 'kysely';

/**
 * `programs.roles`: the program file's own roles (`roles:`) as JSON — each a customId, a name, privilege names and
 * the transitions (status ids) moveStatus is limited to, or null for none. Null or absent: only the built-in roles.
 * Kept on the program row, which every request reads fresh, so a changed role applies at once on every instance.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('roles', 'text').execute();
}
