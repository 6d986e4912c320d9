import type { Kysely } from 'kysely';

/**
 * Test copies of programs (issue 33, §3): `programs.test_of`, the live program a program is a test copy of (null for
 * a live program). A test copy is a program row of its own (its definition, numbering, projects and grants); the
 * column is what keeps its mail out of SMTP and marks its pages and answers.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('programs').addColumn('test_of', 'text').execute();
  await db.schema.createIndex('programs_test_of').on('programs').column('test_of').execute();
}
